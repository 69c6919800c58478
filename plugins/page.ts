import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { pageBundle } from '../src/build/page-assets.js'
import { PAGE_CSP } from '../src/http/security-headers.js'

/** Content-hashed names never change content, so browsers and the edge keep them for a year (CONTRACT §8). */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * The page for people at / and its files under /assets/ (CONTRACT §8), served from memory with
 * their own CSP. `/` stays `no-store` (plugins/security.ts): it names the current assets.
 * Left out of the OpenAPI document: it describes the API, not the page.
 */
export default fp(async function page (app: FastifyInstance) {
  app.get('/', { schema: { hide: true } }, async (_request, reply): Promise<FastifyReply> => {
    const { html } = await pageBundle()
    return reply.header('content-security-policy', PAGE_CSP).type('text/html; charset=utf-8').send(html)
  })

  app.get('/assets/:name', { schema: { hide: true } }, async (request, reply): Promise<FastifyReply> => {
    const { assets } = await pageBundle()
    const { name } = request.params as { name: string }
    const asset = Object.hasOwn(assets, name) ? assets[name] : undefined
    // Unknown names get the service's ordinary 404 problem document
    if (asset === undefined) {
      reply.callNotFound()
      return reply
    }
    return reply
      .header('content-security-policy', PAGE_CSP)
      .header('cache-control', IMMUTABLE)
      .type(asset.contentType)
      .send(asset.body)
  })
}, { name: 'page', dependencies: ['security', 'errors'] })
