import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { SERVICE_VERSION } from '../src/version.js'
import { X_DATA_MAX_LENGTH } from '../src/x-data.js'

/** The OpenAPI 3.1 document (/docs/json, /docs/yaml) and Swagger UI at /docs. */
export default fp(async function docs (app: FastifyInstance, options: { ui?: boolean }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'randgen',
        version: SERVICE_VERSION,
        description: 'Cryptographically secure random values: passwords, integers, VPN secrets, UUIDs, BIP-39 phrases, bytes and short IDs.',
        license: { name: 'MIT', identifier: 'MIT' }
      },
      servers: [{ url: '/' }],
      tags: [
        { name: 'generators', description: 'Random value generators: POST with a JSON body, or GET with the X-Data header.' },
        { name: 'health', description: 'Liveness and readiness.' }
      ]
    },
    // Shared schemas become named components (#/components/schemas/PasswordParams)
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`)
    },
    // GET operations take their parameters from X-Data, not from the query string
    transform: ({ schema, url, route }) => {
      if (route.method !== 'GET' || schema?.querystring === undefined) return { schema, url }
      const { querystring, ...rest } = schema
      return {
        url,
        schema: {
          ...rest,
          headers: {
            type: 'object',
            properties: {
              'x-data': {
                type: 'string',
                maxLength: X_DATA_MAX_LENGTH,
                description: 'The parameters as a JSON object, UTF-8, then Base64 (standard or URL-safe alphabet, padding optional). Absent means {}.',
                contentEncoding: 'base64',
                contentMediaType: 'application/json',
                contentSchema: querystring
              }
            }
          }
        }
      }
    }
  })
  if (options.ui !== false) {
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, '')
    })
  }
}, { name: 'docs', dependencies: ['security'] })
