// The fuzz properties, shared by the tap test (test/fuzz/routes.test.ts, >= 20,000 cases per run)
// and the long run (scripts/fuzz.ts, 1,000,000 cases). Requests are built as raw text so the
// fuzzer can send what JSON.stringify never makes: duplicate and __proto__ keys, numbers beyond
// double range, nesting thousands deep.
import fc from 'fast-check'
import type { TObject } from '@sinclair/typebox'
import type { FastifyInstance, LightMyRequestResponse as Response } from 'fastify'
import { METHODS } from 'node:http'
import { NumberParams } from '../../schemas/number.js'
import { PassphraseParams } from '../../schemas/passphrase.js'
import { PasswordParams } from '../../schemas/password.js'
import { PhraseParams } from '../../schemas/phrase.js'
import { SeqParams } from '../../schemas/seq.js'
import { ShortIdParams } from '../../schemas/short-id.js'
import { PinParams } from '../../schemas/pin.js'
import { SshKeyParams } from '../../schemas/ssh-key.js'
import { AgeKeyParams } from '../../schemas/age-key.js'
import { TokenParams } from '../../schemas/token.js'
import { TotpParams } from '../../schemas/totp.js'
import { UuidParams } from '../../schemas/uuid.js'
import { VpnParams } from '../../schemas/vpn.js'
import { checkResponse, GENERATORS, type Generator, type SentRequest } from './invariants.js'

const PARAMS = {
  password: PasswordParams,
  passphrase: PassphraseParams,
  number: NumberParams,
  vpn: VpnParams,
  uuid: UuidParams,
  phrase: PhraseParams,
  seq: SeqParams,
  'short-id': ShortIdParams,
  pin: PinParams,
  'ssh-key': SshKeyParams,
  'age-key': AgeKeyParams,
  token: TokenParams,
  totp: TotpParams
} satisfies Record<Generator, TObject>

export const KNOWN_KEYS = {} as Record<Generator, readonly string[]>
for (const name of GENERATORS) KNOWN_KEYS[name] = Object.keys(PARAMS[name].properties)

/** A bound on every exchange: the app must answer each request well within it. */
export const INJECT_TIMEOUT_MS = 10_000
const BODY_LIMIT = 65_536

/** Tallies of a fuzz run, for the report. */
export interface FuzzStats {
  cases: number
  byStatus: Map<number, number>
  serverErrors: number
}

export function newStats (): FuzzStats {
  return { cases: 0, byStatus: new Map(), serverErrors: 0 }
}

// JSON values as text. A raw token is written as is (1e400, 123456789012345678901234567890);
// an object is a list of entries, so keys may repeat and may be __proto__.
class Raw { constructor (readonly text: string) {} }
class Entries { constructor (readonly entries: Array<[string, JsonTree]>) {} }
type JsonTree = Raw | Entries | JsonTree[] | string | number | boolean | null

export function toJson (tree: JsonTree): string {
  if (tree instanceof Raw) return tree.text
  if (tree instanceof Entries) return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${toJson(value)}`).join(',')}}`
  if (Array.isArray(tree)) return `[${tree.map(toJson).join(',')}]`
  return JSON.stringify(tree) ?? 'null'
}

const ENUM_WORDS = ['standard', 'v7', 'ulid', 'numeric', 'alpha', 'alphanumeric', 'urlsafe', 'shadowsocks', '2022-blake3-aes-128-gcm', 'wireguard', 'wireguard-psk', 'reality', 'hex', 'base64', 'base64url', 'base32', 'english', 'japanese', 'HEX', 'wg', 'V7', '']
const EVIL_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'lenght', '', 'length ', '$ref']
const ALL_KEYS = [...new Set(Object.values(KNOWN_KEYS).flat())]

const hugeNumber = fc.constantFrom(
  '1e400', '-1e400', '123456789012345678901234567890', '9007199254740992', '-9007199254740992', '9007199254740993',
  '1e308', '5e-324', '-0', '0.0', '1.0', '1e2', '32.5', '0x10', '1_000', 'NaN', 'Infinity', '01', '-'
).map((text) => new Raw(text))

const number = fc.oneof(
  fc.integer({ min: -10, max: 300 }),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 53, -(2 ** 53), 2 ** 48, 1.5, 0, 12, 24, 50, 51)
)
const string = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom(...ENUM_WORDS),
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom('1.5', ' 7', '7 ', '+7', '-', '--1', '99999999999999999999999999', 'true', 'null', '\u0000', '\ud800'),
  fc.integer({ min: 100, max: 70_000 }).map((n) => 'x'.repeat(n))
)
const scalar: fc.Arbitrary<JsonTree> = fc.oneof(number, string, fc.boolean(), fc.constant(null), hugeNumber)

const key = fc.oneof(
  { arbitrary: fc.constantFrom(...ALL_KEYS), weight: 6 },
  { arbitrary: fc.constantFrom(...EVIL_KEYS), weight: 2 },
  { arbitrary: fc.string({ maxLength: 10 }), weight: 1 }
)

const { tree } = fc.letrec<{ tree: JsonTree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('tree'), { maxLength: 5 }),
    fc.array(fc.tuple(key, tie('tree')), { maxLength: 5 }).map((entries) => new Entries(entries))
  )
}))

/** Nesting thousands deep: [[[...]]] or {"a":{"a":...}}, alone or under a known key. */
const deep = fc.record({
  depth: fc.integer({ min: 1, max: 40_000 }),
  array: fc.boolean(),
  key: fc.constantFrom(...ALL_KEYS, '__proto__'),
  wrap: fc.boolean()
}).map(({ depth, array, key, wrap }) => {
  const nested = array ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
  return new Raw(wrap ? `{${JSON.stringify(key)}:${nested}}` : nested)
})

// Small minimums mostly, so that many requests fit in the length and many do not
const minimum = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 6 }), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 128 }), weight: 1 })

// Passphrase separators: allowed characters (a hyphen like the list's own, an emoji, a wide space),
// letters and digits of several scripts and control characters, which the rules refuse
const separatorCharacter = fc.oneof(
  { arbitrary: fc.constantFrom('-', ' ', '.', '_', '+', '/', '|', '🙂', '·', '\u3000', '—'), weight: 6 },
  { arbitrary: fc.constantFrom('a', 'Z', 'é', 'ж', 'ß', '中', '7', '٣', '\n', '\t', '\u0000', '\u007f'), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 1 }
)
const passphraseSeparator = fc.array(separatorCharacter, { maxLength: 5 }).map((parts) => parts.join(''))

// Password sets: distinct punctuation mostly (quotes and backslash included), sometimes a repeat
// or a letter; exclusions of a few printable characters, sometimes a whole set, sometimes a space
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
const symbolSet = fc.oneof(
  { arbitrary: fc.shuffledSubarray([...PUNCTUATION], { minLength: 1, maxLength: 32 }).map((set) => set.join('')), weight: 6 },
  { arbitrary: fc.constantFrom('!!', 'a', '! ', '', '"', '\\', '|', PUNCTUATION + '!'), weight: 1 }
)
const exclude = fc.oneof(
  { arbitrary: fc.string({ unit: fc.integer({ min: 33, max: 126 }).map((code) => String.fromCharCode(code)), maxLength: 12 }), weight: 6 },
  { arbitrary: fc.constantFrom('0123456789', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '23456789', PUNCTUATION, ' ', 'é', 'x'.repeat(129)), weight: 1 }
)

// Token prefixes: mostly a-z 0-9 (a digit first is refused), sometimes a character the rule refuses
const prefixCharacter = fc.oneof(
  { arbitrary: fc.constantFrom(...'abcxyz0189'), weight: 12 },
  { arbitrary: fc.constantFrom('A', 'Z', '_', '-', ' ', '.', 'é', 'ı', '\n', '\u0000'), weight: 1 }
)
const tokenPrefix = fc.array(prefixCharacter, { minLength: 0, maxLength: 17 }).map((parts) => parts.join(''))

// seq prefixes (CONTRACT §14.2): mostly printable ASCII the rule takes, sometimes a character it refuses, up to one too many
const seqPrefix = fc.array(fc.oneof(
  { arbitrary: fc.constantFrom(...'base64:!#$%&()*+,-./<=>?@[]^_{|}~Z9'), weight: 12 },
  { arbitrary: fc.constantFrom(' ', '\'', '"', '\\', '`', 'é', '\n', '\u0000'), weight: 1 }
), { maxLength: 17 }).map((parts) => parts.join(''))

// TOTP issuers and accounts: what the URI encoding treats apart (unreserved, reserved, `%`,
// non-ASCII, surrogate pairs), and what the rule refuses (colon, controls, lone surrogates)
const nameCharacter = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'Z', '0', '-', '.', '_', '~', ' ', '@', '%', '/', '?', '#', '&', '+', '=', '!', '*', '(', 'é', 'ж', '中', '😀', '\u00a0', '\u200b'), weight: 12 },
  { arbitrary: fc.constantFrom(':', '\n', '\u0000', '\u007f', '\u0085', '\ud800', '\udfff'), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 2 }
)
const totpName = (minLength: number) => fc.array(nameCharacter, { minLength, maxLength: 66 }).map((parts) => parts.join(''))

/** Values a schema accepts, so that a good share of requests get to the generators. */
const validValue: Record<string, fc.Arbitrary<JsonTree>> = {
  quantity: fc.integer({ min: 1, max: 50 }),
  length: fc.integer({ min: 2, max: 256 }),
  uppercase: fc.boolean(),
  lowercase: fc.boolean(),
  numbers: fc.boolean(),
  symbols: fc.boolean(),
  minUppercase: minimum,
  minLowercase: minimum,
  minNumbers: minimum,
  minSymbols: minimum,
  avoidAmbiguous: fc.boolean(),
  capitalize: fc.boolean(),
  includeNumber: fc.boolean(),
  unique: fc.boolean(),
  min: fc.oneof(fc.integer({ min: -100, max: 100 }), fc.maxSafeInteger()),
  max: fc.oneof(fc.integer({ min: -100, max: 100 }), fc.maxSafeInteger()),
  exclusions: fc.array(fc.oneof(fc.integer({ min: -100, max: 100 }).map(String), fc.integer({ min: -100, max: 100 })), { maxLength: 1001 }),
  words: fc.constantFrom(12, 15, 18, 21, 24),
  separator: fc.string({ minLength: 1, maxLength: 4 }),
  byteLength: fc.integer({ min: 2, max: 256 }),
  symbolSet,
  exclude,
  avoidWeak: fc.boolean(),
  // ssh-key comments: printable ASCII mostly (quotes and backslashes included), sometimes anything
  comment: fc.oneof({ arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 70 }), weight: 5 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 1 })
}
/** The values of a parameter that is an enum in its schema, for parameters not listed above. */
function enumValues (generator: Generator, name: string): fc.Arbitrary<JsonTree> | undefined {
  const values: unknown = (PARAMS[generator].properties as Record<string, { enum?: unknown }>)[name]?.enum
  return Array.isArray(values) && values.length > 0 ? fc.constantFrom(...values as JsonTree[]) : undefined
}

/** Where a generator's parameter of the same name takes other values. */
const validValueOf: Partial<Record<Generator, Record<string, fc.Arbitrary<JsonTree>>>> = {
  passphrase: { words: fc.integer({ min: 2, max: 21 }), separator: passphraseSeparator },
  pin: { length: fc.integer({ min: 3, max: 13 }) },
  token: { prefix: tokenPrefix, length: fc.integer({ min: 15, max: 129 }) },
  seq: { prefix: seqPrefix, padding: fc.boolean() },
  totp: { issuer: totpName(0), account: totpName(0), period: fc.integer({ min: 14, max: 301 }), byteLength: fc.integer({ min: 15, max: 65 }) }
}

/** A parameters object for `generator`: mostly its own keys with mostly valid values, plus noise. */
function paramsFor (generator: Generator): fc.Arbitrary<Entries> {
  const own = KNOWN_KEYS[generator].map((name) => fc.option(
    fc.oneof({ arbitrary: validValueOf[generator]?.[name] ?? validValue[name] ?? enumValues(generator, name) ?? tree, weight: 5 }, { arbitrary: tree, weight: 1 }).map((value): [string, JsonTree] => [name, value]),
    { freq: 2 }
  ))
  return fc.tuple(fc.tuple(...own), fc.array(fc.tuple(key, tree), { maxLength: 2 }), fc.nat(9)).map(([entries, noise, p]) =>
    new Entries([...entries.filter((entry) => entry !== null), ...(p === 0 ? noise : [])]))
}

const generator = fc.constantFrom(...GENERATORS)

/** A JSON body: parameters, any JSON value, or deep nesting, sometimes padded to the body limit. */
export const jsonText = (name: Generator) => fc.tuple(
  fc.oneof({ arbitrary: paramsFor(name), weight: 6 }, { arbitrary: tree, weight: 2 }, { arbitrary: deep, weight: 1 }),
  fc.oneof({ arbitrary: fc.constant(0), weight: 9 }, { arbitrary: fc.integer({ min: 0, max: BODY_LIMIT + 4 }), weight: 1 })
).map(([value, pad]) => {
  const text = toJson(value)
  // Whitespace padding reaches the limit without changing the value
  return text + ' '.repeat(Math.max(0, Math.min(pad, BODY_LIMIT + 4) - text.length))
})

function paramsOf (text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

// Header values a real HTTP parser lets through: tab, printable ASCII and obs-text
const headerChar = fc.oneof(
  { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 8 },
  { arbitrary: fc.integer({ min: 0x80, max: 0xff }), weight: 1 },
  { arbitrary: fc.constant(0x09), weight: 1 }
).map((code) => String.fromCharCode(code))
const headerText = (maxLength: number) => fc.string({ unit: headerChar, maxLength })

const language = fc.option(fc.oneof(
  fc.constantFrom('en', 'ru', 'ru-RU', 'DE', 'de-AT', 'fr_CA', 'es-419', 'ES', 'zz', 'x-klingon', '*', '', '-', 'en;q=0', ' de ', 'i-default'),
  headerText(40)
), { freq: 2 })
const acceptLanguage = fc.option(fc.oneof(
  fc.constantFrom('de-DE,de;q=0.9,en;q=0.5', 'fr;q=0', '*', 'ru;q=abc', 'es-ES;q=0.8, fr;q=0.9', ';;;', 'en-US'),
  headerText(60)
), { freq: 3 })

function languageHeaders (xLanguage: string | null, accept: string | null): Record<string, string> {
  const headers: Record<string, string> = {}
  if (xLanguage !== null) headers['x-language'] = xLanguage
  if (accept !== null) headers['accept-language'] = accept
  return headers
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', 'application/json; charset=latin1']

/** One exchange, bounded in time, checked, tallied. Resolves to the violations (none: fine). */
export async function exchange (app: FastifyInstance, stats: FuzzStats, request: SentRequest, payload?: string | Buffer): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), INJECT_TIMEOUT_MS) })
  let response: Response | 'timeout'
  try {
    response = await Promise.race([
      app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(payload === undefined ? {} : { payload }) }),
      timeout
    ])
  } finally {
    clearTimeout(timer)
  }
  stats.cases++
  if (response === 'timeout') return [`no answer within ${INJECT_TIMEOUT_MS} ms`]
  stats.byStatus.set(response.statusCode, (stats.byStatus.get(response.statusCode) ?? 0) + 1)
  if (response.statusCode >= 500) stats.serverErrors++
  const violations = checkResponse(request, response)
  if (payload !== undefined && request.method === 'POST' && Buffer.byteLength(payload) > BODY_LIMIT &&
    generatorOfUrl(request.url) && response.statusCode !== 413) {
    violations.push(`${Buffer.byteLength(payload)}-byte body answered ${response.statusCode}`)
  }
  return violations
}

function generatorOfUrl (url: string): boolean {
  return GENERATORS.some((name) => url === `/api/generate/${name}`)
}

function assertNone (violations: string[]): void {
  if (violations.length > 0) throw new Error(violations.join('; '))
}

/** POST with a JSON body (any charset, a random case of the media type). */
export function jsonBodyProperty (app: FastifyInstance, stats: FuzzStats) {
  return fc.asyncProperty(
    generator.chain((name) => fc.tuple(fc.constant(name), jsonText(name))),
    fc.constantFrom(...JSON_TYPES), language, acceptLanguage,
    async ([name, text], contentType, xLanguage, accept) => {
      const request: SentRequest = {
        method: 'POST',
        url: `/api/generate/${name}`,
        headers: { 'content-type': contentType, ...languageHeaders(xLanguage, accept) },
        params: paramsOf(text),
        knownKeys: KNOWN_KEYS[name]
      }
      assertNone(await exchange(app, stats, request, text))
    }
  )
}

/** GET with X-Data: Base64 (either alphabet, padded or not) of JSON, of raw bytes, or of nothing valid. */
export function xDataProperty (app: FastifyInstance, stats: FuzzStats) {
  const encoded = (bytes: Buffer) => fc.record({ urlSafe: fc.boolean(), unpadded: fc.boolean() }).map(({ urlSafe, unpadded }) => {
    let text = bytes.toString(urlSafe ? 'base64url' : 'base64')
    if (!urlSafe && unpadded) text = text.replace(/=+$/, '')
    return text
  })
  return fc.asyncProperty(
    generator.chain((name) => fc.tuple(
      fc.constant(name),
      fc.oneof(
        { arbitrary: jsonText(name).filter((text) => text.length < 36_000).chain((text) => encoded(Buffer.from(text, 'utf8')).map((header) => ({ header, text }))), weight: 6 },
        { arbitrary: fc.uint8Array({ maxLength: 64 }).chain((bytes) => encoded(Buffer.from(bytes)).map((header) => ({ header, text: undefined }))), weight: 1 },
        { arbitrary: headerText(80).map((header) => ({ header, text: undefined })), weight: 1 },
        { arbitrary: fc.integer({ min: 49_000, max: 50_000 }).map((n) => ({ header: 'e30'.padEnd(n, 'A'), text: undefined })), weight: 1 }
      )
    )),
    language, acceptLanguage, fc.constantFrom('', '?length=7', '?quantity=99&x=1', '?%ZZ'),
    async ([name, { header, text }], xLanguage, accept, query) => {
      const request: SentRequest = {
        method: 'GET',
        url: `/api/generate/${name}${query}`,
        headers: { 'x-data': header, ...languageHeaders(xLanguage, accept) },
        params: text === undefined ? undefined : paramsOf(text),
        knownKeys: KNOWN_KEYS[name]
      }
      assertNone(await exchange(app, stats, request))
    }
  )
}

/** Arbitrary bytes as the body, under any content type (or none), on any generator. */
export function rawBodyProperty (app: FastifyInstance, stats: FuzzStats) {
  const contentType = fc.option(fc.oneof(
    fc.constantFrom(...JSON_TYPES, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
      'application/problem+json', 'application/jsonx', 'json', '*/*', '', ' ', 'application/json;', 'application/json; charset=utf-16'),
    headerText(40)
  ), { freq: 5 })
  const body = fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    fc.string({ maxLength: 200 }),
    fc.constantFrom('', ' ', '{}', '{', '}', 'null', '[]', '"x"', '1', '\ufeff{}', '{"length":8}\u0000', '{}{}', '{"a":1,}')
  )
  return fc.asyncProperty(generator, contentType, body, fc.constantFrom('POST', 'POST', 'GET', 'PUT'), language,
    async (name, type, payload, method, xLanguage) => {
      const headers: Record<string, string> = languageHeaders(xLanguage, null)
      if (type !== null) headers['content-type'] = type
      assertNone(await exchange(app, stats, { method, url: `/api/generate/${name}`, headers }, payload))
    })
}

/** Any method on any path (existing, unknown, odd spellings), any X-Data and language headers. */
export function routingProperty (app: FastifyInstance, stats: FuzzStats) {
  const path = fc.oneof(
    { arbitrary: generator.map((name) => `/api/generate/${name}`), weight: 5 },
    {
      arbitrary: fc.constantFrom('/api/health', '/api/health?x=1', '/docs/json', '/docs/yaml', '/', '/api', '/api/generate',
        '/api/generate/', '/api/generate/nope', '/API/generate/password', '/api/generate/password/', '//api/generate/seq',
        '/api/generate/%70assword', '/api/generate/..%2fhealth', '/api/generate/password%00', '/api/health/', '/favicon.ico',
        '/api/generate/short_id', '/api/generate/password?x-data=e30', '/*a', '/api/%zz', '/%', '/api/generate/:type', '/docs/%E0%A4%A'),
      weight: 3
    },
    { arbitrary: fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)), weight: 2 }
  )
  const method = fc.oneof(
    { arbitrary: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'), weight: 4 },
    { arbitrary: fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT')), weight: 1 }
  )
  const xData = fc.option(fc.oneof(
    fc.constantFrom('e30', 'e30=', 'eyJsZW5ndGgiOjh9', 'W10', 'bnVsbA', '!!!', 'e', '=', 'e30==', 'eyJsZW5ndGgiOiI4In0'),
    headerText(40)
  ), { freq: 2 })
  return fc.asyncProperty(method, path, xData, language, acceptLanguage, async (verb, url, header, xLanguage, accept) => {
    const headers = languageHeaders(xLanguage, accept)
    if (header !== null) headers['x-data'] = header
    assertNone(await exchange(app, stats, { method: verb, url, headers }))
  })
}

export interface FuzzOutcome {
  failed: boolean
  numRuns: number
  /** fast-check's report with the counterexample and the violations, when it failed. */
  report: string
}

export interface FuzzProperty {
  name: string
  /** Share of the run's cases. */
  share: number
  run: (app: FastifyInstance, stats: FuzzStats, numRuns: number, timeLimitMs: number) => Promise<FuzzOutcome>
}

function runner<T> (make: (app: FastifyInstance, stats: FuzzStats) => fc.IAsyncPropertyWithHooks<T>): FuzzProperty['run'] {
  return async (app, stats, numRuns, timeLimitMs) => {
    const result = await fc.check(make(app, stats), { numRuns, interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: true })
    const report = result.failed ? `${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}` : ''
    return { failed: result.failed, numRuns: result.numRuns, report }
  }
}

/** The properties and their share of the cases. */
export const PROPERTIES: FuzzProperty[] = [
  { name: 'POST with JSON bodies', share: 0.35, run: runner(jsonBodyProperty) },
  { name: 'GET with X-Data', share: 0.3, run: runner(xDataProperty) },
  { name: 'arbitrary bytes and content types', share: 0.15, run: runner(rawBodyProperty) },
  { name: 'methods, paths and headers', share: 0.2, run: runner(routingProperty) }
]

/** The app still answers a plain request (after a fuzz run). */
export async function stillAnswers (app: FastifyInstance): Promise<boolean> {
  const response = await app.inject({ method: 'POST', url: '/api/generate/password', payload: { quantity: 2 } })
  return response.statusCode === 200 && (JSON.parse(response.body) as { values: string[] }).values.length === 2
}
