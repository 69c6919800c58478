import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { SECURITY_HEADERS } from '../src/http/security-headers.js'

/**
 * Security headers and `Cache-Control: no-store` on every response (404, 405 and errors included):
 * one hook, no per-request work. Static files under /docs set their own caching after this hook.
 */
export default fp(async function security (app: FastifyInstance) {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS)
    done()
  })
}, { name: 'security' })
