// Issue 13, "Memory hygiene": phrase left its BIP-39 entropy in memory after use. Every buffer of
// random bytes a generator draws is spied on (tap's module mocks wrap src/random.ts for each
// generator plugin, so production code has no test hook) and must hold only zeros once the
// response is sent. Values themselves are strings, which JavaScript cannot wipe.
import t from 'tap'
import * as random from '../../src/random.js'
import { loadConfig } from '../../src/config.js'
import type * as App from '../../src/app.js'
import { get, post } from '../helper.js'

/** Every buffer handed to a generator in the current request. */
const drawn: Uint8Array[] = []

// The real primitives, with each buffer they hand out recorded: `randomBytes` returns its buffer,
// `randomChunks` passes its one draw to the encoder
const spied = {
  ...random,
  randomBytes: (n: number) => {
    const bytes = random.randomBytes(n)
    drawn.push(bytes)
    return bytes
  },
  randomChunks: (byteLength: number, quantity: number, encode: (bytes: Buffer, start: number, end: number) => string) =>
    random.randomChunks(byteLength, quantity, (bytes, start, end) => {
      if (drawn.at(-1) !== bytes) drawn.push(bytes)
      return encode(bytes, start, end)
    })
}

// tap's module mocks reach only a mocked module's own imports: each plugin gets the spied module,
// then the app gets those plugins
const PLUGINS = ['password', 'passphrase', 'number', 'vpn', 'uuid', 'phrase', 'seq', 'short-id'] as const
const mocks: Record<string, unknown> = {}
for (const name of PLUGINS) {
  mocks[`../../plugins/${name}.js`] = await t.mockImport(`../../plugins/${name}.js`, { '../../src/random.js': spied })
}
const { buildApp } = await t.mockImport<typeof App>('../../src/app.js', mocks)
const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }))
await app.ready()
t.teardown(() => app.close())

// Each request that draws buffers: the finding (phrase) first, then every other generator and
// format that draws bytes rather than single pool values
const CASES: Array<[string, Record<string, unknown>]> = [
  ['phrase', { words: 24, quantity: 3 }],
  ['phrase', { words: 12, language: 'japanese' }],
  ['seq', { byteLength: 64, quantity: 5 }],
  ['seq', { encoding: 'base32' }],
  ['short-id', { quantity: 4 }],
  ['uuid', { format: 'v7', quantity: 10 }],
  ['uuid', { format: 'ulid', quantity: 10 }],
  ['vpn', { protocol: 'wireguard', quantity: 3 }],
  ['vpn', { protocol: 'reality' }],
  ['vpn', { protocol: 'wireguard-psk', quantity: 2 }],
  ['vpn', { protocol: 'hex' }],
  ['vpn', { protocol: '2022-blake3-aes-128-gcm' }]
]

t.test('phrase leaves no BIP-39 entropy in memory, nor does any generator leave its draw (POST and X-Data)', async (t) => {
  for (const [type, params] of CASES) {
    for (const [form, send] of [['POST', post], ['GET', get]] as const) {
      drawn.length = 0
      const response = await send(app, type, params)
      const label = `${form} ${type} ${JSON.stringify(params)}`
      t.equal(response.statusCode, 200, label)
      t.ok(drawn.length > 0, `${label}: the spy saw the draw`)
      t.ok(drawn.every((bytes) => bytes.length > 0 && bytes.every((byte) => byte === 0)), `${label}: every drawn byte is zero after the response`)
    }
  }
})

t.test('the spy would see bytes left behind', async (t) => {
  // Proof the check can fail: a draw nobody wipes is caught
  drawn.length = 0
  spied.randomBytes(16)
  t.notOk(drawn.every((bytes) => bytes.every((byte) => byte === 0)), 'a fresh draw is not all zeros')
})
