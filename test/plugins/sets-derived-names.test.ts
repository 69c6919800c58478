// CONTRACT §14.2: a set item's `hashName` and `publicKeyName` name its derived `.env` lines in
// place of `<name>_HASH` / `<name>_PUBLIC_KEY` (Vaultwarden reads its hash as ADMIN_TOKEN); the
// JSON answer is unchanged; given where there is no such line, or clashing, they are refused.
import t from 'tap'
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { parseEnv } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { build, xData } from '../helper.js'
import { mosquittoVerifies } from '../hash-readers.js'
import { hasTool } from '../tools.js'

type Headers = Record<string, string>
const TEXT = { accept: 'text/plain' }
const MOSQUITTO = { algorithm: 'mosquitto' }
const WIREGUARD = { protocol: 'wireguard' }

function postSet (app: FastifyInstance, body: unknown, headers: Headers = {}) {
  return app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) })
}
function getSet (app: FastifyInstance, body: unknown, headers: Headers = {}) {
  return app.inject({ method: 'GET', url: '/api/generate', headers: { 'x-data': xData(body), ...headers } })
}
const problems = (body: string) => (JSON.parse(body).errors as Array<{ pointer: string, code: string }>).map(({ pointer, code }) => [pointer, code])
const lineNames = (body: string) => body.split('\n').map((line) => line.split('=')[0])

const RENAMED = [
  { name: 'MQTT_PASSWORD', type: 'password', params: { symbols: false, hash: MOSQUITTO }, hashName: 'MQTT_PASSWORD_PBKDF2' },
  { name: 'API_TOKEN', type: 'token', hashName: 'ADMIN_TOKEN' },
  { name: 'WG_SERVER', type: 'vpn', params: WIREGUARD, publicKeyName: 'WG_PEER_KEY' },
  { name: 'SIGNER', type: 'signing-key', params: { algorithm: 'ES256' }, publicKeyName: 'SIGNER_JWK_PUBLIC' }
]

t.test('.env: hashName and publicKeyName name the derived lines, each read back as its value\'s', async (t) => {
  const app = await build(t)
  for (const send of [postSet, getSet]) {
    const response = await send(app, { items: RENAMED }, TEXT)
    t.equal(response.statusCode, 200, response.body)
    t.same(lineNames(response.body), ['MQTT_PASSWORD', 'MQTT_PASSWORD_PBKDF2', 'API_TOKEN', 'ADMIN_TOKEN', 'WG_SERVER', 'WG_PEER_KEY', 'SIGNER', 'SIGNER_JWK_PUBLIC', ''], `${send.name}: the given names, where <name>_HASH and <name>_PUBLIC_KEY would be`)
    // Node's own .env reader
    const read = parseEnv(response.body)
    t.equal(Object.keys(read).length, 8, 'every line read')
    t.ok(mosquittoVerifies(read.MQTT_PASSWORD as string, read.MQTT_PASSWORD_PBKDF2 as string), 'the hash line is the password\'s hash')
    t.equal(read.ADMIN_TOKEN, createHash('sha256').update(read.API_TOKEN as string).digest('hex'), 'the hash line is the token\'s SHA-256')
    const signer = JSON.parse(read.SIGNER as string)
    const publicJwk = JSON.parse(read.SIGNER_JWK_PUBLIC as string)
    t.same({ x: publicJwk.x, y: publicJwk.y, kid: publicJwk.kid }, { x: signer.x, y: signer.y, kid: signer.kid }, 'the public key line is the signing key\'s')
    t.notOk('d' in publicJwk, 'and public')
    if (hasTool(t, 'wg', 'wireguard-tools')) {
      const derived = execFileSync('wg', ['pubkey'], { input: `${read.WG_SERVER as string}\n` }).toString().trim()
      t.equal(read.WG_PEER_KEY, derived, 'wg pubkey: the public key line is the private key\'s')
    }
  }
})

t.test('JSON: the answer is unchanged, hashes and publicKeys as without the names', async (t) => {
  const app = await build(t)
  const renamed = await postSet(app, { items: RENAMED })
  const plain = await postSet(app, { items: RENAMED.map(({ hashName: _h, publicKeyName: _p, ...item }) => item) })
  t.equal(renamed.statusCode, 200, renamed.body)
  const keys = (body: string) => JSON.parse(body).items.map((item: Record<string, unknown>) => Object.keys(item))
  t.same(keys(renamed.body), keys(plain.body), 'the same fields, item by item')
  t.notMatch(renamed.body, /hashName|publicKeyName|ADMIN_TOKEN|WG_PEER_KEY/, 'no derived name in JSON')
  const [mqtt, token, wg, signer] = renamed.json().items
  t.ok(mosquittoVerifies(mqtt.values[0], mqtt.hashes[0]))
  t.equal(token.hashes[0], createHash('sha256').update(token.values[0]).digest('hex'))
  t.equal(wg.publicKeys.length, 1)
  t.equal(JSON.parse(signer.publicKeys[0]).x, JSON.parse(signer.values[0]).x)
})

t.test('given where the item has no such line: NOT_ALLOWED_VALUE at that field', async (t) => {
  const app = await build(t)
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ name: 'A', type: 'password', hashName: 'A_H' }, '#/items/1/hashName'],
    [{ name: 'A', type: 'passphrase', hashName: 'A_H' }, '#/items/1/hashName'],
    [{ name: 'A', type: 'uuid', hashName: 'A_H' }, '#/items/1/hashName'],
    [{ name: 'A', type: 'vpn', params: WIREGUARD, hashName: 'A_H' }, '#/items/1/hashName'],
    [{ name: 'A', type: 'token', publicKeyName: 'A_P' }, '#/items/1/publicKeyName'],
    [{ name: 'A', type: 'password', params: { hash: MOSQUITTO }, publicKeyName: 'A_P' }, '#/items/1/publicKeyName'],
    [{ name: 'A', type: 'vpn', params: { protocol: 'wireguard-psk' }, publicKeyName: 'A_P' }, '#/items/1/publicKeyName'],
    [{ name: 'A', type: 'signing-key', params: { algorithm: 'HS256' }, publicKeyName: 'A_P' }, '#/items/1/publicKeyName'],
    [{ name: 'A', type: 'seq', publicKeyName: 'A_P' }, '#/items/1/publicKeyName']
  ]
  for (const [item, pointer] of cases) {
    for (const headers of [{}, TEXT]) {
      // A valid item before it: only this item's problem
      const response = await postSet(app, { items: [{ name: 'FIRST', type: 'uuid' }, item] }, headers)
      t.equal(response.statusCode, 400, JSON.stringify(item))
      t.same(problems(response.body), [[pointer, 'NOT_ALLOWED_VALUE']], JSON.stringify(item))
    }
  }
  const both = await postSet(app, { items: [{ name: 'A', type: 'uuid', hashName: 'A_H', publicKeyName: 'A_P' }] })
  t.same(problems(both.body), [['#/items/0/publicKeyName', 'NOT_ALLOWED_VALUE'], ['#/items/0/hashName', 'NOT_ALLOWED_VALUE']], 'both, each at its field')
  t.match(both.json().errors[1].detail, /hash/, 'the detail says why')
  t.match(both.json().errors[0].detail, /public key/)
  // A jwt item has no derived line at all: its schema has neither field
  const jwt = await postSet(app, { items: [{ name: 'S', type: 'password' }, { name: 'J', type: 'jwt', params: { signedWith: 'S' }, hashName: 'J_H' }] })
  t.same(problems(jwt.body), [['#/items/1/hashName', 'UNKNOWN_FIELD']], 'a jwt: UNKNOWN_FIELD')
})

t.test('clashes: DUPLICATE_NAME at the later of the two fields, in both forms', async (t) => {
  const app = await build(t)
  const token = (hashName?: string) => ({ name: 'T', type: 'token', ...(hashName === undefined ? {} : { hashName }) })
  const wg = (publicKeyName?: string) => ({ name: 'W', type: 'vpn', params: WIREGUARD, ...(publicKeyName === undefined ? {} : { publicKeyName }) })
  const cases: Array<[string, unknown[], Array<[string, string]>]> = [
    ['a later name takes an earlier hashName', [token('X'), { name: 'X', type: 'uuid' }], [['#/items/1/name', 'DUPLICATE_NAME']]],
    ['a later hashName takes an earlier name', [{ name: 'X', type: 'uuid' }, token('X')], [['#/items/1/hashName', 'DUPLICATE_NAME']]],
    ['a later name takes an earlier publicKeyName', [wg('X'), { name: 'X', type: 'uuid' }], [['#/items/1/name', 'DUPLICATE_NAME']]],
    ['a later publicKeyName takes an earlier name', [{ name: 'X', type: 'uuid' }, wg('X')], [['#/items/1/publicKeyName', 'DUPLICATE_NAME']]],
    ['a later hashName takes an earlier publicKeyName', [wg('X'), token('X')], [['#/items/1/hashName', 'DUPLICATE_NAME']]],
    ['a later publicKeyName takes an earlier hashName', [token('X'), wg('X')], [['#/items/1/publicKeyName', 'DUPLICATE_NAME']]],
    ['a hashName takes an earlier derived name', [wg(), token('W_PUBLIC_KEY')], [['#/items/1/hashName', 'DUPLICATE_NAME']]],
    ['a later item derives an earlier publicKeyName', [wg('T_HASH'), token()], [['#/items/1/name', 'DUPLICATE_NAME']]],
    ['a hashName the item\'s own name', [token('T')], [['#/items/0/hashName', 'DUPLICATE_NAME']]],
    ['a publicKeyName the item\'s own name', [wg('W')], [['#/items/0/publicKeyName', 'DUPLICATE_NAME']]],
    ['a later jwt takes a hashName', [token('X'), { name: 'X', type: 'jwt', params: { signedWith: 'T' } }], [['#/items/1/name', 'DUPLICATE_NAME']]],
    ['case counts: no clash', [token('x'), { name: 'X', type: 'uuid' }], []],
    ['a name freed by hashName: no clash', [token('X'), { name: 'T_HASH', type: 'uuid' }], []],
    ['a name freed by publicKeyName: no clash', [wg('X'), { name: 'W_PUBLIC_KEY', type: 'uuid' }], []]
  ]
  for (const [what, items, expected] of cases) {
    for (const headers of [{}, TEXT]) {
      const response = await postSet(app, { items }, headers)
      if (expected.length === 0) {
        t.equal(response.statusCode, 200, `${what}: answered`)
        continue
      }
      t.equal(response.statusCode, 400, what)
      t.same(problems(response.body), expected, `${what} ${JSON.stringify(headers)}`)
    }
  }
})

t.test('a hashName or publicKeyName off the pattern, reserved, too long or not a string: refused at that field', async (t) => {
  const app = await build(t)
  const cases: Array<[unknown, string]> = [
    ['1A', 'NOT_ALLOWED_VALUE'], ['A-B', 'NOT_ALLOWED_VALUE'], ['A B', 'NOT_ALLOWED_VALUE'], ['É', 'NOT_ALLOWED_VALUE'], ['A\n', 'NOT_ALLOWED_VALUE'],
    ['PATH', 'NOT_ALLOWED_VALUE'], ['IFS', 'NOT_ALLOWED_VALUE'], ['BASH_ENV', 'NOT_ALLOWED_VALUE'], ['RANDOM', 'NOT_ALLOWED_VALUE'],
    ['', 'TOO_SHORT'], ['A'.repeat(65), 'TOO_LONG'], [5, 'TYPE'], [null, 'TYPE']
  ]
  for (const [value, code] of cases) {
    const hashed = await postSet(app, { items: [{ name: 'T', type: 'token', hashName: value }] })
    t.same(problems(hashed.body), [['#/items/0/hashName', code]], `hashName ${JSON.stringify(value)}: ${code}`)
    const keyed = await postSet(app, { items: [{ name: 'W', type: 'vpn', params: WIREGUARD, publicKeyName: value }] })
    t.same(problems(keyed.body), [['#/items/0/publicKeyName', code]], `publicKeyName ${JSON.stringify(value)}: ${code}`)
  }
  // A name refused by the pattern is not also a duplicate
  const twice = await postSet(app, { items: [{ name: 'T', type: 'token', hashName: 'PATH' }, { name: 'U', type: 'token', hashName: 'PATH' }] })
  t.same(problems(twice.body), [['#/items/0/hashName', 'NOT_ALLOWED_VALUE'], ['#/items/1/hashName', 'NOT_ALLOWED_VALUE']])
  const longest = await postSet(app, { items: [{ name: 'T', type: 'token', hashName: `_${'A'.repeat(63)}` }] }, TEXT)
  t.equal(longest.statusCode, 200, '64 characters taken')
  t.equal(lineNames(longest.body)[1], `_${'A'.repeat(63)}`)
})
