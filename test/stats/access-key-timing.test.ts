// CONTRACT §9: the check of a presented key takes as long whether or not its digest shares a
// prefix with a configured one. Measured on the check as the hook runs it (hash once, compare
// with every digest), where no network noise hides a difference.
//
// Design: 16 configured digests each share their first 31 bytes with the digest of the probe
// key (only the last byte differs); a second key's digest shares nothing with them. Batches of
// checks of the two keys are timed in pairs, the order within each pair chosen at random, and
// the sign test counts the pairs in which the probe's batch was slower. With the order random,
// under "no difference" that count is Binomial(n, 1/2) exactly, whatever the machine's load does
// over time (drift, other processes), so the false-alarm rate is the stated ALPHA, 1e-6 (two-sided).
// The same test is run against an early-exit comparison (the bug it guards against) and must
// reject it: that shows it has the power to see a leak of this size.
import t from 'tap'
import { createHash } from 'node:crypto'
import { matchDigest, sha256 } from '../../src/ops/access-keys.js'
import { logGamma } from './chi-square.js'

const ALPHA = 1e-6
const PAIRS = 400
const BATCH = 200
const DIGESTS = 16

type Compare = (digests: readonly Buffer[], presented: Buffer) => number

/** A byte-by-byte comparison that stops at the first difference: what the service must not do. */
function earlyExitMatch (digests: readonly Buffer[], presented: Buffer): number {
  for (let i = 0; i < digests.length; i++) {
    const digest = digests[i] as Buffer
    let equal = true
    for (let j = 0; j < digest.length; j++) {
      if (digest[j] !== presented[j]) { equal = false; break }
    }
    if (equal) return i
  }
  return -1
}

/** P(X >= k) for X ~ Binomial(n, 1/2). */
function binomialUpperTail (n: number, k: number): number {
  let sum = 0
  for (let i = k; i <= n; i++) sum += Math.exp(logGamma(n + 1) - logGamma(i + 1) - logGamma(n - i + 1) - n * Math.LN2)
  return sum
}

/** The smallest k with P(X >= k) <= alpha / 2: the sign test rejects at k or more, or n - k or fewer. */
function criticalCount (n: number, alpha: number): number {
  let k = Math.ceil(n / 2)
  while (binomialUpperTail(n, k) > alpha / 2) k++
  return k
}

const probe = 'rg_TimingProbeKey4c1d8e2f7a9b'
const other = 'rg_TimingOtherKey0f5a3c7e1d6b'
const probeDigest = sha256(probe)
// Each shares 31 bytes with the probe's digest
const configured = Array.from({ length: DIGESTS }, (_, i) => {
  const digest = Buffer.from(probeDigest)
  digest[31] = (digest[31] as number) ^ (i + 1)
  return digest
})

function timeBatch (compare: Compare, key: string): bigint {
  let sink = 0
  const start = process.hrtime.bigint()
  for (let i = 0; i < BATCH; i++) sink += compare(configured, sha256(key))
  const elapsed = process.hrtime.bigint() - start
  if (sink !== -BATCH) throw new Error('a key matched: the set-up is wrong')
  return elapsed
}

/** How many of PAIRS pairs had the probe's batch slower (ties are dropped, and counted). */
function slowerProbeCount (compare: Compare): { slower: number, n: number, probeNs: number, otherNs: number } {
  for (let i = 0; i < 20; i++) { timeBatch(compare, probe); timeBatch(compare, other) }
  let slower = 0
  let n = 0
  const probeTimes: number[] = []
  const otherTimes: number[] = []
  for (let pair = 0; pair < PAIRS; pair++) {
    let probeTime: bigint
    let otherTime: bigint
    // The order within the pair at random (Math.random is fine here: it only shuffles a measurement)
    if (Math.random() < 0.5) {
      probeTime = timeBatch(compare, probe)
      otherTime = timeBatch(compare, other)
    } else {
      otherTime = timeBatch(compare, other)
      probeTime = timeBatch(compare, probe)
    }
    probeTimes.push(Number(probeTime))
    otherTimes.push(Number(otherTime))
    if (probeTime === otherTime) continue
    n++
    if (probeTime > otherTime) slower++
  }
  // Medians: a preempted batch says nothing about the comparison
  const perCheck = (times: number[]) => (times.sort((a, b) => a - b)[times.length >> 1] as number) / BATCH
  return { slower, n, probeNs: perCheck(probeTimes), otherNs: perCheck(otherTimes) }
}

t.test('set-up: the digests share a 31-byte prefix with the probe\'s, none with the other key\'s', async (t) => {
  for (const digest of configured) t.equal(digest.subarray(0, 31).compare(probeDigest.subarray(0, 31)), 0)
  t.not(sha256(other)[0], probeDigest[0])
  t.equal(sha256(probe).toString('hex'), createHash('sha256').update(probe).digest('hex'))
  t.equal(criticalCount(400, 1e-6), 250, 'sign test bound for 400 pairs: 250 or more (150 or fewer) rejects')
})

t.test(`the service's comparison: a shared prefix is not told apart (sign test, ${PAIRS} pairs, alpha ${ALPHA})`, async (t) => {
  const { slower, n, probeNs, otherNs } = slowerProbeCount(matchDigest)
  const k = criticalCount(n, ALPHA)
  t.comment(`probe slower in ${slower} of ${n} pairs; median per check ${probeNs.toFixed(0)} ns (shared prefix) vs ${otherNs.toFixed(0)} ns`)
  t.ok(slower < k && slower > n - k, `${slower} of ${n} within (${n - k}, ${k})`)
})

t.test('an early-exit comparison is told apart by the same test (its power)', async (t) => {
  const { slower, n, probeNs, otherNs } = slowerProbeCount(earlyExitMatch)
  const k = criticalCount(n, ALPHA)
  t.comment(`early exit: probe slower in ${slower} of ${n} pairs; median per check ${probeNs.toFixed(0)} ns vs ${otherNs.toFixed(0)} ns`)
  t.ok(slower >= k, `${slower} of ${n} >= ${k}: the leak is detected`)
})
