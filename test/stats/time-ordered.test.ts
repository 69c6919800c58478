// The random bits of UUIDv7s (74 per value) and ULIDs (80 per value). Each test checks every bit
// position with a chi-square test of one degree of freedom (the two-sided binomial test of
// "1 and 0 equally likely") at alpha = 1e-6 split evenly over the positions (Bonferroni), on
// N = 165,000 values (or pairs): power >= 0.99 against a 1% bias in any one bit (P(1) = 0.51,
// total variation 0.01, Cohen's w = 0.02), checked by assertPower before sampling. Each test also
// runs a generator with a known defect through the same check and requires it to be rejected.
//
// The values of one response are sorted, so the k-th value of a response is not uniform (the first
// of 50 tends to be small): the balance tests pool every value of every response, ignoring rank.
// Sorting also hides the order values were drawn in, so the serial tests (is a value independent of
// the one drawn before it? a counter is not) ask for one value per call.
import t from 'tap'
import { v7 } from 'uuid'
import { encodeTime, monotonicFactory } from 'ulid'
import { generateUuids } from '../../plugins/uuid.js'
import { randomBytes, randomStrings } from '../../src/random/csprng.js'
import { CROCKFORD, ulidParts, v7Parts } from '../identifier-decoders.js'
import { goodnessOfFit } from './chi-square.js'
import { ALPHA, assertPower, type Asserts } from './fit.js'

const N = 165_000
const V7_BITS = 74
const ULID_BITS = 80

/** `n` values from a generator that returns several per call. */
function sample (n: number, generate: () => string[]): string[] {
  const values: string[] = []
  while (values.length < n) values.push(...generate())
  return values.slice(0, n)
}

/** p-value of `ones` out of `n` fair coin flips (chi-square, 1 degree of freedom). */
function fairCoin (ones: number, n: number): number {
  return goodnessOfFit([n - ones, ones], [0.5, 0.5]).pValue
}

/** Per bit position of `bitStrings` (strings of '0' and '1'): the p-value of a balanced bit. */
function balance (bitStrings: string[], width: number): number[] {
  const ones = new Array<number>(width).fill(0)
  for (const bits of bitStrings) {
    for (let i = 0; i < width; i++) if (bits[i] === '1') ones[i] = (ones[i] as number) + 1
  }
  return ones.map((count) => fairCoin(count, bitStrings.length))
}

/**
 * Per bit position, over the disjoint pairs (0, 1), (2, 3), ... of `bitStrings` in the order they
 * were drawn: the p-value of "the two values of a pair differ there" being a fair coin. For
 * independent uniform values it is; a counter flips its low bit at every step, so that bit
 * always differs (and a stuck bit never does).
 */
function serial (bitStrings: string[], width: number): number[] {
  const differ = new Array<number>(width).fill(0)
  const pairs = Math.floor(bitStrings.length / 2)
  for (let k = 0; k < pairs; k++) {
    const first = bitStrings[2 * k] as string
    const second = bitStrings[2 * k + 1] as string
    for (let i = 0; i < width; i++) if (first[i] !== second[i]) differ[i] = (differ[i] as number) + 1
  }
  return differ.map((count) => fairCoin(count, pairs))
}

function smallest (pValues: number[]): { position: number, pValue: number } {
  let position = 0
  pValues.forEach((p, i) => { if (p < (pValues[position] as number)) position = i })
  return { position, pValue: pValues[position] as number }
}

function assertAllFit (t: Asserts, label: string, pValues: number[]): void {
  const alpha = ALPHA / pValues.length
  pValues.forEach((p, i) => t.ok(p > alpha, `${label}, bit ${i}: p = ${p.toExponential(3)} > ${alpha.toExponential(2)}`))
}

/** The defective generator's p-values: the positions in `defective` must be rejected. */
function assertRejected (t: Asserts, label: string, pValues: number[], defective: number[]): void {
  const alpha = ALPHA / pValues.length
  const rejected = pValues.flatMap((p, i) => (p <= alpha ? [i] : []))
  const { position, pValue } = smallest(pValues)
  t.ok(defective.every((i) => rejected.includes(i)),
    `negative control, ${label}: rejected at ${defective.length === pValues.length ? 'every bit' : `bits ${defective.join(', ')}`} ` +
    `(${rejected.length} of ${pValues.length} positions rejected; smallest p = ${pValue.toExponential(3)} at bit ${position})`)
}

/** A defect that touches every bit must be caught at every one of them. */
const allPositions = (width: number) => [...Array(width).keys()]

/** `bits` with position `i` set in every `every`-th string: P(1) there = 1/2 + 1/(2·every). */
function forceBit (bitStrings: string[], i: number, every: number): string[] {
  return bitStrings.map((bits, k) => (k % every === 0 ? bits.slice(0, i) + '1' + bits.slice(i + 1) : bits))
}

t.test(`v7: each of the 74 random bits balanced, ${N} values pooled from responses of 50 (alpha 1e-6 over 74 bits)`, async (t) => {
  assertPower(t, 1, ALPHA / V7_BITS, N)
  const bits = sample(N, () => generateUuids({ format: 'v7', length: 32, quantity: 50 })).map((uuid) => v7Parts(uuid).random)
  assertAllFit(t, 'v7', balance(bits, V7_BITS))

  // The uuid package's own v7 given random bytes but no `seq` fills rand_a's first bit from a
  // 31-bit sequence: it is always 0 (73 random bits)
  const now = Date.now()
  const packageDefault = sample(N, () => [v7({ msecs: now, random: randomBytes(16) })]).map((uuid) => v7Parts(uuid).random)
  assertRejected(t, 'uuid\'s v7 without seq (first bit of rand_a always 0)', balance(packageDefault, V7_BITS), [0])

  // A bias of 2% in one bit (P(1) = 0.52, twice the design's 1%): every 25th value has bit 40 set
  assertRejected(t, 'bit 40 set in every 25th value (P(1) = 0.52)', balance(forceBit(bits, 40, 25), V7_BITS), [40])
})

t.test(`v7: successive values independent at each of the 74 bits, ${N} pairs of single-value calls (alpha 1e-6 over 74 bits)`, async (t) => {
  assertPower(t, 1, ALPHA / V7_BITS, N)
  const bits = sample(2 * N, () => generateUuids({ format: 'v7', length: 32, quantity: 1 })).map((uuid) => v7Parts(uuid).random)
  assertAllFit(t, 'v7 pairs', serial(bits, V7_BITS))

  // The uuid package's v7() with no options keeps a clock state: within a millisecond its 32 bits
  // after the version are a counter, +1 per value. Its lowest bit, our bit 31, flips every time:
  // a tenth of the sample is plenty (the full one only rejects harder), and the package is slow
  const counter = sample(2 * N / 10, () => [v7()]).map((uuid) => v7Parts(uuid).random)
  assertRejected(t, 'uuid\'s stateful v7() (a counter in rand_a and rand_b)', serial(counter, V7_BITS), [31])
})

t.test(`ulid: each of the 80 random bits balanced, ${N} values pooled from responses of 50 (alpha 1e-6 over 80 bits)`, async (t) => {
  assertPower(t, 1, ALPHA / ULID_BITS, N)
  const bits = sample(N, () => generateUuids({ format: 'ulid', length: 32, quantity: 50 })).map((ulid) => ulidParts(ulid).random)
  assertAllFit(t, 'ulid', balance(bits, ULID_BITS))

  // An off-by-one character draw (uniform over the first 31 characters, never 'Z'): each bit is 1
  // with probability 15/31 = 0.484 instead of 0.5
  const time = encodeTime(Date.now(), 10)
  const offByOne = sample(N, () => randomStrings(CROCKFORD.slice(0, 31), 16, 50).map((random) => time + random))
    .map((ulid) => ulidParts(ulid).random)
  assertRejected(t, 'random characters that are never Z', balance(offByOne, ULID_BITS), allPositions(ULID_BITS))
})

t.test(`ulid: successive values independent at each of the 80 random bits, ${N} pairs of single-value calls (alpha 1e-6 over 80 bits)`, async (t) => {
  assertPower(t, 1, ALPHA / ULID_BITS, N)
  const bits = sample(2 * N, () => generateUuids({ format: 'ulid', length: 32, quantity: 1 })).map((ulid) => ulidParts(ulid).random)
  assertAllFit(t, 'ulid pairs', serial(bits, ULID_BITS))

  // The ulid package's monotonic factory: within a millisecond it adds 1 to the previous random
  // part, so its last bit flips every time (a tenth of the sample, as for v7)
  const monotonic = monotonicFactory()
  const counter = sample(2 * N / 10, () => [monotonic()]).map((ulid) => ulidParts(ulid).random)
  assertRejected(t, 'ulid\'s monotonicFactory (the random part counts up)', serial(counter, ULID_BITS), [ULID_BITS - 1])
})
