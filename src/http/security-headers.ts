import { createRequire } from 'node:module'
import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * The CSP allows only same-origin resources; Swagger UI's pages get their own CSP with hashes
 * from @fastify/swagger-ui (see plugins/docs.ts), set later in the request, which replaces this one.
 * `upgrade-insecure-requests` is left out so /docs works over plain HTTP on a private network.
 * @see https://github.com/fastify/fastify-helmet
 */
const HELMET_OPTIONS = {
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
 * headers depend on the options alone, so they are computed once.
 */
function helmetHeaders (): Record<string, string> {
  const headers: Record<string, string> = {}
  const response = {
    setHeader: (name: string, value: string) => { headers[name.toLowerCase()] = value },
    // helmet removes X-Powered-By, which Node and Fastify never set
    removeHeader: () => {}
  }
  // helmet 8 throws on bad options itself; `next` carries nothing
  helmet(HELMET_OPTIONS)({} as IncomingMessage, response as unknown as ServerResponse, () => {})
  return headers
}

/**
 * What every response carries (CONTRACT §6, §1.2, §3, §4): helmet's headers, and
 * `Cache-Control: no-store`, since generated secrets, health and errors must never be cached.
 * Set by plugins/security.ts for every request that reaches the hooks, and by the error paths
 * that answer before any hook runs (src/http/errors.ts).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...helmetHeaders(), 'cache-control': 'no-store' })

/**
 * The page's own CSP (CONTRACT §8), stricter than helmet's default: nothing but the service's
 * own scripts, styles and icon, requests to the service only, no inline style or script, no
 * form posting anywhere, never framed. Trusted Types are required and no policy may be made
 * (`trusted-types 'none'`): the page builds its DOM from text and elements only, so an HTML or
 * script sink used by mistake fails in the browser instead of becoming a hole.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'"
].join('; ')
