// The rows of the HTTP benchmark: what each one sends to randgen.
import { encodeXData } from '../src/http/x-data.js'

export interface Scenario {
  /** Unique: bench/profile.ts takes it to pick a row. */
  id: string
  /** The row's name in the tables and the chart (unique too: the chart draws one bar per name). */
  row: string
  /** `abuse`: bodies built to cost the most, answered 400 (CONTRACT §5: under 10 ms of CPU each). */
  group: 'default' | 'get' | 'option' | 'heaviest' | 'health' | 'abuse'
  /** The generator (or `health`), for the table. */
  target: string
  /** Parameters in words, for the table. */
  params: string
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
}

const JSON_HEADERS = { 'content-type': 'application/json' }

/** Tells apart two rows of one generator in one group: a suffix for the id and words for the row. */
interface Variant { id: string, row: string }

/** The password row with heavy minimums (the bar: at least half the default password row's req/s). */
export const MIN_SYMBOLS: Variant = { id: 'min-symbols', row: 'minSymbols 120' }
/** The password row with a site's symbols and exclusions (the bar: at least 0.9× the default password row's req/s). */
export const SYMBOL_SET: Variant = { id: 'symbol-set', row: 'symbolSet + exclude' }
const REALITY: Variant = { id: 'reality', row: 'reality' }
const V7: Variant = { id: 'v7', row: 'v7' }
const MLKEM768: Variant = { id: 'mlkem768', row: 'mlkem768' }
const MLDSA65: Variant = { id: 'mldsa65', row: 'mldsa65' }

function post (group: 'default' | 'option' | 'heaviest', target: string, params: Record<string, unknown>, label: string, variant?: Variant): Scenario {
  return {
    id: variant === undefined ? `${group}-${target}` : `${group}-${target}-${variant.id}`,
    row: variant === undefined ? `${target} (${group})` : `${target} (${group}, ${variant.row})`,
    group,
    target,
    params: label,
    method: 'POST',
    path: `/api/generate/${target}`,
    headers: JSON_HEADERS,
    body: JSON.stringify(params)
  }
}

const NAME_CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** `"a":0` members with the shortest names (three-character ones begin with a digit: no parameter's), as many as fit 64 KiB. */
const WIDEST = ((): string[] => {
  const names = [...NAME_CHARACTERS]
  for (const a of NAME_CHARACTERS) for (const b of NAME_CHARACTERS) names.push(a + b)
  for (const a of '0123456789') for (const b of NAME_CHARACTERS) for (const c of NAME_CHARACTERS) names.push(a + b + c)
  const members: string[] = []
  let length = 2
  for (const name of names) {
    const member = `"${name}":0`
    if (length + member.length + 1 > 65_536) break
    members.push(member)
    length += member.length + 1
  }
  return members
})()

function abuse (target: string, id: string, row: string, body: string, label: string): Scenario {
  return { id: `abuse-${target}-${id}`, row: `${target} (abuse, ${row})`, group: 'abuse', target, params: label, method: 'POST', path: `/api/generate/${target}`, headers: JSON_HEADERS, body }
}

const GENERATORS = ['password', 'passphrase', 'number', 'vpn', 'uuid', 'phrase', 'seq', 'short-id', 'pin', 'ssh-key', 'age-key', 'token', 'totp', 'signing-key'] as const

// 1000 distinct exclusions spread over the whole safe range: the most work a number request can ask for
const EXCLUSIONS = Array.from({ length: 1000 }, (_, i) => String((i - 500) * 9_007_199_254_740))

/** The largest lengths and quantity 50: the most work each generator does per request. */
const HEAVIEST: Record<typeof GENERATORS[number], [Record<string, unknown>, string]> = {
  password: [{ length: 128, quantity: 50 }, 'length 128, all sets, ×50'],
  passphrase: [{ words: 20, capitalize: true, includeNumber: true, quantity: 50 }, '20 words, capitalized, with a digit, ×50'],
  number: [{ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, exclusions: EXCLUSIONS, unique: true, quantity: 50 }, 'whole safe range, 1000 exclusions, unique, ×50'],
  vpn: [{ protocol: 'shadowsocks', length: 256, quantity: 50 }, 'shadowsocks length 256, ×50'],
  uuid: [{ format: 'alphanumeric', length: 256, quantity: 50 }, 'alphanumeric length 256, ×50'],
  phrase: [{ words: 24, separator: '----', quantity: 50 }, '24 words, ×50'],
  seq: [{ byteLength: 256, encoding: 'hex', quantity: 50 }, '256 bytes hex, ×50'],
  'short-id': [{ length: 256, quantity: 50 }, 'length 256, ×50'],
  pin: [{ length: 12, quantity: 50 }, 'length 12, ×50'],
  'ssh-key': [{ comment: 'x'.repeat(64), quantity: 50 }, 'comment of 64 characters, ×50'],
  'age-key': [{ quantity: 50 }, '×50'],
  token: [{ prefix: 'abcdefghijklmnop', length: 128, quantity: 50 }, 'prefix 16, length 128, ×50'],
  // The longest URIs: both names of 64 four-byte characters, each byte percent-encoded
  totp: [{ issuer: '😀'.repeat(64), account: '😀'.repeat(64), algorithm: 'SHA512', digits: 8, period: 300, byteLength: 64, quantity: 50 }, '64-character emoji names, 64 bytes, ×50'],
  // The heaviest made on the event loop: ES384 and RSA keys are made on the pool (CONTRACT §12.1)
  'signing-key': [{ algorithm: 'ES256', format: 'pem', quantity: 50 }, 'ES256 key pairs as PEM, ×50']
}

export const SCENARIOS: Scenario[] = [
  ...GENERATORS.map((target) => post('default', target, {}, 'defaults')),
  {
    id: 'get-password',
    row: 'password (GET)',
    group: 'get',
    target: 'password',
    params: 'GET, X-Data {"length":20}',
    method: 'GET',
    path: '/api/generate/password',
    headers: { 'x-data': encodeXData({ length: 20 }) }
  },
  ...GENERATORS.map((target) => post('heaviest', target, ...HEAVIEST[target])),
  // One password, but 120 of its 128 characters must be symbols: rejection would almost never
  // accept, so it is drawn by composition. Quantity 1, to compare with the default password row
  post('heaviest', 'password', { length: 128, minSymbols: 120 }, 'length 128, minSymbols 120, ×1', MIN_SYMBOLS),
  // Options beyond the defaults, one value each: a site's symbols and refused characters (the
  // default password's length and minimums otherwise), a key pair (the X25519 public key is
  // node:crypto's work) and time-ordered UUIDs
  post('option', 'password', { symbolSet: '!@#$%^&*', exclude: 'lIO0' }, 'symbolSet !@#$%^&*, exclude lIO0, ×1', SYMBOL_SET),
  post('option', 'vpn', { protocol: 'reality' }, 'reality key pair, ×1', REALITY),
  post('option', 'uuid', { format: 'v7' }, 'UUIDv7, ×1', V7),
  // Post-quantum key pairs, one and 50: the public keys are most of the work (CONTRACT §5's
  // heaviest valid request is 50 mldsa65)
  post('option', 'vpn', { protocol: 'mlkem768' }, 'mlkem768 key pair, ×1', MLKEM768),
  post('option', 'vpn', { protocol: 'mldsa65' }, 'mldsa65 key pair, ×1', MLDSA65),
  post('heaviest', 'vpn', { protocol: 'mlkem768', quantity: 50 }, 'mlkem768 key pairs, ×50', MLKEM768),
  post('heaviest', 'vpn', { protocol: 'mldsa65', quantity: 50 }, 'mldsa65 key pairs, ×50', MLDSA65),
  { id: 'health', row: 'health', group: 'health', target: 'health', params: 'GET', method: 'GET', path: '/api/health' },
  // Issue 13's amplification findings: before the cap and the precheck, 190 ms and 2.4 MB, 36 ms and 450 KB
  abuse('number', 'exclusions-items', '21,826 items', '{"exclusions":[' + Array(21_826).fill('{}').join(',') + ']}',
    '64 KiB body {"exclusions":[{},{},…]}, 21,826 items (400)'),
  abuse('password', 'unknown-fields', '5,000 unknown fields', JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, 1]))),
    '5,000 unknown fields, 48 KB body (400)'),
  // The costliest body found: as many keys as 64 KiB holds, where V8's JSON.parse itself is most of the cost
  abuse('password', 'widest-object', `${WIDEST.length.toLocaleString('en-US')} short unknown fields`, `{${WIDEST.join(',')}}`,
    `${WIDEST.length.toLocaleString('en-US')} unknown fields of 1–3 characters, 64 KiB body (400)`)
]

/** CONTRACT §5's cost of a valid request: the rows it applies to, and its bound in CPU ms, for bench/report.ts and bench/cost.ts alike. */
export const VALID_REQUEST_CPU_MS = 20
export const isValidRequestRow = ({ group }: { group: string }): boolean => group === 'heaviest' || group === 'option'
/** The status a row's request must get: abuse rows are refused (400), every other row answered (200). */
export const expectedStatus = ({ group }: { group: string }): number => group === 'abuse' ? 400 : 200

export const PASSWORD_DEFAULT_ROW = SCENARIOS.find((scenario) => scenario.id === 'default-password')?.row as string
export const MIN_SYMBOLS_ROW = SCENARIOS.find((scenario) => scenario.id === `heaviest-password-${MIN_SYMBOLS.id}`)?.row as string
export const SYMBOL_SET_ROW = SCENARIOS.find((scenario) => scenario.id === `option-password-${SYMBOL_SET.id}`)?.row as string

/** What both reference servers are asked: the default password request. */
export const REFERENCE_REQUEST: Scenario = {
  id: 'reference',
  row: 'reference',
  group: 'default',
  target: 'constant',
  params: 'POST {}',
  method: 'POST',
  path: '/api/generate/password',
  headers: JSON_HEADERS,
  body: '{}'
}

/** Issue 27: metrics on may cost at most this much more server CPU per request than metrics off. */
export const METRICS_COST_LIMIT_US = 1
/** The row measured with metrics on and off (bench:metrics, and a row of `npm run bench`): password at defaults. */
export const METRICS_ROW_SCENARIO: Scenario = {
  id: 'metrics-password',
  row: 'password (default, metrics on)',
  // Not a generator's own row: kept out of the defaults' targets, judged only against password's row
  group: 'option',
  target: 'password',
  params: 'defaults, METRICS_PORT set',
  method: 'POST',
  path: '/api/generate/password',
  headers: JSON_HEADERS,
  body: '{}'
}
