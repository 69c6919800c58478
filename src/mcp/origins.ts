// CONTRACT §11: which browser origins may call /mcp. A web page the user opens can make the
// browser POST to a server on the user's machine or network (DNS rebinding points a foreign name
// at it); the Origin header says whose page it is, so any origin but loopback and the ones an
// operator lists is refused before a byte of JSON-RPC is read.
import { Type, type Static } from '@sinclair/typebox'
import { ConfigError } from '../ops/config-error.js'

export const McpSettings = Type.Object({
  MCP_ENABLED: Type.Boolean({ default: true, description: 'Serve the MCP endpoint /mcp (true or false)' }),
  MCP_ALLOWED_ORIGINS: Type.String({
    default: '',
    description: 'Comma-separated browser origins (scheme://host[:port]) allowed to call /mcp besides loopback ones; they get CORS answers'
  })
})

/** `scheme://host[:port]` of `text` as browsers write it in Origin, or undefined when it is no http(s) origin. */
export function originOf (text: string): string | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  // An origin is scheme, host and port only: a path, query, fragment or user name means it was
  // not one (a browser never sends them)
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || url.pathname !== '/') return undefined
  return url.origin
}

/**
 * The origins MCP_ALLOWED_ORIGINS lists, as browsers write them; a bad entry stops the start
 * with a message naming the setting and the entry's position.
 */
export function mcpAllowedOrigins (config: Static<typeof McpSettings>): Set<string> {
  const origins = new Set<string>()
  config.MCP_ALLOWED_ORIGINS.split(',').forEach((raw, index) => {
    const entry = raw.trim()
    if (entry === '') return
    const origin = originOf(entry)
    if (origin === undefined) {
      throw new ConfigError(`Invalid configuration: MCP_ALLOWED_ORIGINS entry ${index + 1} is not an origin (http or https, scheme://host[:port])`)
    }
    origins.add(origin)
  })
  return origins
}

// After URL's parsing, an IPv4 host is always four decimal parts (127.1 becomes 127.0.0.1), and
// a name that merely starts with them (127.0.0.1.example.com) stays a name
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/** Whether `origin` (as originOf gives it) is this machine: localhost, 127.0.0.0/8 or [::1], http or https, any port. */
export function isLoopbackOrigin (origin: string): boolean {
  const { hostname } = new URL(origin)
  return hostname === 'localhost' || hostname === '[::1]' || LOOPBACK_IPV4.test(hostname)
}

/**
 * How /mcp treats a request's Origin header: absent (not a browser, or a same-origin GET), any
 * loopback origin, or a listed one is allowed; the allowed origins that a browser sent also get
 * CORS headers. Everything else, `null` and malformed values included, is foreign.
 */
export function originVerdict (header: string | undefined, allowed: ReadonlySet<string>): 'absent' | 'allowed' | 'foreign' {
  if (header === undefined) return 'absent'
  const origin = originOf(header)
  if (origin === undefined) return 'foreign'
  return allowed.has(origin) || isLoopbackOrigin(origin) ? 'allowed' : 'foreign'
}
