// The Fastify options production runs with. src/server.ts and test/helper.ts both use this
// function, so tests never run with validation, limits or logging production does not have.
import { LogController, type FastifyHttpOptions, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Server } from 'node:http'
import type { DestinationStream } from 'pino'
import { keyIds } from './ops/access-keys.js'
import { parseTrustProxy, type Config } from './ops/config.js'
import { clientErrorHandler, frameworkErrorHandler, pathOf } from './http/errors.js'
import { lazyChildLoggerFactory } from './http/lazy-logger.js'
import type { Metrics } from './ops/metrics.js'
import type { CompilersFactory } from './build/compiled-schemas.js'
import { sharedSerializerFactory } from './http/serializers.js'

/** CONTRACT §5: bodies up to 64 KiB. */
export const BODY_LIMIT = 65_536
/**
 * A socket with nothing sent or received this long is closed, a request waiting for its answer
 * included; one waiting for its hashes is answered 503 BUSY then instead (src/http/pooled-work.ts).
 */
export const CONNECTION_TIMEOUT_MILLISECONDS = 30_000
/** Room for a 48 KiB X-Data plus ordinary headers (Node's default is 16 KiB). */
export const MAX_HEADER_SIZE = 65_536 + 16_384

/**
 * Fastify logs two lines per request at `info`: "incoming request" and "request completed". Each
 * line costs about as much CPU as the rest of the request (bench: ~25 µs, a third of the
 * throughput), and a successful generation is the expected outcome, so at `info` only failed
 * requests are logged, with one line that says who asked for what and how it ended (failures also
 * log their code). Both lines for every request are there at `debug`; the edge's access log
 * (docker-compose.yml) records every request anyway.
 */
// The levels that write debug lines: below them a successful request's lines are not even built
const DEBUG_LEVELS = new Set(['debug', 'trace'])

/** How a request ended: who asked for what (the `req` serializer), the status and how long it took. */
function completion (request: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  const keyId = keyIds.get(request)
  const line: Record<string, unknown> = { req: request, res: reply, responseTime: reply.elapsedTime }
  // CONTRACT §9: the access key that was let in, named by its id only
  if (keyId !== undefined) line.keyId = keyId
  return line
}

export class RequestLogController extends LogController {
  /** CONTRACT §9 metrics, when on: told of every answered request here, where Fastify calls us anyway (no hook of its own to run). */
  private readonly observe: Metrics['observeRequest'] | undefined

  constructor (metrics?: Metrics | null) {
    super()
    this.observe = metrics?.observeRequest
  }

  override incomingRequest (request: FastifyRequest): void {
    if (DEBUG_LEVELS.has(request.log.level)) request.log.debug({ req: request }, 'incoming request')
  }

  override requestCompleted (error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // reply.elapsedTime: Fastify's own high-resolution clock from the request's arrival
    if (this.observe !== undefined) this.observe(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime)
    if (error != null) reply.log.error({ ...completion(request, reply), err: error }, 'request errored')
    else if (reply.statusCode >= 400) reply.log.info(completion(request, reply), 'request completed')
    else if (DEBUG_LEVELS.has(reply.log.level)) reply.log.debug(completion(request, reply), 'request completed')
  }
}

/**
 * `compilers`: how route schemas become validators and serializers. By default Fastify compiles
 * them at start-up (one serializer per response schema, not per route); the production build
 * brings them compiled (src/build/precompiled.ts).
 */
export function serverOptions (config: Config, logStream?: DestinationStream, compilers?: CompilersFactory, metrics?: Metrics | null): FastifyHttpOptions<Server> {
  return {
    logger: {
      level: config.LOG_LEVEL,
      // Defence in depth: nothing below logs headers or bodies, but if anything ever does,
      // parameters (X-Data, body) and generated values are censored
      redact: {
        paths: ['req.headers["x-data"]', 'req.headers.authorization', 'headers.authorization', 'req.body', 'res.body', 'body', 'payload', 'values', 'headers["x-data"]'],
        censor: '[redacted]'
      },
      serializers: {
        // Query strings never reach the log: a user may have put parameters there by mistake
        req: (request: FastifyRequest) => ({ method: request.method, url: pathOf(request.url), remoteAddress: request.ip })
      },
      ...(logStream === undefined ? {} : { stream: logStream })
    },
    logController: new RequestLogController(metrics),
    // Each request's child logger (with its redaction) is made only when it writes a line
    childLoggerFactory: lazyChildLoggerFactory,
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    bodyLimit: BODY_LIMIT,
    // Slow clients are cut off: whole request within 10 s, idle keep-alive sockets after 5 s
    connectionTimeout: CONNECTION_TIMEOUT_MILLISECONDS,
    requestTimeout: 10_000,
    keepAliveTimeout: 5_000,
    // connectionsCheckingInterval: Node enforces headersTimeout/requestTimeout only when it checks,
    // every 30 s by default; checking each second cuts slow clients off close to the 10 s
    // requireHostHeader: a request without Host gets a problem document from src/http/host-header.ts, not Node's bare 400
    http: { maxHeaderSize: MAX_HEADER_SIZE, headersTimeout: 10_000, connectionsCheckingInterval: 1_000, requireHostHeader: false },
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // A request that reaches the server while it drains is served (then its connection closed),
    // not given Fastify's bare 503, which is no problem document (test/faults/shutdown-under-load.test.ts)
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    schemaController: { compilersFactory: compilers ?? { buildSerializer: sharedSerializerFactory() } },
    ajv: {
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: true,
        allErrors: true,
        // number.exclusions items are `string | integer`
        allowUnionTypes: true,
        // A set item (CONTRACT §10) is a choice by `type`: only the chosen generator's schema is
        // tried, so its errors are that generator's own, and its defaults are filled in
        discriminator: true,
        // parentSchema on each error gives the bounds our messages quote
        verbose: true
      }
    }
  }
}
