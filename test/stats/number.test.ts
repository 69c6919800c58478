// Integer randomness. Every check: false-alarm rate alpha <= 1e-6 (split across a test's checks,
// Bonferroni), and a sample size that catches a 1% bias (total variation 0.01, Cohen's w >= 0.02)
// with probability >= 0.99, checked by assertPower before sampling.
import t from 'tap'
import { generateNumbers } from '../../plugins/number.js'
import { ALPHA, assertFits, assertPower, type Asserts } from './fit.js'
import { uniform } from './chi-square.js'

const BUCKETS = 64

interface Draw { min: number, max: number, exclusions?: Array<string | number>, unique?: boolean, quantity?: number }

function draw ({ min, max, exclusions = [], unique = false, quantity = 50 }: Draw): string[] {
  return generateNumbers({ min, max, exclusions, unique, quantity })
}

/**
 * Bucket b holds the integers v of [min, max] with floor((v - min) * 64 / span) = b. Its exact
 * probability is its count of allowed values over all allowed values (BigInt: spans reach 2^54).
 */
function bucketLaw (min: bigint, max: bigint, excluded: readonly bigint[]): number[] {
  const span = max - min + 1n
  const sizes: bigint[] = []
  for (let b = 0n; b < BigInt(BUCKETS); b++) {
    // first value of bucket b: smallest offset o with o * 64 >= b * span
    const first = (b * span + BigInt(BUCKETS) - 1n) / BigInt(BUCKETS)
    const next = ((b + 1n) * span + BigInt(BUCKETS) - 1n) / BigInt(BUCKETS)
    sizes.push(next - first)
  }
  for (const value of new Set(excluded)) {
    if (value < min || value > max) continue
    const b = Number((value - min) * BigInt(BUCKETS) / span)
    sizes[b] = (sizes[b] as bigint) - 1n
  }
  const allowed = sizes.reduce((a, b) => a + b, 0n)
  // Ratios of integers up to 2^54: scale down in BigInt first so Number keeps full precision
  return sizes.map((size) => Number((size * 10n ** 15n) / allowed) / 1e15)
}

function bucketCounts (values: Iterable<string>, min: bigint, max: bigint, excluded: ReadonlySet<bigint>): number[] {
  const span = max - min + 1n
  const counts = new Array<number>(BUCKETS).fill(0)
  for (const text of values) {
    const value = BigInt(text)
    if (value < min || value > max || excluded.has(value)) throw new RangeError(`value ${text} outside the allowed set`)
    const b = Number((value - min) * BigInt(BUCKETS) / span)
    counts[b] = (counts[b] as number) + 1
  }
  return counts
}

const N_WIDE = 320_000

function wideSpan (t: Asserts, label: string, min: number, max: number, exclusions: Array<string | number>): void {
  assertPower(t, BUCKETS - 1, ALPHA, N_WIDE)
  const excluded = exclusions.map((value) => BigInt(value))
  const values: string[] = []
  while (values.length < N_WIDE) values.push(...draw({ min, max, exclusions }))
  const law = bucketLaw(BigInt(min), BigInt(max), excluded)
  assertFits(t, bucketCounts(values, BigInt(min), BigInt(max), new Set(excluded)), law, ALPHA, `${label}: ${N_WIDE} values in 64 buckets`)
}

t.test('span > 2^48: uniform over 64 equal buckets (alpha 1e-6, power 0.99 vs 1% bias)', async (t) => {
  t.test('[-2^52, 2^52], span 2^53 + 1', async (t) => wideSpan(t, 'no exclusions', -(2 ** 52), 2 ** 52, []))
  t.test('the whole safe range, with exclusions', async (t) => {
    // Exclusions crowded into the lowest bucket's first values plus out-of-range and duplicate ones:
    // none of them may come out, and the rest stays uniform
    const exclusions: Array<string | number> = []
    for (let i = 0; i < 90; i++) exclusions.push(String(Number.MIN_SAFE_INTEGER + i * 3))
    exclusions.push('7', 7, '-12', '99999999999999999999', Number.MAX_SAFE_INTEGER, '0', -1, '42', '43', '42')
    wideSpan(t, 'safe range minus exclusions', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, exclusions)
  })
})

t.test('small range with exclusions: uniform over the 70 allowed values, excluded never drawn (alpha 1e-6)', async (t) => {
  // [0, 99] minus 30 values (plus out-of-range and duplicate exclusions, which change nothing)
  const excluded = new Set<number>()
  for (let v = 0; v < 100; v += 10) { excluded.add(v); excluded.add(v + 3); excluded.add(v + 7) }
  const exclusions: Array<string | number> = [...excluded].map((v, i) => (i % 2 === 0 ? String(v) : v))
  exclusions.push(-5, '100', '3', 13)
  const allowed = Array.from({ length: 100 }, (_, v) => v).filter((v) => !excluded.has(v))
  const n = 320_000
  assertPower(t, allowed.length - 1, ALPHA, n)
  const counts = new Array<number>(100).fill(0)
  for (let drawn = 0; drawn < n; drawn += 50) {
    for (const value of draw({ min: 0, max: 99, exclusions })) counts[Number(value)] = (counts[Number(value)] as number) + 1
  }
  t.equal([...excluded].reduce((sum, v) => sum + (counts[v] as number), 0), 0, 'no excluded value drawn')
  assertFits(t, allowed.map((v) => counts[v] as number), uniform(allowed.length), ALPHA, `${n} values over 70 allowed`)
})

t.test('unique: ordered triples from [1, 6] uniform over all 120 (alpha 1e-6, power 0.99 vs 1% bias)', async (t) => {
  // Uniform over ordered triples of distinct values is uniform over subsets, in uniform order
  const n = 400_000
  assertPower(t, 119, ALPHA, n)
  const counts = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    const key = draw({ min: 1, max: 6, unique: true, quantity: 3 }).join(',')
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const triples: string[] = []
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) if (a !== b && b !== c && a !== c) triples.push(`${a},${b},${c}`)
  t.equal(counts.size, 120, 'only ordered triples of distinct values occur')
  t.ok([...counts.keys()].every((key) => triples.includes(key)), 'every draw is a triple of distinct values in [1, 6]')
  assertFits(t, triples.map((key) => counts.get(key) ?? 0), uniform(120), ALPHA, `${n} unique triples`)
})

t.test('unique with exclusions, drawing all but one allowed value: subsets uniform (alpha 1e-6)', async (t) => {
  // [1, 8] minus {2, 5}: 6 allowed, draw 5 → which value is left out is uniform over the 6
  const n = 200_000
  assertPower(t, 5, ALPHA, n)
  const left = new Map<number, number>()
  let malformed = 0
  for (let i = 0; i < n; i++) {
    const values = new Set(draw({ min: 1, max: 8, exclusions: ['2', 5], unique: true, quantity: 5 }).map(Number))
    const missing = [1, 3, 4, 6, 7, 8].filter((v) => !values.has(v))
    if (missing.length !== 1 || values.size !== 5) malformed++
    left.set(missing[0] as number, (left.get(missing[0] as number) ?? 0) + 1)
  }
  t.equal(malformed, 0, 'every draw is 5 distinct allowed values')
  assertFits(t, [1, 3, 4, 6, 7, 8].map((v) => left.get(v) ?? 0), uniform(6), ALPHA, `${n} subsets of 5 from 6`)
})
