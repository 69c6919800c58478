import { createRequire } from 'node:module'
import type { IncomingMessage, ServerResponse } from 'node:http'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'

/**
 * The CSP allows only same-origin resources; Swagger UI's pages get their own CSP with hashes
 * from @fastify/swagger-ui (see plugins/docs.ts), set later in the request, which replaces this one.
 * `upgrade-insecure-requests` is left out so /docs works over plain HTTP on a private network.
 * @see https://github.com/fastify/fastify-helmet
 */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    useDefaults: true,
    directives: { upgradeInsecureRequests: null }
  }
}

type HelmetMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: Error) => void) => void

// The helmet that @fastify/helmet wraps, resolved from @fastify/helmet itself so both stay the same version
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as (options: typeof HELMET_OPTIONS) => HelmetMiddleware

/**
 * The security headers @fastify/helmet sets with these options. @fastify/helmet builds a new helmet
 * middleware for every request (options parsed, CSP directives assembled); without CSP nonces the
 * headers depend on the options alone, so they are computed once here.
 */
export function helmetHeaders (options: typeof HELMET_OPTIONS = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {}
  const response = {
    setHeader: (name: string, value: string) => { headers[name.toLowerCase()] = value },
    // helmet removes X-Powered-By, which Node and Fastify never set
    removeHeader: () => {}
  }
  // helmet 8 throws on bad options itself; `next` carries nothing
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {})
  return headers
}

/**
 * Security headers on every response (404, 405 and errors included): one hook, no per-request work.
 * `Cache-Control: no-store` rides along: generated secrets, health and errors must never be cached
 * (CONTRACT §1.2, §3, §4); static files under /docs set their own caching after this hook.
 */
export default fp(async function security (app: FastifyInstance) {
  const headers = { ...helmetHeaders(), 'cache-control': 'no-store' }
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
}, { name: 'security' })
