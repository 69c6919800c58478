// Issue 13, "Memory hygiene": phrase left its BIP-39 entropy in memory after use. Every buffer of
// random bytes a generator draws is spied on (tap's module mocks wrap src/random/csprng.ts for each
// generator plugin, so production code has no test hook) and must hold only zeros once the
// response is sent. Values themselves are strings, which JavaScript cannot wipe.
import * as crypto from 'node:crypto'
import t from 'tap'
import type { Test } from 'tap'
import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import * as random from '../../../src/random/csprng.js'
import { loadConfig } from '../../../src/ops/config.js'
import type * as App from '../../../src/app.js'
import type * as NumberPlugin from '../../../plugins/number.js'
import type * as Passphrase from '../../../plugins/passphrase.js'
import type * as Password from '../../../plugins/password.js'
import type * as Uuid from '../../../plugins/uuid.js'
import type * as Vpn from '../../../plugins/vpn.js'
import { NumberParams } from '../../../schemas/number.js'
import { PassphraseParams } from '../../../schemas/passphrase.js'
import { PasswordParams } from '../../../schemas/password.js'
import { UuidParams } from '../../../schemas/uuid.js'
import { VpnParams } from '../../../schemas/vpn.js'
import { get, post } from '../../helper.js'

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
const PLUGINS = ['password', 'passphrase', 'number', 'vpn', 'uuid', 'phrase', 'seq', 'short-id', 'pin', 'ssh-key', 'age-key', 'token', 'totp'] as const
const mocks: Record<string, unknown> = {}
for (const name of PLUGINS) {
  mocks[`../../../plugins/${name}.js`] = await t.mockImport(`../../../plugins/${name}.js`, { '../../../src/random/csprng.js': spied })
}
const { buildApp } = await t.mockImport<typeof App>('../../../src/app.js', mocks)
const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }))
await app.ready()
t.teardown(() => app.close())

// password, passphrase, number over spans of 2^48 and more, uuid's compact formats and vpn
// shadowsocks read their bytes in place in src/random/csprng.ts's pool (randomString, randomBelow,
// randomBigBelow, shuffle), so no buffer reaches them to spy on. The spy sits under the pool
// instead: node:crypto as src/random/csprng.ts sees it records every buffer randomFillSync fills (the
// pool) with a copy of the CSPRNG bytes it got, and every buffer randomBytes returns. Once a
// request is answered, every pool byte up to where the next draw starts must be zero.

interface Fill { pool: Uint8Array, filled: Buffer }
/** Each randomFillSync call: the buffer filled and a copy of what it was filled with. */
const fills: Fill[] = []
/** Each buffer node:crypto's randomBytes returned to src/random/csprng.ts (draws over the pool's size). */
const returned: Buffer[] = []
const spiedCrypto = {
  ...crypto,
  randomFillSync: <T extends NodeJS.ArrayBufferView>(buffer: T): T => {
    crypto.randomFillSync(buffer)
    const pool = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    fills.push({ pool, filled: Buffer.from(pool) })
    return buffer
  },
  randomBytes: (size: number): Buffer => {
    const bytes = crypto.randomBytes(size)
    returned.push(bytes)
    return bytes
  }
}

// One src/random/csprng.ts over the spied node:crypto, handed to every module that imports it (password's
// compositions included), then those to the app, as above
const pooled = await t.mockImport<typeof random>('../../../src/random/csprng.js', { 'node:crypto': spiedCrypto })
const withPool: Record<string, unknown> = { '../../../src/random/csprng.js': pooled }
withPool['../../../src/random/compositions.js'] = await t.mockImport('../../../src/random/compositions.js', withPool)
const pooledPlugins: Record<string, unknown> = {}
for (const name of PLUGINS) {
  pooledPlugins[`../../../plugins/${name}.js`] = await t.mockImport(`../../../plugins/${name}.js`, withPool)
}
const pooledApp = await (await t.mockImport<typeof App>('../../../src/app.js', pooledPlugins)).buildApp(loadConfig({ LOG_LEVEL: 'silent' }))
await pooledApp.ready()
t.teardown(() => pooledApp.close())
const pluginOf = <T>(name: typeof PLUGINS[number]) => pooledPlugins[`../../../plugins/${name}.js`] as T
const { generatePasswords } = pluginOf<typeof Password>('password')
const { generatePassphrases } = pluginOf<typeof Passphrase>('passphrase')
const { generateNumbers } = pluginOf<typeof NumberPlugin>('number')
const { generateUuids } = pluginOf<typeof Uuid>('uuid')
const { generateVpnSecrets } = pluginOf<typeof Vpn>('vpn')

/** Uses up and wipes the pool, so the next draw refills it and takes its bytes from the start. */
function drainPool (): void {
  pooled.randomBytes(pooled.POOL_SIZE).fill(0)
  fills.length = 0
  returned.length = 0
}

const PROBE = 16

/**
 * What the draws since drainPool left behind: `used` pool bytes handed out (a probe drawn now
 * comes from where they end; 16 CSPRNG bytes recur elsewhere in the pool's copy with probability
 * about 2^-112) and `left` of them not zero; no buffer node:crypto's randomBytes returned may
 * hold a non-zero byte either.
 */
function leftBehind (t: Test, label: string): { used: number, left: number } {
  const refills = fills.length
  const fill = fills.at(-1)
  t.ok(refills >= 1, `${label}: the spy saw the pool filled`)
  if (fill === undefined) return { used: 0, left: 0 }
  const used = fill.filled.indexOf(pooled.randomBytes(PROBE))
  t.equal(fills.length, refills, `${label}: the probe came from the same fill`)
  t.ok(used > 0, `${label}: ${used} pool bytes drawn`)
  t.ok(Buffer.from(fill.pool).subarray(used + PROBE).equals(fill.filled.subarray(used + PROBE)), `${label}: the bytes not handed out are untouched`)
  let left = 0
  for (let i = 0; i < used; i++) if (fill.pool[i] !== 0) left++
  t.equal(returned.filter((bytes) => bytes.some((byte) => byte !== 0)).length, 0, `${label}: no direct CSPRNG draw left behind`)
  return { used, left }
}

/** `draw` (a request or a call) leaves no pool byte it drew behind. */
async function checkWiped (t: Test, label: string, draw: () => unknown): Promise<void> {
  drainPool()
  await draw()
  const { used, left } = leftBehind(t, label)
  t.equal(left, 0, `${label}: all ${used} pool bytes drawn are zero`)
}

// Each request that draws buffers: the finding (phrase) first, then every other generator and
// format that draws bytes rather than single pool values
const CASES: Array<[string, Record<string, unknown>]> = [
  ['phrase', { words: 24, quantity: 3 }],
  ['phrase', { words: 12, language: 'japanese' }],
  ['seq', { byteLength: 64, quantity: 5 }],
  ['seq', { encoding: 'base32' }],
  ['short-id', { quantity: 4 }],
  ['passphrase', { wordList: 'bip39-czech', words: 20, includeNumber: true, quantity: 5 }],
  ['uuid', { format: 'v7', quantity: 10 }],
  ['uuid', { format: 'ulid', quantity: 10 }],
  ['vpn', { protocol: 'wireguard', quantity: 3 }],
  ['vpn', { protocol: 'reality' }],
  ['vpn', { protocol: 'wireguard-psk', quantity: 2 }],
  ['vpn', { protocol: 'hex' }],
  ['vpn', { protocol: '2022-blake3-aes-128-gcm' }],
  // Post-quantum seeds, Ed25519 seeds with their check integers, age keys
  ['vpn', { protocol: 'mlkem768', quantity: 2 }],
  ['vpn', { protocol: 'mldsa65' }],
  ['ssh-key', { comment: 'c', quantity: 3 }],
  ['age-key', { quantity: 3 }],
  ['totp', { byteLength: 64, quantity: 5 }],
  ['totp', { issuer: 'Example', account: 'alice', algorithm: 'SHA512' }]
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

const POOL_CASES: Array<[string, Record<string, unknown>]> = [
  ['password', {}],
  ['password', { length: 128, quantity: 50 }],
  // By composition (password counts over 2^64, then each set's characters, then a shuffle)
  ['password', { length: 128, minSymbols: 120, quantity: 5 }],
  // By composition with counts between 2^48 and 2^64 (64-bit draws after odd-sized ones)
  ['password', { length: 10, minSymbols: 7, avoidAmbiguous: true, quantity: 10 }],
  // Custom sets, a one-character set among them, by rejection and by composition
  ['password', { symbolSet: '!"\\', exclude: 'abc', length: 64, quantity: 20 }],
  ['password', { symbolSet: '#', minSymbols: 30, length: 40, quantity: 5 }],
  ['passphrase', {}],
  ['passphrase', { words: 20, capitalize: true, includeNumber: true, quantity: 50 }],
  ['passphrase', { wordList: 'bip39-japanese', separator: '\u3000', words: 20, quantity: 50 }],
  ['pin', {}],
  ['pin', { length: 4, quantity: 50 }],
  ['number', { min: -9_007_199_254_740_991, max: 9_007_199_254_740_991, quantity: 50 }],
  ['number', { min: 0, max: 2 ** 50, exclusions: ['1', '2'], unique: true, quantity: 20 }],
  ['uuid', { format: 'numeric' }],
  ['uuid', { format: 'alpha', length: 256, quantity: 50 }],
  ['uuid', { format: 'alphanumeric', quantity: 10 }],
  ['uuid', { format: 'urlsafe', length: 100, quantity: 5 }],
  ['vpn', {}],
  ['vpn', { protocol: 'shadowsocks', length: 256, quantity: 50 }],
  // The generators that draw buffers (above) draw them from the pool too
  ['phrase', { words: 24, quantity: 3 }],
  ['seq', { byteLength: 256, quantity: 50 }],
  ['short-id', {}],
  ['uuid', { format: 'v7', quantity: 10 }],
  ['uuid', { format: 'ulid', quantity: 10 }],
  ['vpn', { protocol: 'wireguard', quantity: 3 }],
  ['vpn', { protocol: 'mlkem768', quantity: 2 }],
  ['vpn', { protocol: 'mldsa65', quantity: 2 }],
  ['ssh-key', {}],
  ['age-key', { quantity: 5 }],
  ['token', {}],
  ['token', { prefix: 'ghp', length: 128, quantity: 50 }],
  ['totp', { byteLength: 64, quantity: 50 }]
]

t.test('every pool byte a generator draws is zero once the request is answered (POST and X-Data)', async (t) => {
  for (const [type, params] of POOL_CASES) {
    for (const [form, send] of [['POST', post], ['GET', get]] as const) {
      const label = `${form} ${type} ${JSON.stringify(params)}`
      await checkWiped(t, label, async () => t.equal((await send(pooledApp, type, params)).statusCode, 200, label))
    }
  }
})

t.test('every pool byte a generator function draws is zero once it returns', async (t) => {
  // Each generator called with its schema's defaults filled in, as AJV fills them for a request
  const withDefaults = <S extends TSchema, R>(schema: S, generate: (params: Static<S>) => R) =>
    (params: object): R => generate(Value.Default(schema, { ...params }) as Static<S>)
  const password = withDefaults(PasswordParams, generatePasswords)
  const passphrase = withDefaults(PassphraseParams, generatePassphrases)
  const number = withDefaults(NumberParams, generateNumbers)
  const uuid = withDefaults(UuidParams, generateUuids)
  const vpn = withDefaults(VpnParams, generateVpnSecrets)
  await checkWiped(t, 'generatePasswords', () => password({ quantity: 20 }))
  await checkWiped(t, 'generatePasswords by composition', () => password({ length: 64, minNumbers: 50, quantity: 5 }))
  await checkWiped(t, 'generatePassphrases', () => passphrase({ words: 10, includeNumber: true, quantity: 5 }))
  await checkWiped(t, 'generateNumbers over 2^53', () => number({ min: 0, max: 2 ** 53, quantity: 10 }))
  for (const format of ['numeric', 'alpha', 'alphanumeric', 'urlsafe']) {
    await checkWiped(t, `generateUuids ${format}`, () => uuid({ format, quantity: 5 }))
  }
  await checkWiped(t, 'generateVpnSecrets shadowsocks', () => vpn({ quantity: 5 }))
})

t.test('the pool primitives zero what they hand out', async (t) => {
  await checkWiped(t, 'randomString', () => pooled.randomString('0123456789', 1000))
  await checkWiped(t, 'randomStrings', () => pooled.randomStrings('ab', 10, 10))
  await checkWiped(t, 'randomBelow over 2^48', () => Array.from({ length: 10 }, () => pooled.randomBelow(2n ** 60n + 1n)))
  await checkWiped(t, 'randomBigBelow', () => Array.from({ length: 10 }, () => pooled.randomBigBelow(3n ** 200n)))
  await checkWiped(t, 'shuffle', () => pooled.shuffle('abcdefghijklmnopqrstuvwxyz'))
  await checkWiped(t, 'randomBytes', () => pooled.randomBytes(100))
  await checkWiped(t, 'odd draws, then 64-bit ones', () => [pooled.randomString('01', 3), pooled.randomBelow(2n ** 50n), pooled.shuffle('abc'), pooled.randomBelow(2n ** 63n)])
})

t.test('the pool spy would see bytes left behind', async (t) => {
  // Proof the check can fail: drawn bytes put back as the CSPRNG gave them are caught
  drainPool()
  pooled.randomString('0123456789', 100)
  const fill = fills.at(-1) as Fill
  fill.pool.set(fill.filled.subarray(0, 50), 0)
  const { left } = leftBehind(t, 'put back')
  t.ok(left > 40, `${left} bytes seen`)
})

t.test('draws outside the pool: Node\'s own caches, which cannot be wiped (SECURITY.md, Known limits)', async (t) => {
  // crypto.randomInt (integers below 2^48) and crypto.randomUUID draw from buffers inside Node
  for (const [type, params] of [['number', {}], ['uuid', {}]] as const) {
    drainPool()
    t.equal((await post(pooledApp, type, params)).statusCode, 200)
    t.equal(fills.length + returned.length, 0, `${type} ${JSON.stringify(params)}: nothing drawn through src/random/csprng.ts's buffers`)
  }
})
