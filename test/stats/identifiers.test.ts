// Per-position symbol frequencies of uuid, short-id, seq and vpn. Every test: false-alarm rate
// alpha = 1e-6 split evenly over its positions (Bonferroni), and a sample size that catches a 1%
// bias at any one position (total variation 0.01, Cohen's w >= 0.02) with probability >= 0.99,
// checked by assertPower before sampling.
import t from 'tap'
import { generateUuids, COMPACT_ALPHABETS } from '../../plugins/uuid.js'
import { generateShortIds } from '../../plugins/short-id.js'
import { generateSequences } from '../../plugins/seq.js'
import { generateVpnSecrets, URL_SAFE_ALPHABET } from '../../plugins/vpn.js'
import { randomStrings } from '../../src/random/csprng.js'
import { goodnessOfFit } from './chi-square.js'
import { ALPHA, assertFits, assertPower, countByPosition, type Asserts } from './fit.js'

const HEX = '0123456789abcdef'

/** `n` values from a generator that returns 50 per call. */
function sample (n: number, generate: () => string[]): string[] {
  const values: string[] = []
  while (values.length < n) values.push(...generate())
  return values.slice(0, n)
}

/** Per-position fit; `law(position)` gives each symbol's probability at that position. */
function fitPositions (t: Asserts, label: string, values: string[], alphabet: string, length: number, law: (position: number) => number[]): void {
  const alpha = ALPHA / length
  const counts = countByPosition(values, alphabet, length)
  counts.forEach((row, position) => assertFits(t, row, law(position), alpha, `${label}, position ${position}`))
}

function uniformPositions (t: Asserts, label: string, n: number, alphabet: string, length: number, generate: () => string[]): void {
  assertPower(t, alphabet.length - 1, ALPHA / length, n)
  const probabilities = new Array<number>(alphabet.length).fill(1 / alphabet.length)
  fitPositions(t, label, sample(n, generate), alphabet, length, () => probabilities)
}

/** Uniform over the symbols of `alphabet` for which `allowed` holds, 0 elsewhere. */
function uniformOver (alphabet: string, allowed: (symbol: string) => boolean): number[] {
  const count = [...alphabet].filter(allowed).length
  return [...alphabet].map((symbol) => (allowed(symbol) ? 1 / count : 0))
}

t.test('uuid standard: 30 free hex digits uniform, version 4, variant uniform over 8 9 a b (alpha 1e-6 over 31 checks)', async (t) => {
  const n = 240_000
  assertPower(t, 15, ALPHA / 31, n)
  const digits = sample(n, () => generateUuids({ format: 'standard', length: 32, quantity: 50 })).map((uuid) => uuid.replaceAll('-', ''))
  const free = new Array<number>(16).fill(1 / 16)
  const variant = uniformOver(HEX, (symbol) => '89ab'.includes(symbol))
  // The version digit is fixed, so it is no test of randomness: it only has to be '4' every time
  const counts = countByPosition(digits, HEX, 32)
  t.equal(counts[12]?.[4], n, 'version digit is 4')
  counts.forEach((row, position) => {
    if (position === 12) return
    assertFits(t, row, position === 16 ? variant : free, ALPHA / 31, `uuid digit ${position}`)
  })
})

t.test('uuid compact formats: every position uniform over its alphabet (alpha 1e-6 per format)', async (t) => {
  t.test('alphanumeric, length 16', async (t) => uniformPositions(t, 'alphanumeric', 340_000, COMPACT_ALPHABETS.alphanumeric, 16,
    () => generateUuids({ format: 'alphanumeric', length: 16, quantity: 50 })))
  t.test('alpha, length 8', async (t) => uniformPositions(t, 'alpha', 310_000, COMPACT_ALPHABETS.alpha, 8,
    () => generateUuids({ format: 'alpha', length: 8, quantity: 50 })))
  t.test('numeric, length 8', async (t) => uniformPositions(t, 'numeric', 200_000, COMPACT_ALPHABETS.numeric, 8,
    () => generateUuids({ format: 'numeric', length: 8, quantity: 50 })))
})

t.test('uuid urlsafe, length 12: every position uniform over the 64 characters (alpha 1e-6 over 12 positions), and a modulo bias is caught', async (t) => {
  const n = 340_000
  const alphabet = COMPACT_ALPHABETS.urlsafe
  uniformPositions(t, 'urlsafe', n, alphabet, 12, () => generateUuids({ format: 'urlsafe', length: 12, quantity: 50 }))

  // Negative control: the classic modulo bias, alphabet[r % 64] for r uniform over 0..249 (a
  // 250-character draw, as a rejection limit off by 6 would give): the first 58 characters come
  // 4/250 of the time, the last 6 only 3/250 (total variation 0.022). Every position must be rejected.
  const residues = String.fromCharCode(...Array.from({ length: 250 }, (_, code) => code))
  const biased = sample(n, () => randomStrings(residues, 12, 50)
    .map((draw) => Array.from(draw, (character) => alphabet[character.charCodeAt(0) % 64]).join('')))
  const uniform = new Array<number>(64).fill(1 / 64)
  const pValues = countByPosition(biased, alphabet, 12).map((row) => goodnessOfFit(row, uniform).pValue)
  t.ok(pValues.every((p) => p <= ALPHA / 12),
    `negative control, modulo bias: every position rejected (largest p = ${Math.max(...pValues).toExponential(3)} <= ${(ALPHA / 12).toExponential(2)})`)
})

t.test('short-id, odd length 9: every position uniform over 0-9a-f (alpha 1e-6)', async (t) => {
  uniformPositions(t, 'short-id', 230_000, HEX, 9, () => generateShortIds({ length: 9, quantity: 50 }))
})

t.test('seq: every position uniform over the encoding\'s symbols (alpha 1e-6 per encoding)', async (t) => {
  t.test('hex, 8 bytes', async (t) => uniformPositions(t, 'seq hex', 240_000, HEX, 16,
    () => generateSequences({ byteLength: 8, encoding: 'hex', quantity: 50 })))
  // 6 bytes are exactly 8 base64url characters, none of them partial or padding
  t.test('base64url, 6 bytes', async (t) => uniformPositions(t, 'seq base64url', 330_000, URL_SAFE_ALPHABET, 8,
    () => generateSequences({ byteLength: 6, encoding: 'base64url', quantity: 50 })))
})

t.test('vpn: every position uniform over its symbols (alpha 1e-6 per protocol)', async (t) => {
  t.test('shadowsocks, length 12', async (t) => uniformPositions(t, 'shadowsocks', 340_000, URL_SAFE_ALPHABET, 12,
    () => generateVpnSecrets({ protocol: 'shadowsocks', length: 12, quantity: 50 })))
  t.test('hex: 64 digits', async (t) => uniformPositions(t, 'vpn hex', 240_000, HEX, 64,
    () => generateVpnSecrets({ protocol: 'hex', length: 32, quantity: 50 })))
  t.test('wireguard: the key\'s 64 hex digits, uniform except where RFC 7748 clamps them', async (t) => {
    const n = 240_000
    assertPower(t, 15, ALPHA / 64, n)
    // The generator's own draw and clamp; its public keys (X25519, ~150 µs each on Node 24, most
    // of this test's time) are not what is measured here, and test/plugins/vpn.test.ts holds them
    // to `wg pubkey`
    const vpn = await t.mockImport<typeof import('../../plugins/vpn.js')>('../../plugins/vpn.js', {
      '../../src/keys/x25519.js': { x25519PublicKey: () => Buffer.alloc(32) }
    })
    const keys = sample(n, () => vpn.generateVpnSecrets({ protocol: 'wireguard', length: 32, quantity: 50 }))
      .map((key) => Buffer.from(key, 'base64').toString('hex'))
    const free = new Array<number>(16).fill(1 / 16)
    // Byte 0 & 248: its low digit is 0 or 8. Byte 31 & 127 | 64: its high digit is 4..7.
    const byte0Low = uniformOver(HEX, (symbol) => symbol === '0' || symbol === '8')
    const byte31High = uniformOver(HEX, (symbol) => '4567'.includes(symbol))
    fitPositions(t, 'wireguard digit', keys, HEX, 64, (position) => (position === 1 ? byte0Low : position === 62 ? byte31High : free))
  })
})
