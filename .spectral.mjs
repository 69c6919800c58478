// `npm run openapi:spectral`: the OWASP API Security ruleset over openapi.json, beside Redocly.
// The ruleset is imported from node_modules (a JavaScript ruleset, not a URL in `extends`), so the
// lint runs offline in CI. A rule is switched off only where it cannot apply to randgen: a public
// API without authentication (CONTRACT §6) that answers no cross-origin browser requests.
import owasp from '@stoplight/spectral-owasp-ruleset'

export default {
  extends: [owasp],
  rules: {
    // Authentication: there is none (the service holds no user data; CONTRACT §6), and the
    // document says so with `security: []`. Both rules demand a security scheme on every operation.
    'owasp:api2:2023-write-restricted': 'off',
    'owasp:api2:2023-read-restricted': 'off',
    // 401: no request is ever unauthorized, so there is no 401 to document.
    'owasp:api8:2023-define-error-responses-401': 'off',
    // CORS: the service sends no Access-Control-* headers (browsers are served same-origin, by
    // Swagger UI at /docs); documenting Access-Control-Allow-Origin would describe a header that
    // never comes.
    'owasp:api8:2023-define-cors-origin': 'off',
    // Rate-limit headers (RateLimit, X-RateLimit-Limit) on every 2XX and 4XX: the limit is the
    // edge's (nginx limit_req, CONTRACT §5), which sends no such headers, only 429 with
    // Retry-After; the document states that (every operation has its 429), and claiming headers
    // that never come would mislead clients.
    'owasp:api4:2023-rate-limit': 'off'
  },
  overrides: [
    {
      // number.exclusions items: any base-10 integer is accepted (as a string of digits or a JSON
      // integer), and one outside [min, max] is ignored (CONTRACT §2), so no bound or int32/int64
      // format would be true. What bounds the cost is the array's maxItems (1000) and the 64 KiB body.
      files: ['openapi.json#/components/schemas/NumberParams/properties/exclusions/items'],
      rules: {
        'owasp:api4:2023-integer-format': 'off',
        'owasp:api4:2023-integer-limit': 'off',
        'owasp:api4:2023-string-limit': 'off'
      }
    }
  ]
}
