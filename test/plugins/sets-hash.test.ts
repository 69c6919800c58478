// CONTRACT §10 with §12: items with `hash` (NAME_HASH, at most 5 hashed values in a set), and the
// derived public-key name of a `<stem>_PRIVATE_KEY` item (`<stem>_PUBLIC_KEY`), clashes included.
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { execFileSync } from 'node:child_process'
import { publicKeyName } from '../../schemas/sets.js'
import { build, callTool } from '../helper.js'
import { mosquittoVerifies } from '../hash-readers.js'
import { hasTool } from '../tools.js'

function postSet (app: FastifyInstance, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) })
}
const problems = (body: string) => (JSON.parse(body).errors as Array<{ pointer: string, code: string }>).map(({ pointer, code }) => [pointer, code])
const MOSQUITTO = { algorithm: 'mosquitto' }

t.test('publicKeyName: <name>_PUBLIC_KEY, but <stem>_PUBLIC_KEY for <stem>_PRIVATE_KEY', async (t) => {
  t.equal(publicKeyName('WG'), 'WG_PUBLIC_KEY')
  t.equal(publicKeyName('WG_PRIVATE_KEY'), 'WG_PUBLIC_KEY')
  t.equal(publicKeyName('VAPID_PRIVATE_KEY'), 'VAPID_PUBLIC_KEY')
  t.equal(publicKeyName('_PRIVATE_KEY'), '_PRIVATE_KEY_PUBLIC_KEY', 'no empty stem')
  t.equal(publicKeyName('A_PRIVATE_KEY_X'), 'A_PRIVATE_KEY_X_PUBLIC_KEY', 'only at the end')
  t.equal(publicKeyName('wg_private_key'), 'wg_private_key_PUBLIC_KEY', 'case counts, as for names')
})

t.test('JSON: an item with hash answers hashes, each its own value\'s; the others are as before', async (t) => {
  const app = await build(t)
  const response = await postSet(app, { items: [{ name: 'MQTT', type: 'password', params: { quantity: 2, hash: MOSQUITTO } }, { name: 'DB', type: 'password' }, { name: 'T', type: 'token' }] })
  t.equal(response.statusCode, 200, response.body)
  const [mqtt, db, token] = response.json().items
  t.same(mqtt.values.map((value: string, index: number) => mosquittoVerifies(value, mqtt.hashes[index])), [true, true])
  t.notOk('hashes' in db, 'no hash asked, none answered')
  t.equal(token.hashes.length, 1, 'a token\'s hash as ever')
})

t.test('.env: NAME_HASH after NAME, <stem>_PUBLIC_KEY after <stem>_PRIVATE_KEY; read back by sh', async (t) => {
  const app = await build(t)
  const response = await postSet(app, {
    items: [
      { name: 'WG_PRIVATE_KEY', type: 'vpn', params: { protocol: 'wireguard' } },
      { name: 'MQTT', type: 'passphrase', params: { hash: MOSQUITTO } },
      { name: 'ADMIN', type: 'password', params: { hash: { algorithm: 'argon2id', memoryKiB: 7168, iterations: 1 } } }
    ]
  }, { accept: 'text/plain' })
  t.equal(response.statusCode, 200, response.body)
  const lines = response.body.split('\n')
  t.same(lines.map((line) => line.split('=')[0]), ['WG_PRIVATE_KEY', 'WG_PUBLIC_KEY', 'MQTT', 'MQTT_HASH', 'ADMIN', 'ADMIN_HASH', ''])
  t.match(lines[5], /^ADMIN_HASH='\$argon2id\$v=19\$m=7168,t=1,p=1\$[^']+'$/, 'the PHC string whole, in single quotes')
  if (hasTool(t, 'dash', 'dash')) {
    const printed = execFileSync('dash', ['-c', 'set -a; eval "$ENV_TEXT"; printf "%s\\n%s" "$MQTT" "$MQTT_HASH"'], { env: { PATH: process.env.PATH, ENV_TEXT: response.body } }).toString()
    const [value, hash] = printed.split('\n')
    t.ok(mosquittoVerifies(value as string, hash as string), 'sh reads the value and its hash, every `$` kept')
  }
})

t.test('derived names clash as names do (DUPLICATE_NAME at the later item)', async (t) => {
  const app = await build(t)
  const cases: Array<[unknown[], Array<[string, string]>]> = [
    [[{ name: 'A', type: 'password', params: { hash: MOSQUITTO } }, { name: 'A_HASH', type: 'uuid' }], [['#/items/1/name', 'DUPLICATE_NAME']]],
    [[{ name: 'A_HASH', type: 'uuid' }, { name: 'A', type: 'passphrase', params: { hash: MOSQUITTO } }], [['#/items/1/name', 'DUPLICATE_NAME']]],
    [[{ name: 'WG_PRIVATE_KEY', type: 'vpn', params: { protocol: 'wireguard' } }, { name: 'WG_PUBLIC_KEY', type: 'uuid' }], [['#/items/1/name', 'DUPLICATE_NAME']]],
    [[{ name: 'WG_PUBLIC_KEY', type: 'uuid' }, { name: 'WG_PRIVATE_KEY', type: 'age-key' }], [['#/items/1/name', 'DUPLICATE_NAME']]]
  ]
  for (const [items, expected] of cases) {
    const response = await postSet(app, { items })
    t.same([response.statusCode, problems(response.body)], [400, expected], JSON.stringify(items))
  }
  const fine = await postSet(app, { items: [{ name: 'A', type: 'password' }, { name: 'A_HASH', type: 'uuid' }, { name: 'WG_PRIVATE_KEY', type: 'vpn', params: { protocol: 'hex' } }, { name: 'WG_PUBLIC_KEY', type: 'uuid' }] })
  t.equal(fine.statusCode, 200, 'no hash and no key pair: nothing derived, nothing clashes')
})

t.test('at most 5 hashed values in a set; an item\'s own bound is its route\'s', async (t) => {
  const app = await build(t)
  const three = (quantity: number) => Array.from({ length: 3 }, (_, index) => ({ name: `P${index}`, type: 'password', params: { quantity, hash: MOSQUITTO } }))
  const over = await postSet(app, { items: three(2) })
  t.same([over.statusCode, problems(over.body)], [400, [['#/items', 'TOO_MANY_VALUES']]], '3 items of 2 hashed values')
  t.match(over.json().errors[0].detail, /6/, 'the detail says how many were asked')
  t.equal((await postSet(app, { items: [...three(1), { name: 'MORE', type: 'password', params: { quantity: 40 } }] })).statusCode, 200, '3 hashed beside 40 that are not')
  const item = await postSet(app, { items: [{ name: 'P', type: 'password', params: { quantity: 6, hash: MOSQUITTO } }] })
  t.same(problems(item.body), [['#/items/0/params/quantity', 'TOO_MANY_VALUES'], ['#/items', 'TOO_MANY_VALUES']], 'an item of 6: its own rule, and the set\'s')
  const long = await postSet(app, { items: [{ name: 'P', type: 'password', params: { length: 100, hash: { algorithm: 'bcrypt' } } }] })
  t.same(problems(long.body), [['#/items/0/params/length', 'TOO_LONG_FOR_HASH']])
})

t.test('MCP generate_set hashes as the route does', async (t) => {
  const app = await build(t)
  const response = await callTool(app, 'generate_set', { items: [{ name: 'M', type: 'password', params: { hash: MOSQUITTO } }] })
  const [item] = response.json().result.structuredContent.items
  t.ok(mosquittoVerifies(item.values[0], item.hashes[0]))
})
