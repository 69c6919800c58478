import { availableParallelism } from 'node:os'
import { Type, type Static } from '@sinclair/typebox'
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv'
import { AccessKeySettings, accessKeyDigests } from './access-keys.js'
import { ConfigError } from './config-error.js'
import { McpSettings, mcpAllowedOrigins } from '../mcp/origins.js'

/** CONTRACT §12.1: HASH_CONCURRENCY's bounds. */
export const HASH_CONCURRENCY_MAX = 64

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
  }),
  // CONTRACT §9: after SIGTERM /readyz answers 503 while the listener stays open this long, so a
  // load balancer that follows readiness stops routing before connections are refused. Part of
  // SHUTDOWN_TIMEOUT, so it must be shorter
  SHUTDOWN_DELAY: Type.Integer({
    default: 0, minimum: 0, maximum: 60_000, description: 'Milliseconds /readyz answers 503 after SIGTERM before the listener closes'
  }),
  // CONTRACT §9: a second listener serving only GET /metrics; absent means no metrics at all
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: 'TCP port of the Prometheus metrics listener (off when unset)' })),
  // Loopback unless said otherwise: metrics are for the scraper, never the public (the image says 0.0.0.0)
  METRICS_HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'Address the metrics listener binds' }),
  // CONTRACT §9: the accepted access keys' digests, a setting src/ops/access-keys.ts owns and checks
  ...AccessKeySettings.properties,
  // CONTRACT §11: the MCP endpoint and the browser origins it answers besides loopback, owned and
  // checked by src/mcp/origins.ts
  ...McpSettings.properties,
  // CONTRACT §12.1: hashes running at once on the hashing threads (src/work-pool/pool.ts). No default
  // in the schema: the build compiles this validator ahead (src/build/precompiled.ts), which would
  // bake in the build machine's CPUs; checked() fills in this machine's
  HASH_CONCURRENCY: Type.Optional(Type.Integer({
    minimum: 1, maximum: HASH_CONCURRENCY_MAX, description: 'Hashes made at once (default: the CPUs the process may use, at most 64)'
  })),
  // CONTRACT §12.1: hashes admitted to wait beyond those; a request that does not fit is answered 503 BUSY
  HASH_QUEUE: Type.Integer({ default: 32, minimum: 0, maximum: 10_000, description: 'Hashes admitted to wait for a hashing thread' })
// Every other variable of the environment is dropped (configAjv: removeAdditional)
}, { additionalProperties: false })

/** The environment's settings as the schema checks them. */
export type Settings = Static<typeof ConfigSchema>
/** The configuration: the settings, HASH_CONCURRENCY's default filled in (loadConfig). */
export type Config = Settings & { HASH_CONCURRENCY: number }

/** HASH_CONCURRENCY's default: the CPUs this process may use (os.availableParallelism), at most 64. */
export function defaultHashConcurrency (): number {
  return Math.min(HASH_CONCURRENCY_MAX, Math.max(1, availableParallelism()))
}

export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean)

/**
 * AJV for the environment: strings coerced to the schema's types, defaults filled in, variables
 * the schema does not name dropped, every problem reported. (env-schema does the same, but its
 * shared AJV instance compiles the JSON Schema meta-schema when it is imported: ~40 ms of every
 * start-up.)
 */
export function configAjv (options: Options = {}): Ajv {
  return new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, removeAdditional: true, ...options })
}

export type ConfigValidator = ValidateFunction<Settings>

let fromSource: ConfigValidator | undefined
function compiledFromSource (): ConfigValidator {
  fromSource ??= configAjv().compile<Settings>(ConfigSchema)
  return fromSource
}

/**
 * The configuration from `env` over the process environment. `validate` is the production
 * build's precompiled validator (src/build/precompiled.ts); from source AJV compiles one once.
 */
export function loadConfig (env: NodeJS.ProcessEnv = process.env, validate: ConfigValidator = compiledFromSource()): Config {
  const config: Record<string, unknown> = { ...process.env, ...env }
  if (validate(config)) return checked(config)
  // One line naming the variables: "PORT must be <= 65535, LOG_LEVEL must be equal to one of ...".
  // A failed validation always has errors, and AJV writes their messages unless told not to
  const problems = (validate.errors as ErrorObject[]).map((error) => `${error.instancePath.slice(1)} ${error.message as string}`)
  throw new ConfigError(`Invalid configuration: ${problems.join(', ')}`)
}

/** Rules across settings, and the access keys' digests, which are checked here so a bad one stops the start. */
function checked (config: Settings): Config {
  if (config.SHUTDOWN_DELAY >= config.SHUTDOWN_TIMEOUT) {
    throw new ConfigError('Invalid configuration: SHUTDOWN_DELAY must be shorter than SHUTDOWN_TIMEOUT')
  }
  accessKeyDigests(config)
  mcpAllowedOrigins(config)
  return { ...config, HASH_CONCURRENCY: config.HASH_CONCURRENCY ?? defaultHashConcurrency() }
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
