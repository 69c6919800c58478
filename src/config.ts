import { Type, type Static } from '@sinclair/typebox'
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

export const ConfigSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'Address to listen on' }),
  PORT: Type.Integer({ default: 3000, minimum: 0, maximum: 65535, description: 'TCP port to listen on' }),
  LOG_LEVEL: Type.Unsafe<typeof LOG_LEVELS[number]>({
    type: 'string', enum: [...LOG_LEVELS], default: 'info', description: 'pino log level'
  }),
  // 'false' (default), 'true', a hop count, or a comma-separated list of trusted addresses/CIDRs,
  // passed to Fastify's trustProxy so logs see the client behind the edge proxy
  TRUST_PROXY: Type.String({
    default: 'false',
    pattern: '^(true|false|[0-9]+|[0-9A-Fa-f:.,/ ]+)$',
    description: 'Trust X-Forwarded-* from: false, true, a hop count, or addresses/CIDRs'
  }),
  DOCS_ENABLED: Type.Boolean({ default: true, description: 'Serve Swagger UI and the OpenAPI document at /docs' }),
  // Kept below the orchestrator's kill deadline (Compose stop_grace_period, Kubernetes
  // terminationGracePeriodSeconds) so requests in flight finish before a SIGKILL can arrive
  SHUTDOWN_TIMEOUT: Type.Integer({
    default: 10_000, minimum: 1000, maximum: 300_000, description: 'Milliseconds to finish requests in flight after SIGTERM/SIGINT'
  })
// Every other variable of the environment is dropped (configAjv: removeAdditional)
}, { additionalProperties: false })

export type Config = Static<typeof ConfigSchema>

export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean)

/** Thrown for a bad environment: the message is one line that names the variable. */
export class ConfigError extends Error {}

/**
 * AJV for the environment: strings coerced to the schema's types, defaults filled in, variables
 * the schema does not name dropped, every problem reported. (env-schema does the same, but its
 * shared AJV instance compiles the JSON Schema meta-schema when it is imported: ~40 ms of every
 * start-up.)
 */
export function configAjv (options: Options = {}): Ajv {
  return new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, removeAdditional: true, ...options })
}

export type ConfigValidator = ValidateFunction<Config>

let fromSource: ConfigValidator | undefined
function compiledFromSource (): ConfigValidator {
  fromSource ??= configAjv().compile<Config>(ConfigSchema)
  return fromSource
}

/**
 * The configuration from `env` over the process environment. `validate` is the production
 * build's precompiled validator (src/precompiled.ts); from source AJV compiles one once.
 */
export function loadConfig (env: NodeJS.ProcessEnv = process.env, validate: ConfigValidator = compiledFromSource()): Config {
  const config: Record<string, unknown> = { ...process.env, ...env }
  if (validate(config)) return config as Config
  // One line naming the variables: "PORT must be <= 65535, LOG_LEVEL must be equal to one of ...".
  // A failed validation always has errors, and AJV writes their messages unless told not to
  const problems = (validate.errors as ErrorObject[]).map((error) => `${error.instancePath.slice(1)} ${error.message as string}`)
  throw new ConfigError(`Invalid configuration: ${problems.join(', ')}`)
}

export function parseTrustProxy (value: string): TrustProxy {
  if (value === 'true') return true
  if (value === 'false') return false
  if (/^[0-9]+$/.test(value)) {
    // Trust this many proxies in front of the service (proxy-addr's hop semantics)
    const hops = Number(value)
    return (_address, hop) => hop < hops
  }
  return value.split(',').map((part) => part.trim()).filter((part) => part !== '')
}
