// CONTRACT §10: several generators in one request. Every request goes through app.inject on the
// app built with the production options (test/helper.ts).
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { RESERVED_SET_NAMES } from '../../schemas/sets.js'
import { LANGUAGES } from '../../src/i18n/index.js'
import { build, GENERATORS, ISO_MILLIS, post, xData } from '../helper.js'

const SET = '/api/generate'
const TEXT = { accept: 'text/plain' }
type Headers = Record<string, string>

function postSet (app: FastifyInstance, body: unknown, headers: Headers = {}) {
  return app.inject({ method: 'POST', url: SET, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) })
}
function getSet (app: FastifyInstance, body: unknown, headers: Headers = {}) {
  return app.inject({ method: 'GET', url: SET, headers: { 'x-data': xData(body), ...headers } })
}

/** The problems of a 400 answer, as [pointer, code]. */
function problemsOf (body: string): Array<[string, string]> {
  return (JSON.parse(body).errors as Array<{ pointer: string, code: string }>).map(({ pointer, code }) => [pointer, code])
}

/** Parameters of every generator, a few per generator, that its route answers with 200. */
const PARAMS: Array<[string, Record<string, unknown>]> = [
  ['password', {}], ['password', { length: 64, symbols: false, minNumbers: 5 }], ['password', { symbolSet: '"\\!', length: 12 }],
  ['passphrase', {}], ['passphrase', { words: 4, wordList: 'bip39-japanese', separator: '\u3000', includeNumber: true }],
  ['number', {}], ['number', { min: -5, max: 5, exclusions: ['0', 3], unique: true, quantity: 4 }],
  ['vpn', {}], ['vpn', { protocol: 'wireguard' }], ['vpn', { protocol: 'reality', quantity: 2 }], ['vpn', { protocol: 'mldsa65' }], ['vpn', { protocol: 'hex' }],
  ['uuid', {}], ['uuid', { format: 'v7', quantity: 3 }], ['uuid', { format: 'alphanumeric', length: 40 }],
  ['phrase', {}], ['phrase', { words: 24, language: 'czech', separator: '-' }],
  ['seq', {}], ['seq', { byteLength: 5, encoding: 'base32' }],
  ['short-id', {}], ['pin', { length: 4 }], ['ssh-key', { comment: 'deploy@ci' }], ['age-key', {}],
  ['token', {}], ['token', { prefix: 'myapp', length: 40 }], ['totp', { issuer: 'Example Co', account: 'alice@example.com', digits: 8 }]
]

t.test('JSON: each item is its name, then exactly the fields its own route answers but generatedAt, drawn as there', async (t) => {
  const app = await build(t)
  const items = PARAMS.map(([type, params], index) => ({ name: `ITEM_${index}`, type, params }))
  // 32 items at most and 50 values: in two sets
  for (const part of [items.slice(0, 13), items.slice(13)]) {
    const response = await postSet(app, { items: part })
    t.equal(response.statusCode, 200, response.statusCode === 200 ? 'answered' : response.body)
    t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
    t.equal(response.headers['cache-control'], 'no-store')
    t.equal(response.headers.vary, 'Accept')
    const body = response.json()
    t.same(Object.keys(body), ['items', 'generatedAt'])
    t.match(body.generatedAt, ISO_MILLIS)
    for (const [index, item] of (body.items as Array<Record<string, any>>).entries()) {
      const asked = part[index] as { name: string, type: string, params: Record<string, unknown> }
      const own = (await post(app, asked.type, asked.params)).json()
      const { generatedAt: _at, ...ownFields } = own
      t.equal(Object.keys(item)[0], 'name', `${asked.name}: name first`)
      t.equal(item.name, asked.name)
      t.same(Object.keys(item).slice(1).sort(), Object.keys(ownFields).sort(), `${asked.type} ${JSON.stringify(asked.params)}: the fields of its own answer`)
      t.equal(item.type, asked.type)
      t.equal(item.entropyBits, own.entropyBits, `${asked.type}: the same entropyBits as its route`)
      t.equal(item.values.length, own.values.length, `${asked.type}: as many values`)
      // Words, decimal numbers and phrases vary in length from draw to draw; the rest are fixed
      if (!['passphrase', 'number', 'phrase'].includes(asked.type)) {
        t.same(item.values.map((value: string) => value.length), own.values.map((value: string) => value.length), `${asked.type}: values as long`)
      }
      t.same(item.publicKeys?.length, own.publicKeys?.length, `${asked.type}: public keys where its route gives them`)
      t.same(item.hashes?.length, own.hashes?.length, `${asked.type}: hashes where its route gives them`)
    }
  }
})

t.test('GET with X-Data is answered as POST; HEAD, OPTIONS and other methods as a generator path', async (t) => {
  const app = await build(t)
  const body = { items: [{ name: 'A', type: 'uuid' }, { name: 'B', type: 'vpn', params: { protocol: 'wireguard' } }] }
  const viaGet = await getSet(app, body)
  t.equal(viaGet.statusCode, 200, viaGet.body)
  t.match(viaGet.json(), { items: [{ name: 'A', type: 'uuid', values: [/^[0-9a-f-]{36}$/], entropyBits: 122 }, { name: 'B', type: 'vpn', publicKeys: [/=$/] }] })
  // A query string is never read
  const query = await app.inject({ method: 'GET', url: `${SET}?items=1`, headers: { 'x-data': xData(body) } })
  t.equal(query.statusCode, 200)
  const head = await app.inject({ method: 'HEAD', url: SET, headers: { 'x-data': xData(body) } })
  t.equal(head.statusCode, 200)
  t.equal(head.body, '')
  const options = await app.inject({ method: 'OPTIONS', url: SET })
  t.equal(options.statusCode, 204)
  t.equal(options.headers.allow, 'GET, HEAD, OPTIONS, POST')
  const put = await app.inject({ method: 'PUT', url: SET, headers: { 'content-type': 'application/json' }, payload: '{}' })
  t.equal(put.statusCode, 405)
  t.equal(put.headers.allow, 'GET, HEAD, OPTIONS, POST')
  // No X-Data means {}: `items` is missing
  const bare = await app.inject({ method: 'GET', url: SET })
  t.same(problemsOf(bare.body), [['#/items', 'REQUIRED']])
})

t.test('the request paths of the generators: empty body, 415, 413, bad bodies and bad X-Data', async (t) => {
  const app = await build(t)
  const empty = await app.inject({ method: 'POST', url: SET })
  t.equal(empty.statusCode, 400)
  t.same(problemsOf(empty.body), [['#/items', 'REQUIRED']], 'an empty POST is {}')
  const wrongType = await app.inject({ method: 'POST', url: SET, headers: { 'content-type': 'text/plain' }, payload: 'items' })
  t.equal(wrongType.statusCode, 415)
  t.equal(wrongType.json().code, 'UNSUPPORTED_MEDIA_TYPE')
  t.equal(wrongType.headers.vary, 'Accept')
  const tooLarge = await app.inject({ method: 'POST', url: SET, headers: { 'content-type': 'application/json' }, payload: `{"items":[${'1,'.repeat(40_000)}1]}` })
  t.equal(tooLarge.statusCode, 413)
  t.equal(tooLarge.json().code, 'PAYLOAD_TOO_LARGE')
  for (const payload of ['[]', '"items"', '{"items":', '\xff']) {
    const bad = await app.inject({ method: 'POST', url: SET, headers: { 'content-type': 'application/json' }, payload: payload === '\xff' ? Buffer.from([0xff]) : payload })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'BODY_INVALID', `body ${JSON.stringify(payload)}`)
  }
  for (const header of ['not base64!', Buffer.from('[1]').toString('base64'), Buffer.from('{').toString('base64')]) {
    const bad = await app.inject({ method: 'GET', url: SET, headers: { 'x-data': header } })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'X_DATA_INVALID', `X-Data ${header}`)
  }
})

t.test('items: REQUIRED, TOO_SHORT, TOO_MANY_ITEMS, UNKNOWN_FIELD, and a type that is no generator', async (t) => {
  const app = await build(t)
  t.same(problemsOf((await postSet(app, {})).body), [['#/items', 'REQUIRED']])
  t.same(problemsOf((await postSet(app, { items: [] })).body), [['#/items', 'TOO_SHORT']])
  t.same(problemsOf((await postSet(app, { items: {} })).body), [['#/items', 'TYPE']])
  const many = Array.from({ length: 33 }, (_, i) => ({ name: `N${i}`, type: 'uuid' }))
  t.same(problemsOf((await postSet(app, { items: many })).body), [['#/items', 'TOO_MANY_ITEMS']])
  t.equal((await postSet(app, { items: many.slice(0, 32) })).statusCode, 200, '32 items are fine')
  t.same(problemsOf((await postSet(app, { items: [{ name: 'A', type: 'uuid' }], extra: 1 })).body), [['#/extra', 'UNKNOWN_FIELD']])
  t.same(problemsOf((await postSet(app, { items: [{ name: 'A', type: 'uuid', quantity: 2 }] })).body), [['#/items/0/quantity', 'UNKNOWN_FIELD']])
  t.same(problemsOf((await postSet(app, { items: [{ name: 'A', type: 'openvpn' }] })).body), [['#/items/0/type', 'NOT_ALLOWED_VALUE']])
  t.same(problemsOf((await postSet(app, { items: [{ name: 'A', type: 7 }] })).body), [['#/items/0/type', 'TYPE']])
  t.same(problemsOf((await postSet(app, { items: [{ name: 'A' }] })).body), [['#/items/0/type', 'REQUIRED']])
  t.same(problemsOf((await postSet(app, { items: [{ type: 'uuid' }] })).body), [['#/items/0/name', 'REQUIRED']])
  t.same(problemsOf((await postSet(app, { items: [1] })).body), [['#/items/0', 'TYPE']])
  t.same(problemsOf((await postSet(app, { items: [{ name: 'A', type: 'uuid', params: [] }] })).body), [['#/items/0/params', 'TYPE']])
  t.same(problemsOf((await postSet(app, { items: [{ name: 'A', type: 'uuid', params: null }] })).body), [['#/items/0/params', 'TYPE']])
  for (const type of GENERATORS) {
    t.equal((await postSet(app, { items: [{ name: 'A', type }] })).statusCode, 200, `${type}: every generator is a type, params default {}`)
  }
})

t.test('names: 1..64 characters of the pattern, none the shell reserves', async (t) => {
  const app = await build(t)
  const nameProblem = async (name: unknown) => problemsOf((await postSet(app, { items: [{ name, type: 'uuid' }] })).body)
  t.same(await nameProblem(''), [['#/items/0/name', 'TOO_SHORT']])
  t.same(await nameProblem('A'.repeat(65)), [['#/items/0/name', 'TOO_LONG']])
  t.equal((await postSet(app, { items: [{ name: 'A'.repeat(64), type: 'uuid' }] })).statusCode, 200, '64 characters')
  for (const name of ['1A', 'A-B', 'A B', 'É', 'A=', 'A.B', "A'"]) t.same(await nameProblem(name), [['#/items/0/name', 'NOT_ALLOWED_VALUE']], `${name} is off the pattern`)
  t.same(await nameProblem(7), [['#/items/0/name', 'TYPE']])
  for (const name of [...RESERVED_SET_NAMES, 'BASH_ENV', 'BASH_', 'BASH_FUNC_X']) {
    t.same(await nameProblem(name), [['#/items/0/name', 'NOT_ALLOWED_VALUE']], `${name} is reserved`)
  }
  for (const name of ['_', 'a', 'path', 'PATH2', 'MY_PATH', 'BASH', 'XBASH_Y', 'Home']) {
    t.equal((await postSet(app, { items: [{ name, type: 'uuid' }] })).statusCode, 200, `${name} is allowed`)
  }
})

t.test('DUPLICATE_NAME at the later item, derived names included, in both forms; case counts', async (t) => {
  const app = await build(t)
  const cases: Array<[string, unknown[], number]> = [
    ['the same name', [{ name: 'A', type: 'uuid' }, { name: 'A', type: 'pin' }], 1],
    ['a key pair\'s public key name', [{ name: 'WG', type: 'vpn', params: { protocol: 'wireguard' } }, { name: 'WG_PUBLIC_KEY', type: 'uuid' }], 1],
    ['a public key name taken first', [{ name: 'K_PUBLIC_KEY', type: 'uuid' }, { name: 'K', type: 'age-key' }], 1],
    ['a token\'s hash name', [{ name: 'T', type: 'token' }, { name: 'T_HASH', type: 'uuid' }], 1],
    ['a hash name taken first', [{ name: 'T_HASH', type: 'uuid' }, { name: 'X', type: 'pin' }, { name: 'T', type: 'token' }], 2],
    ['REALITY', [{ name: 'R_PUBLIC_KEY', type: 'short-id' }, { name: 'R', type: 'vpn', params: { protocol: 'reality' } }], 1]
  ]
  for (const [what, items, later] of cases) {
    for (const headers of [{}, TEXT]) {
      const response = await postSet(app, { items }, headers)
      t.same(problemsOf(response.body), [[`#/items/${later}/name`, 'DUPLICATE_NAME']], `${what} (${headers === TEXT ? '.env' : 'JSON'})`)
    }
  }
  // (JSON only: the .env form refuses an ssh-key at its type as well)
  const sshKey = await postSet(app, { items: [{ name: 'S', type: 'ssh-key' }, { name: 'S_PUBLIC_KEY', type: 'uuid' }] })
  t.same(problemsOf(sshKey.body), [['#/items/1/name', 'DUPLICATE_NAME']], 'an ssh-key\'s public key name')
  const fine: unknown[][] = [
    [{ name: 'A', type: 'uuid' }, { name: 'a', type: 'uuid' }],
    // Only key pairs derive a public key name: a pre-shared key and hex are single values
    [{ name: 'P', type: 'vpn', params: { protocol: 'wireguard-psk' } }, { name: 'P_PUBLIC_KEY', type: 'uuid' }],
    [{ name: 'H', type: 'password' }, { name: 'H_HASH', type: 'uuid' }]
  ]
  for (const items of fine) t.equal((await postSet(app, { items })).statusCode, 200, JSON.stringify(items))
  const three = await postSet(app, { items: [{ name: 'A', type: 'uuid' }, { name: 'A', type: 'uuid' }, { name: 'A', type: 'uuid' }] })
  t.same(problemsOf(three.body), [['#/items/1/name', 'DUPLICATE_NAME'], ['#/items/2/name', 'DUPLICATE_NAME']])
})

t.test('TOO_MANY_VALUES: the quantities together at most 50', async (t) => {
  const app = await build(t)
  const fifty = await postSet(app, { items: [{ name: 'A', type: 'uuid', params: { quantity: 30 } }, { name: 'B', type: 'pin', params: { quantity: 20 } }] })
  t.equal(fifty.statusCode, 200)
  t.same(fifty.json().items.map((item: { values: string[] }) => item.values.length), [30, 20])
  const over = await postSet(app, { items: [{ name: 'A', type: 'uuid', params: { quantity: 30 } }, { name: 'B', type: 'pin', params: { quantity: 21 } }] })
  t.same(problemsOf(over.body), [['#/items', 'TOO_MANY_VALUES']])
  t.match(over.json().errors[0].detail, /51/)
  const defaults = Array.from({ length: 32 }, (_, i) => ({ name: `N${i}`, type: 'uuid', params: { quantity: i < 2 ? 11 : 1 } }))
  t.same(problemsOf((await postSet(app, { items: defaults })).body), [['#/items', 'TOO_MANY_VALUES']], '11 + 11 + 30 × 1')
})

t.test('every problem listed, with pointers into the items, at most 20; nothing drawn unless all are valid', async (t) => {
  const app = await build(t, { METRICS_PORT: '0' })
  const response = await postSet(app, {
    items: [
      { name: 'DB', type: 'password', params: { length: 3 } },
      { name: 'OK', type: 'uuid' },
      { name: 'N', type: 'number', params: { min: 5, max: 1 } },
      { name: 'PW', type: 'password', params: { uppercase: false, lowercase: false, numbers: false, symbols: false } },
      { name: 'T', type: 'token', params: { prefix: 'Bad' } },
      { name: 'P', type: 'phrase', params: { separator: 'a' } },
      { name: 'S', type: 'ssh-key', params: { comment: 'é' } },
      { name: 'E', type: 'number', params: { exclusions: ['x'] } }
    ]
  })
  t.equal(response.statusCode, 400)
  t.same(problemsOf(response.body), [
    ['#/items/0/params/length', 'OUT_OF_RANGE'],
    ['#/items/2/params/min', 'MIN_GREATER_THAN_MAX'],
    ['#/items/3/params', 'NO_CHARACTER_SET'],
    ['#/items/4/params/prefix', 'NOT_ALLOWED_VALUE'],
    ['#/items/5/params/separator', 'NOT_ALLOWED_VALUE'],
    ['#/items/6/params/comment', 'NOT_ALLOWED_VALUE'],
    ['#/items/7/params/exclusions/0', 'NOT_AN_INTEGER']
  ])
  const metrics = await app.metrics?.registry.getSingleMetricAsString('randgen_values_generated_total')
  t.notMatch(metrics, /generator="uuid"} [1-9]/, 'the valid item drew nothing')
  const ok = await postSet(app, { items: [{ name: 'A', type: 'uuid', params: { quantity: 3 } }, { name: 'B', type: 'vpn', params: { protocol: 'wireguard' } }] })
  t.equal(ok.statusCode, 200)
  await post(app, 'uuid', { quantity: 2 })
  const counted = await app.metrics?.registry.getSingleMetricAsString('randgen_values_generated_total')
  t.match(counted, /generator="uuid"} 5\b/, 'each item\'s values counted under its own generator, with its route\'s')
  t.match(counted, /generator="vpn"} 1\b/)

  const many = Array.from({ length: 25 }, (_, i) => ({ name: `${i}X`, type: 'uuid' }))
  const capped = await postSet(app, { items: many })
  t.equal(problemsOf(capped.body).length, 20, 'at most 20, the first found')
  t.same(problemsOf(capped.body)[19], ['#/items/19/name', 'NOT_ALLOWED_VALUE'])
  const precheck = await postSet(app, { items: [{ name: 'A', type: 'uuid' }, { name: 'B', type: 'number', params: { exclusions: Array.from({ length: 1001 }, () => 1) } }] })
  t.same(problemsOf(precheck.body), [['#/items/1/params/exclusions', 'TOO_MANY_ITEMS']], 'an item\'s array over its limit is refused before AJV, as by its route')
})

t.test('problems in every language, the new codes included', async (t) => {
  const app = await build(t)
  const body = {
    items: [
      { type: 'uuid' },
      { name: 'A', type: 'uuid', params: { quantity: 2 } },
      { name: 'A', type: 'ssh-key' },
      { name: 'B', type: 'uuid', params: { quantity: 48 } }
    ]
  }
  const details = new Map<string, string[]>()
  for (const language of LANGUAGES) {
    const response = await postSet(app, body, { ...TEXT, 'x-language': language })
    t.equal(response.headers['content-language'], language)
    t.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8', 'errors are problem documents whatever Accept says')
    t.same(problemsOf(response.body), [
      ['#/items/0/name', 'REQUIRED'],
      ['#/items/1/params/quantity', 'NOT_REPRESENTABLE'],
      ['#/items/2/name', 'DUPLICATE_NAME'],
      ['#/items/2/type', 'NOT_REPRESENTABLE'],
      ['#/items/3/params/quantity', 'NOT_REPRESENTABLE'],
      ['#/items', 'TOO_MANY_VALUES']
    ], language)
    const errors = response.json().errors as Array<{ detail: string }>
    details.set(language, errors.map(({ detail }) => detail))
    t.match(errors[5]?.detail, /52/, `${language}: the total`)
  }
  for (const language of LANGUAGES.filter((language) => language !== 'en')) {
    details.get(language)?.forEach((detail, index) => t.not(detail, details.get('en')?.[index], `${language} ${index} is not English`))
  }
})

t.test('.env: single-quoted lines in the request\'s order, public keys and hashes after their value, nothing else', async (t) => {
  const app = await build(t)
  const items = [
    { name: 'POSTGRES_PASSWORD', type: 'password', params: { length: 32, symbols: false } },
    { name: 'WG_SERVER', type: 'vpn', params: { protocol: 'wireguard' } },
    { name: 'WG_PSK', type: 'vpn', params: { protocol: 'wireguard-psk' } },
    { name: 'APP_TOKEN', type: 'token' },
    { name: 'AGE', type: 'age-key' },
    { name: 'OTP', type: 'totp', params: { issuer: 'It\'s "me"\\ & you', account: 'a\'b' } }
  ]
  for (const send of [postSet, getSet]) {
    const response = await send(app, { items }, TEXT)
    t.equal(response.statusCode, 200, response.statusCode === 200 ? 'answered' : response.body)
    t.equal(response.headers['content-type'], 'text/plain; charset=utf-8')
    t.equal(response.headers['cache-control'], 'no-store')
    t.equal(response.headers.vary, 'Accept')
    const lines = response.body.split('\n')
    t.equal(lines.pop(), '', 'every line ends in a line feed')
    t.same(lines.map((line) => line.slice(0, line.indexOf('='))), ['POSTGRES_PASSWORD', 'WG_SERVER', 'WG_SERVER_PUBLIC_KEY', 'WG_PSK', 'APP_TOKEN', 'APP_TOKEN_HASH', 'AGE', 'AGE_PUBLIC_KEY', 'OTP'])
    for (const [index, line] of lines.entries()) t.match(line, /^[A-Z_]+='[^'\\\p{Cc}]*'$/u, `line ${index + 1}: NAME='value'`)
    t.match(lines[0], /^POSTGRES_PASSWORD='[A-Za-z0-9]{32}'$/)
    t.match(lines[5], /^APP_TOKEN_HASH='[0-9a-f]{64}'$/)
    t.match(lines[8], /^OTP='otpauth:\/\/totp\/It%27s%20%22me%22%5C%20%26%20you:a%27b\?secret=/, 'TOTP names are percent-encoded: never a quote or backslash')
  }
  // Accept negotiated as for the generators: text/plain preferred, text/* included, a tie goes to JSON
  const one = { items: [{ name: 'A', type: 'uuid' }] }
  for (const [accept, type] of [['text/*', 'text/plain'], ['text/plain;q=0.9, application/json;q=0.5', 'text/plain'], ['text/plain, application/json', 'application/json'], ['*/*', 'application/json'], ['text/html', 'application/json']]) {
    const response = await postSet(app, one, { accept: accept as string })
    t.equal(response.headers['content-type'], `${type}; charset=utf-8`, `Accept: ${accept}`)
  }
})

t.test('.env refusals (NOT_REPRESENTABLE), decided from the parameters; the JSON form takes every one', async (t) => {
  const app = await build(t)
  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['uuid', { quantity: 2 }, 'params/quantity'],
    ['password', { symbolSet: '!\'#' }, 'params/symbolSet'],
    ['password', { symbolSet: '!\\#', minSymbols: 0 }, 'params/symbolSet'],
    ['password', { symbolSet: '\'\\', exclude: '\'' }, 'params/symbolSet'],
    ['passphrase', { separator: '\'' }, 'params/separator'],
    ['passphrase', { separator: ' \\ ' }, 'params/separator'],
    ['passphrase', { separator: '\'', wordList: 'bip39-french' }, 'params/separator'],
    ['phrase', { separator: '\'' }, 'params/separator'],
    ['phrase', { separator: '\\', language: 'korean' }, 'params/separator'],
    ['ssh-key', {}, 'type']
  ]
  for (const [type, params, where] of refused) {
    const response = await postSet(app, { items: [{ name: 'OK', type: 'uuid' }, { name: 'X', type, params }] }, TEXT)
    t.same(problemsOf(response.body), [[`#/items/1/${where}`, 'NOT_REPRESENTABLE']], `${type} ${JSON.stringify(params)}`)
    const json = await postSet(app, { items: [{ name: 'X', type, params }] })
    t.equal(json.statusCode, 200, `${type} ${JSON.stringify(params)}: JSON takes it`)
  }
  const taken: Array<[string, Record<string, unknown>]> = [
    ['password', { symbolSet: '\'\\!', symbols: false }],
    ['password', { symbolSet: '\'\\!', exclude: '\'\\' }],
    ['password', { symbolSet: '"$#`&=' }],
    ['passphrase', { separator: '$ "#' }],
    ['phrase', { separator: '`' }],
    ['totp', { issuer: '\'\\', account: '\'' }],
    ['vpn', { protocol: 'mlkem768' }]
  ]
  for (const [type, params] of taken) {
    const response = await postSet(app, { items: [{ name: 'X', type, params }] }, TEXT)
    t.equal(response.statusCode, 200, `${type} ${JSON.stringify(params)}${response.statusCode === 200 ? '' : `: ${response.body}`}`)
  }
})

t.test('the heaviest set answers: 50 ML-DSA-65 key pairs across items', async (t) => {
  const app = await build(t)
  const items = Array.from({ length: 5 }, (_, i) => ({ name: `PQ_${i}`, type: 'vpn', params: { protocol: 'mldsa65', quantity: 10 } }))
  const response = await postSet(app, { items })
  t.equal(response.statusCode, 200)
  t.equal(response.json().items.flatMap((item: { publicKeys: string[] }) => item.publicKeys).length, 50)
})

t.test('access keys guard the set route as they guard the generators', async (t) => {
  const { createHash } = await import('node:crypto')
  const key = 'k'.repeat(24)
  const app = await build(t, { API_KEY_HASHES: createHash('sha256').update(key).digest('hex') })
  const refused = await postSet(app, { items: [{ name: 'A', type: 'uuid' }] })
  t.equal(refused.statusCode, 401)
  t.ok(refused.headers['www-authenticate'])
  const accepted = await postSet(app, { items: [{ name: 'A', type: 'uuid' }] }, { authorization: `Bearer ${key}` })
  t.equal(accepted.statusCode, 200)
})

t.test('amplification (CONTRACT §5): invalid array items spread over 32 items answer the first 20, POST and X-Data', async (t) => {
  const app = await build(t)
  // ~650 invalid exclusions in each of 32 items: 21,000 errors for AJV to build in one pass
  const spread = (each: number) => ({ items: Array.from({ length: 32 }, (_, i) => ({ name: `N${i}`, type: 'number', params: { exclusions: Array.from({ length: each }, () => ({})) } })) })
  t.ok(JSON.stringify(spread(650)).length <= 65_536, 'within the body limit')
  // X-Data holds 48 KiB of Base64: 350 in each item
  t.ok(xData(spread(350)).length <= 49_152, 'within the X-Data limit')
  const first = Array.from({ length: 20 }, (_, j) => [`#/items/0/params/exclusions/${j}`, 'TYPE'])
  for (const send of [postSet, getSet]) {
    const response = await send(app, spread(send === postSet ? 650 : 350))
    t.equal(response.statusCode, 400)
    t.ok(response.body.length <= 16_384, `${response.body.length} bytes`)
    t.same(problemsOf(response.body), first, `${send === postSet ? 'POST' : 'X-Data'}: the first 20, the items validated one at a time`)
  }
  // The bad items come last: the valid ones before them cost nothing in errors
  const late = { items: Array.from({ length: 32 }, (_, i) => ({ name: `N${i}`, type: 'number', params: { min: -1, max: 1000, exclusions: Array.from({ length: 400 }, (_, j) => i === 31 ? 'x' : j) } })) }
  t.same(problemsOf((await postSet(app, late)).body), Array.from({ length: 20 }, (_, j) => [`#/items/31/params/exclusions/${j}`, 'NOT_AN_INTEGER']))
  // Large and valid: answered, every item validated as usual
  const valid = { items: Array.from({ length: 2 }, (_, i) => ({ name: `N${i}`, type: 'number', params: { min: 0, max: 2000, exclusions: Array.from({ length: 900 }, (_, j) => j) } })) }
  const answered = await postSet(app, valid)
  t.equal(answered.statusCode, 200, answered.statusCode === 200 ? 'answered' : answered.body)
  t.ok(answered.json().items.every((item: { values: string[] }) => Number(item.values[0]) >= 900))
  // One problem of AJV's among many array items: still found
  const one = { items: [{ name: 'A', type: 'number', params: { exclusions: Array.from({ length: 1001 }, (_, j) => j) } }, { name: '1', type: 'number', params: { exclusions: Array.from({ length: 600 }, (_, j) => j) } }] }
  t.same(problemsOf((await postSet(app, one)).body), [['#/items/0/params/exclusions', 'TOO_MANY_ITEMS']])
  const oneName = { items: [{ name: 'A', type: 'number', params: { exclusions: Array.from({ length: 600 }, (_, j) => j) } }, { name: '1', type: 'number', params: { exclusions: Array.from({ length: 600 }, (_, j) => j) } }] }
  t.same(problemsOf((await postSet(app, oneName)).body), [['#/items/1/name', 'NOT_ALLOWED_VALUE']])
})
