import fp from 'fastify-plugin'
import type { FastifyInstance, onRequestHookHandler } from 'fastify'
import { credentialOf, keyId, keyIds, matchDigest, sha256 } from '../src/ops/access-keys.js'
import { ProblemError } from '../src/http/errors.js'
import { GENERATOR_PREFIX, SET_URL } from '../src/http/generator-route.js'
import { MCP_PATH } from '../src/mcp/tools.js'

const CHALLENGE = 'Bearer realm="randgen"'
// RFC 6750 §3.1: a key was sent, and it is not one we accept
const CHALLENGE_INVALID = 'Bearer realm="randgen", error="invalid_token"'

/**
 * CONTRACT §9: with digests configured, every generator route asks for `Authorization: Bearer
 * <key>` before its body is read. Our own hook rather than @fastify/bearer-auth: that plugin
 * compares the presented key with each configured key (it would hold keys, not digests, unless
 * given an `auth` callback, which would then be all of the check), answers in its own error
 * format, and applies to every route of its scope, where the page, the docs and the health
 * routes must stay open. The check is a dozen lines over node:crypto.
 */
export default fp(async function accessKeys (app: FastifyInstance, options: { digests: readonly Buffer[] }) {
  const { digests } = options
  if (digests.length === 0) return

  const requireKey: onRequestHookHandler = (request, reply, done) => {
    const credential = credentialOf(request.headers.authorization)
    if (credential.kind === 'key') {
      const digest = sha256(credential.key)
      const index = matchDigest(digests, digest)
      if (index !== -1) {
        keyIds.set(request, keyId(digests[index] as Buffer))
        return done()
      }
      reply.header('www-authenticate', CHALLENGE_INVALID)
      return done(new ProblemError(401, 'UNAUTHORIZED', 'KEY_INVALID', {}, { keyId: keyId(digest) }))
    }
    if (credential.kind === 'malformed') {
      reply.header('www-authenticate', CHALLENGE_INVALID)
      return done(new ProblemError(401, 'UNAUTHORIZED', 'KEY_INVALID'))
    }
    reply.header('www-authenticate', CHALLENGE)
    done(new ProblemError(401, 'UNAUTHORIZED', 'KEY_MISSING'))
  }

  // Generator routes, sets and /mcp only (the page, /docs, /api/health, /livez and /readyz stay open),
  // and not their OPTIONS: a CORS preflight never carries credentials
  app.addHook('onRoute', (route) => {
    if (!(route.url.startsWith(GENERATOR_PREFIX) || route.url === SET_URL || route.url === MCP_PATH) || route.method === 'OPTIONS') return
    // After the route's own hooks (every generator route has one), so a 401 still says Vary:
    // Accept like every answer of the route, and /mcp refuses a foreign Origin before asking for a key
    route.onRequest = [...[route.onRequest].flat().filter((hook) => hook !== undefined), requireKey]
  })
}, { name: 'access-keys', dependencies: ['errors'] })
