import { createHash } from 'node:crypto'
import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler'

/**
 * Fastify's own response serializer factory (fast-json-stringify), building one serializer per
 * distinct response schema instead of one per route. Each generator answers POST, GET and HEAD
 * with the same result schema, and building serializers was a fifth of start-up (68 ms of
 * compileSchemasForSerialization in a profile of the production build). Fastify asks the factory
 * again for every route once schemas have been added, so the cache outlives each call; it is
 * keyed by everything a serializer depends on: the shared schemas, the options and the route's
 * response schema. Serializers are pure functions of the value they serialise: routes can share them.
 */
export function sharedSerializerFactory (): SerializerFactory {
  const selector = SerializerSelector()
  const built = new Map<string, Serializer>()
  return (externalSchemas, options) => {
    const compile = selector(externalSchemas, options)
    const context = createHash('sha256').update(JSON.stringify([externalSchemas, options])).digest('base64')
    return (route) => {
      const key = `${context} ${JSON.stringify(route.schema)}`
      let serializer = built.get(key)
      if (serializer === undefined) {
        serializer = compile(route)
        built.set(key, serializer)
      }
      return serializer
    }
  }
}
