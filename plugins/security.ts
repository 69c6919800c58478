import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'

/**
 * Security headers on every response. The CSP allows only same-origin resources; Swagger UI's
 * pages get their own CSP with hashes from @fastify/swagger-ui (see plugins/docs.ts).
 * `upgrade-insecure-requests` is left out so /docs works over plain HTTP on a private network.
 * @see https://github.com/fastify/fastify-helmet
 */
export default fp(async function security (app: FastifyInstance) {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: true,
      directives: { upgradeInsecureRequests: null }
    }
  })
}, { name: 'security' })
