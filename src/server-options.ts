// The Fastify options production runs with. src/server.ts and test/helper.ts both use this
// function, so tests never run with validation, limits or logging production does not have.
import type { FastifyHttpOptions, FastifyRequest } from 'fastify'
import type { Server } from 'node:http'
import type { DestinationStream } from 'pino'
import { parseTrustProxy, type Config } from './config.js'
import { clientErrorHandler } from './errors.js'

/** CONTRACT §5: bodies up to 64 KiB. */
export const BODY_LIMIT = 65_536
/** Room for a 48 KiB X-Data plus ordinary headers (Node's default is 16 KiB). */
export const MAX_HEADER_SIZE = 65_536 + 16_384

function pathOnly (url: string): string {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

export function serverOptions (config: Config, logStream?: DestinationStream): FastifyHttpOptions<Server> {
  return {
    logger: {
      level: config.LOG_LEVEL,
      // Defence in depth: nothing below logs headers or bodies, but if anything ever does,
      // parameters (X-Data, body) and generated values are censored
      redact: {
        paths: ['req.headers["x-data"]', 'req.body', 'res.body', 'body', 'payload', 'values', 'headers["x-data"]'],
        censor: '[redacted]'
      },
      serializers: {
        // Query strings never reach the log: a user may have put parameters there by mistake
        req: (request: FastifyRequest) => ({ method: request.method, url: pathOnly(request.url), remoteAddress: request.ip })
      },
      ...(logStream === undefined ? {} : { stream: logStream })
    },
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    bodyLimit: BODY_LIMIT,
    // Slow clients are cut off: whole request within 10 s, idle keep-alive sockets after 5 s
    connectionTimeout: 30_000,
    requestTimeout: 10_000,
    keepAliveTimeout: 5_000,
    http: { maxHeaderSize: MAX_HEADER_SIZE, headersTimeout: 10_000 },
    clientErrorHandler,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: {
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: true,
        allErrors: true,
        // number.exclusions items are `string | integer`
        allowUnionTypes: true,
        // parentSchema on each error gives the bounds our messages quote
        verbose: true
      }
    }
  }
}
