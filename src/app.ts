import Fastify, { type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { DestinationStream } from 'pino'
import type { CompilersFactory } from './build/compiled-schemas.js'
import type { Config } from './ops/config.js'
import { serverOptions } from './server-options.js'
import security from '../plugins/security.js'
import docs from '../plugins/docs.js'
import errors from '../plugins/errors.js'
import health from '../plugins/health.js'
import metrics from '../plugins/metrics.js'
import workPool from '../plugins/work-pool.js'
import accessKeys from '../plugins/access-keys.js'
import { accessKeyDigests } from './ops/access-keys.js'
import page from '../plugins/page.js'
import mcp from '../plugins/mcp.js'
import { mcpAllowedOrigins } from './mcp/origins.js'
import password from '../plugins/password.js'
import passphrase from '../plugins/passphrase.js'
import number from '../plugins/number.js'
import vpn from '../plugins/vpn.js'
import uuid from '../plugins/uuid.js'
import phrase from '../plugins/phrase.js'
import seq from '../plugins/seq.js'
import shortId from '../plugins/short-id.js'
import pin from '../plugins/pin.js'
import sshKey from '../plugins/ssh-key.js'
import ageKey from '../plugins/age-key.js'
import token from '../plugins/token.js'
import totp from '../plugins/totp.js'
import signingKey from '../plugins/signing-key.js'
import sets from '../plugins/sets.js'
import recipes from '../plugins/recipes.js'

export interface BuildOptions {
  /** Where log lines go (tests capture them); stdout when absent. */
  logStream?: DestinationStream
  /** How route schemas become validators and serializers (see serverOptions); Fastify compiles them when absent. */
  compilers?: CompilersFactory
}

/** The whole service, in registration order: external plugins, our handlers, then routes. */
export async function buildApp (config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Made before Fastify: the request log controller counts each answered request (CONTRACT §9).
  // Imported only when metrics are on: the Prometheus client and its default metrics cost start-up
  // time and idle memory in a process that never serves them (issue 26)
  const metricsOfApp = config.METRICS_PORT === undefined ? null : (await import('./ops/metrics.js')).createMetrics()
  const app = Fastify(serverOptions(config, options.logStream, options.compilers, metricsOfApp)).withTypeProvider<TypeBoxTypeProvider>()

  await app.register(security)
  await app.register(docs, { ui: config.DOCS_ENABLED })
  await app.register(errors)
  // Before every route: generators take their value counters from the metrics, and the
  // access-key check attaches to routes as they are added
  await app.register(metrics, { metrics: metricsOfApp, port: config.METRICS_PORT, host: config.METRICS_HOST })
  await app.register(workPool, { concurrency: config.HASH_CONCURRENCY, queue: config.HASH_QUEUE })
  await app.register(accessKeys, { digests: accessKeyDigests(config) })
  // Before the generators: each generator's POST route is also a tool (CONTRACT §11)
  await app.register(mcp, { enabled: config.MCP_ENABLED, allowedOrigins: mcpAllowedOrigins(config) })

  await app.register(health)
  await app.register(page)
  await app.register(password)
  await app.register(passphrase)
  await app.register(number)
  await app.register(vpn)
  await app.register(uuid)
  await app.register(phrase)
  await app.register(seq)
  await app.register(shortId)
  await app.register(pin)
  await app.register(sshKey)
  await app.register(ageKey)
  await app.register(token)
  await app.register(totp)
  await app.register(signingKey)
  // After every generator: a set is built from their schemas and draws with their code
  await app.register(sets)
  await app.register(recipes)

  return app
}
