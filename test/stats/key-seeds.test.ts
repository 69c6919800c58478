// The secrets of the key pairs are uniform bits: ML-KEM-768 and ML-DSA-65 seeds (vpn mlkem768,
// mldsa65), Ed25519 seeds inside ssh-key files, age identities (stored as drawn, not clamped).
// Each test draws N = 2,000 keys through the generator itself and checks every bit position for
// balance, and all bits together (chi-square, df 1), at a false-alarm rate of alpha = 1e-6 split
// evenly over its checks (Bonferroni). Power, checked before sampling: >= 0.99 against any one bit
// that is 1 with probability 0.4 or 0.6 (w = 0.2; a fixed or clamped bit is w = 1), and against a
// bias of all bits together of 1% (w = 0.02).
import t from 'tap'
import { bech32 } from '@scure/base'
import { generateAgeKeys } from '../../plugins/age-key.js'
import { generateSshKeys } from '../../plugins/ssh-key.js'
import { generateVpn } from '../../plugins/vpn.js'
import { goodnessOfFit } from './chi-square.js'
import { ALPHA, assertFits, assertPower, type Asserts } from './fit.js'

const N = 2000
/** A bit that is 1 with probability 0.6: Cohen's w = 2 × 0.1. */
const BIT_EFFECT_W = 0.2
const HALF = [0.5, 0.5]

/** `n` secrets from a generator that makes `quantity` per call. */
function sample (n: number, draw: () => Buffer[]): Buffer[] {
  const secrets: Buffer[] = []
  while (secrets.length < n) secrets.push(...draw())
  return secrets.slice(0, n)
}

/** [zeros, ones] at each bit position of `secrets` (most significant bit of byte 0 first). */
function bitCounts (secrets: Buffer[]): Array<[number, number]> {
  const bits = (secrets[0] as Buffer).length * 8
  const ones = new Array<number>(bits).fill(0)
  for (const secret of secrets) {
    for (let bit = 0; bit < bits; bit++) ones[bit] = (ones[bit] as number) + (((secret[bit >> 3] as number) >> (7 - (bit & 7))) & 1)
  }
  return ones.map((count) => [secrets.length - count, count])
}

/** Every bit position balanced, and all of them together, at alpha split over bits + 1 checks. */
function balanced (t: Asserts, label: string, secrets: Buffer[]): void {
  const counts = bitCounts(secrets)
  const alpha = ALPHA / (counts.length + 1)
  counts.forEach((row, bit) => assertFits(t, row, HALF, alpha, `${label}, bit ${bit}`))
  const total = counts.reduce(([zeros, ones], [z, o]) => [zeros + z, ones + o], [0, 0])
  assertFits(t, total, HALF, alpha, `${label}, all ${counts.length} bits together`)
}

/** The design's power, asserted before sampling. */
function design (t: Asserts, bits: number): void {
  assertPower(t, 1, ALPHA / (bits + 1), N, BIT_EFFECT_W)
  assertPower(t, 1, ALPHA / (bits + 1), N * bits)
}

const seedsOf = (protocol: 'mlkem768' | 'mldsa65') => () =>
  generateVpn({ protocol, length: 32, quantity: 50 }).values.map((value) => Buffer.from(value, 'base64url'))

t.test('vpn mlkem768: the 512 bits of the 64-byte seeds are balanced (alpha 1e-6)', async (t) => {
  design(t, 512)
  const seeds = sample(N, seedsOf('mlkem768'))
  t.ok(seeds.every((seed) => seed.length === 64))
  balanced(t, 'mlkem768 seed', seeds)
})

t.test('vpn mldsa65: the 256 bits of the 32-byte seeds are balanced (alpha 1e-6)', async (t) => {
  design(t, 256)
  const seeds = sample(N, seedsOf('mldsa65'))
  t.ok(seeds.every((seed) => seed.length === 32))
  balanced(t, 'mldsa65 seed', seeds)
})

/** The Ed25519 seed in an ssh-key file without comment: the private key string sits at a fixed offset. */
function sshSeed (file: string): Buffer {
  const blob = Buffer.from(file.split('\n').slice(1, -2).join(''), 'base64')
  // magic 15, "none" 8, "none" 8, "" 4, key count 4, public blob 4 + 51, section length 4,
  // check integers 8, "ssh-ed25519" 15, public key 4 + 32: then string(seed ‖ public key)
  if (blob.readUInt32BE(157) !== 64) throw new Error('not an Ed25519 private key at the expected offset')
  return blob.subarray(161, 193)
}

t.test('ssh-key: the 256 bits of the Ed25519 seeds are balanced (alpha 1e-6)', async (t) => {
  design(t, 256)
  balanced(t, 'ssh-key seed', sample(N, () => generateSshKeys({ comment: '', quantity: 50 }).values.map(sshSeed)))
})

const ageKeyOf = (identity: string) => Buffer.from(bech32.fromWords(bech32.decode(identity.toLowerCase() as `${string}1${string}`).words))

t.test('age-key: the 256 bits of the identities are balanced, the 5 X25519 clamps included (alpha 1e-6)', async (t) => {
  design(t, 256)
  const keys = sample(N, () => generateAgeKeys({ quantity: 50 }).values.map(ageKeyOf))
  balanced(t, 'age key', keys)

  // Negative control: the same keys clamped as X25519 uses them (what age must not store) are
  // rejected at the clamped positions: bits 5-7 of byte 0, bits 0-1 of byte 31 (MSB first)
  const clamped = keys.map((key) => {
    const copy = Buffer.from(key)
    copy[0] = (copy[0] as number) & 248
    copy[31] = ((copy[31] as number) & 127) | 64
    return copy
  })
  const alpha = ALPHA / 257
  const rejected = bitCounts(clamped).flatMap((row, bit) => goodnessOfFit(row, HALF).pValue <= alpha ? [bit] : [])
  t.same(rejected, [5, 6, 7, 248, 249], 'negative control: clamped keys are rejected at exactly the 5 clamped bits')
})
