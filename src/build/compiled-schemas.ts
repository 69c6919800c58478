// Route validators (AJV) and response serializers (fast-json-stringify) compiled ahead of time by
// the production build (scripts/compile-schemas.ts), restored through Fastify's standalone mode.
// Compiling them at start-up was about a fifth of the time to the first answer.
import { StandaloneValidator, type StandaloneRestoreFunction } from '@fastify/ajv-compiler'
import { StandaloneSerializer } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

export type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
type Validator = ReturnType<StandaloneRestoreFunction>
type Serializer = (value: unknown) => string

/** Every compiled function of the app, by `schemaKey`. */
export interface CompiledSchemas {
  validators: Record<string, Validator>
  serializers: Record<string, Serializer>
}

/** What Fastify tells a compiler about the schema it compiles. */
export interface SchemaUse {
  method: string
  url: string
  /** body, querystring, headers, params: validators */
  httpPart?: string
  /** 200, 503, ...: serializers */
  httpStatus?: string
  contentType?: string
}

/** One schema use of one route: `POST /api/generate/password body`, `GET /api/health 200`. */
export function schemaKey ({ method, url, httpPart, httpStatus, contentType }: SchemaUse): string {
  return [method, url, httpPart ?? httpStatus, contentType].filter((part) => part !== undefined).join(' ')
}

function restore<F> (compiled: Record<string, F>, kind: string, use: SchemaUse): F {
  const key = schemaKey(use)
  const found = compiled[key]
  // The build compiled the same routes from the same source; a miss means a stale or partial build
  if (found === undefined) throw new Error(`No precompiled ${kind} for ${key}: rebuild with npm run build`)
  return found
}

/** Fastify's compilers factory, giving each route the functions the build compiled for it. */
export function restoringCompilers (compiled: CompiledSchemas): CompilersFactory {
  return {
    buildValidator: StandaloneValidator({ readMode: true, restoreFunction: (use) => restore(compiled.validators, 'validator', use) }),
    buildSerializer: StandaloneSerializer({ readMode: true, restoreFunction: (use) => restore(compiled.serializers, 'serializer', use) })
  }
}
