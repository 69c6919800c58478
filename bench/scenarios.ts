// The rows of the HTTP benchmark: what each one sends to randgen.
import { encodeXData } from '../src/x-data.js'

export interface Scenario {
  id: string
  group: 'default' | 'get' | 'heaviest' | 'health'
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

function post (group: 'default' | 'heaviest', target: string, params: Record<string, unknown>, label: string): Scenario {
  return {
    id: `${group}-${target}`,
    group,
    target,
    params: label,
    method: 'POST',
    path: `/api/generate/${target}`,
    headers: JSON_HEADERS,
    body: JSON.stringify(params)
  }
}

const GENERATORS = ['password', 'number', 'vpn', 'uuid', 'phrase', 'seq', 'short-id'] as const

// 1000 distinct exclusions spread over the whole safe range: the most work a number request can ask for
const EXCLUSIONS = Array.from({ length: 1000 }, (_, i) => String((i - 500) * 9_007_199_254_740))

/** The largest lengths and quantity 50: the most work each generator does per request. */
const HEAVIEST: Record<typeof GENERATORS[number], [Record<string, unknown>, string]> = {
  password: [{ length: 128, quantity: 50 }, 'length 128, all sets, ×50'],
  number: [{ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, exclusions: EXCLUSIONS, unique: true, quantity: 50 }, 'whole safe range, 1000 exclusions, unique, ×50'],
  vpn: [{ protocol: 'shadowsocks', length: 256, quantity: 50 }, 'shadowsocks length 256, ×50'],
  uuid: [{ format: 'alphanumeric', length: 256, quantity: 50 }, 'alphanumeric length 256, ×50'],
  phrase: [{ words: 24, separator: '----', quantity: 50 }, '24 words, ×50'],
  seq: [{ byteLength: 256, encoding: 'hex', quantity: 50 }, '256 bytes hex, ×50'],
  'short-id': [{ length: 256, quantity: 50 }, 'length 256, ×50']
}

export const SCENARIOS: Scenario[] = [
  ...GENERATORS.map((target) => post('default', target, {}, 'defaults')),
  {
    id: 'get-password',
    group: 'get',
    target: 'password',
    params: 'GET, X-Data {"length":20}',
    method: 'GET',
    path: '/api/generate/password',
    headers: { 'x-data': encodeXData({ length: 20 }) }
  },
  ...GENERATORS.map((target) => post('heaviest', target, ...HEAVIEST[target])),
  { id: 'health', group: 'health', target: 'health', params: 'GET', method: 'GET', path: '/api/health' }
]

/** What both reference servers are asked: the default password request. */
export const REFERENCE_REQUEST: Scenario = {
  id: 'reference',
  group: 'default',
  target: 'constant',
  params: 'POST {}',
  method: 'POST',
  path: '/api/generate/password',
  headers: JSON_HEADERS,
  body: '{}'
}
