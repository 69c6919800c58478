// What every response must look like, whatever the request (CONTRACT §1.2, §3, §4): a 5xx, a
// hang, or a response that is neither a contract-valid success nor a contract-valid problem
// document is a violation. Returns the violations (empty when the response is fine).
import type { LightMyRequestResponse as Response } from 'fastify'
import { FIELD_CODES } from '../../src/i18n/catalog.js'
import { LANGUAGES } from '../../src/i18n/index.js'
import { ruleViolations } from './rules.js'

export const GENERATORS = ['password', 'passphrase', 'number', 'vpn', 'uuid', 'phrase', 'seq', 'short-id', 'pin', 'ssh-key', 'age-key', 'token', 'totp'] as const
export type Generator = typeof GENERATORS[number]

/** CONTRACT §4: the problem codes of the contract. */
export const CONTRACT_CODES = [
  'VALIDATION_FAILED', 'X_DATA_INVALID', 'BODY_INVALID', 'NOT_FOUND', 'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'RATE_LIMITED', 'INTERNAL_ERROR'
]
const STATUS_OF_CODE: Record<string, number | undefined> = {
  X_DATA_INVALID: 400,
  BODY_INVALID: 400,
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500
}

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export interface SentRequest {
  method: string
  url: string
  headers: Record<string, string>
  /** The parameters the client meant, when the request carried a parseable JSON object. */
  params?: Record<string, unknown>
  /** Keys the generator's schema knows, for generator routes. */
  knownKeys?: readonly string[]
}

/** The path as the router sees it: without the query, percent-decoded. */
/**
 * The page's path, `/`, as the request reaches the router: light-my-request resolves dot segments
 * as a URL parser does, so `/.`, `/%2e` and `/a/..` are `/` too (a real client's would be as well).
 */
function isPagePath (url: string): boolean {
  return new URL(url, 'http://fuzz.invalid').pathname === '/'
}

export function pathOf (url: string): string {
  const path = url.split('?')[0] as string
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/** CONTRACT §10: several generators in one request. */
export const SET_PATH = '/api/generate'

export function generatorOf (url: string): Generator | undefined {
  const path = pathOf(url)
  return GENERATORS.find((name) => path === `/api/generate/${name}`)
}

function parseJson (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkProblem (response: Response, request: SentRequest, violations: string[]): void {
  const headers = response.headers
  if (headers['content-type'] !== 'application/problem+json; charset=utf-8') violations.push(`problem content-type ${String(headers['content-type'])}`)
  if (headers['cache-control'] !== 'no-store') violations.push(`problem cache-control ${String(headers['cache-control'])}`)
  const language = headers['content-language']
  if (typeof language !== 'string' || !(LANGUAGES as string[]).includes(language)) violations.push(`content-language ${String(language)}`)
  // X-Language with a supported primary subtag wins over everything else
  const asked = request.headers['x-language']?.trim().split(/[-_]/, 1)[0]?.toLowerCase()
  if (asked !== undefined && (LANGUAGES as string[]).includes(asked) && language !== asked) violations.push(`x-language ${asked} answered in ${String(language)}`)
  if (request.method === 'HEAD') return
  const body = parseJson(response.body)
  if (!isObject(body)) {
    violations.push('problem body is not a JSON object')
    return
  }
  const { title, status, code, detail, errors, ...rest } = body
  if (Object.keys(rest).length > 0) violations.push(`problem has extra fields ${Object.keys(rest).join(',')}`)
  if (typeof title !== 'string' || title === '') violations.push('problem title')
  if (typeof detail !== 'string' || detail === '') violations.push('problem detail')
  if (status !== response.statusCode) violations.push(`problem status ${String(status)} != HTTP ${response.statusCode}`)
  if (typeof code !== 'string' || !CONTRACT_CODES.includes(code)) violations.push(`problem code ${String(code)} not in the contract`)
  else if (STATUS_OF_CODE[code] !== response.statusCode) violations.push(`code ${code} with status ${response.statusCode}`)
  if (code === 'VALIDATION_FAILED') {
    if (!Array.isArray(errors) || errors.length === 0) violations.push('VALIDATION_FAILED without errors')
    else {
      for (const error of errors) {
        if (!isObject(error) || typeof error.pointer !== 'string' || !error.pointer.startsWith('#') ||
          typeof error.detail !== 'string' || !(FIELD_CODES as readonly unknown[]).includes(error.code)) {
          violations.push(`bad field error ${JSON.stringify(error).slice(0, 200)}`)
        }
      }
      if (isObject(errors[0]) && errors[0].detail !== detail) violations.push('detail does not repeat the first error')
    }
  } else if (errors !== undefined) violations.push(`errors on ${String(code)}`)
  if (code === 'METHOD_NOT_ALLOWED' && typeof response.headers.allow !== 'string') violations.push('405 without Allow')
  if (/\bat .*\(.*:\d+:\d+\)|node_modules|\/work\//.test(response.body)) violations.push('problem leaks a stack or path')
}

function checkGenerated (response: Response, request: SentRequest, generator: Generator, violations: string[]): void {
  if (response.headers['content-type'] !== 'application/json; charset=utf-8') violations.push(`200 content-type ${String(response.headers['content-type'])}`)
  if (response.headers['cache-control'] !== 'no-store') violations.push('200 without Cache-Control: no-store')
  if (request.method === 'HEAD') return
  const body = parseJson(response.body)
  if (!isObject(body)) {
    violations.push('200 body is not a JSON object')
    return
  }
  // CONTRACT §1.2: these four fields, publicKeys for the key pairs of vpn, ssh-key and age-key,
  // hashes for tokens
  const keys = Object.keys(body).sort().join(',')
  const keyPairs = (generator === 'vpn' && 'publicKeys' in body) || generator === 'ssh-key' || generator === 'age-key'
  const expected = keyPairs
    ? 'entropyBits,generatedAt,publicKeys,type,values'
    : generator === 'token' ? 'entropyBits,generatedAt,hashes,type,values' : 'entropyBits,generatedAt,type,values'
  if (keys !== expected) violations.push(`200 fields ${keys}`)
  const bits = body.entropyBits
  // At most two decimals (a double such as 77.54 is only near a whole number of hundredths)
  if (typeof bits !== 'number' || !(bits >= 0) || Math.abs(bits * 100 - Math.round(bits * 100)) > 1e-6) violations.push(`entropyBits ${String(bits)}`)
  if (body.type !== generator) violations.push(`type ${String(body.type)} on ${generator}`)
  if (typeof body.generatedAt !== 'string' || !ISO_MILLIS.test(body.generatedAt)) violations.push(`generatedAt ${String(body.generatedAt)}`)
  if (!Array.isArray(body.values) || !body.values.every((value) => typeof value === 'string' && value !== '')) {
    violations.push('values is not an array of non-empty strings')
    return
  }
  if (request.params !== undefined) {
    const quantity = request.params.quantity ?? 1
    if (body.values.length !== quantity) violations.push(`${body.values.length} values for quantity ${String(quantity)}`)
    // Unknown fields must never be ignored: a 200 means every field was one the schema knows
    const unknown = Object.keys(request.params).filter((key) => !(request.knownKeys ?? []).includes(key))
    if (unknown.length > 0) violations.push(`200 despite unknown fields ${unknown.join(',')}`)
  }
}

/** The generator's own rules (test/fuzz/rules.ts), where the request's parameters are known. */
function checkRules (response: Response, request: SentRequest, generator: Generator, violations: string[]): void {
  if (request.params === undefined || (request.method !== 'GET' && request.method !== 'POST')) return
  violations.push(...ruleViolations(generator, request.params, response.statusCode, parseJson(response.body)))
}

/** The violations of one exchange; `request.params` is set when the client sent a JSON object. */
export function checkResponse (request: SentRequest, response: Response): string[] {
  const violations: string[] = []
  const status = response.statusCode
  if (status >= 500) violations.push(`status ${status}: ${response.body.slice(0, 300)}`)
  const generator = generatorOf(request.url)
  const path = pathOf(request.url)
  if (generator !== undefined) checkRules(response, request, generator, violations)
  if (status >= 400) {
    checkProblem(response, request, violations)
    // The method is judged before the body: a method a path does not take is 405 there (404 elsewhere)
    const allowed = generator !== undefined || path === SET_PATH ? ['GET', 'HEAD', 'POST', 'OPTIONS'] : path === '/api/health' ? ['GET', 'HEAD'] : undefined
    if (allowed !== undefined && !allowed.includes(request.method) && status !== 405) violations.push(`${request.method} ${path} answered ${status}, not 405`)
  } else if ((generator !== undefined || path === SET_PATH) && (request.method === 'OPTIONS')) {
    if (status !== 204 || typeof response.headers.allow !== 'string') violations.push(`OPTIONS answered ${status}`)
  } else if (path === SET_PATH) {
    // CONTRACT §10: a set answers 200 only to a valid one, with its items (a HEAD without a body)
    if (status !== 200 || !['GET', 'POST', 'HEAD'].includes(request.method)) violations.push(`set answered ${status} to ${request.method}`)
    else if (request.method !== 'HEAD' && !Array.isArray((parseJson(response.body) as { items?: unknown } | undefined)?.items)) violations.push('set answered 200 without items')
  } else if (generator !== undefined && (request.method === 'OPTIONS')) {
    if (status !== 204 || typeof response.headers.allow !== 'string') violations.push(`OPTIONS answered ${status}`)
  } else if (generator !== undefined) {
    if (status !== 200) violations.push(`generator answered ${status}`)
    else if (request.method !== 'GET' && request.method !== 'POST' && request.method !== 'HEAD') violations.push(`${request.method} answered 200`)
    else checkGenerated(response, request, generator, violations)
  } else if (path === '/api/health') {
    if (status !== 200 || response.headers['cache-control'] !== 'no-store') violations.push(`health answered ${status}`)
  } else if (isPagePath(request.url)) {
    // CONTRACT §8: the page, never cached
    if (status !== 200 || response.headers['cache-control'] !== 'no-store' || response.headers['content-type'] !== 'text/html; charset=utf-8') violations.push(`page answered ${status}`)
  } else if (!path.startsWith('/docs')) {
    violations.push(`unexpected ${status} on ${path}`)
  }
  return violations
}
