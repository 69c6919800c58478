// PIN randomness at length 4 with avoidWeak, where the weak PINs are most of all (114 of 10,000).
// One sample of N PINs feeds three checks; their false-alarm rate together is alpha = 1e-6
// (Bonferroni: a quarter each to the first and the last digit against their exact law over the
// 9,886 allowed PINs, half to the whole PIN uniform over those 9,886). Power (assertPower, before
// sampling): each check rejects a 1% bias (total variation 0.01, Cohen's w >= 0.02) with
// probability >= 0.99; the whole-PIN check, with 9,885 degrees of freedom, needs the most.
// Each check also rejects a wrong generator (a negative control), sampled at the same N, and the
// design shows that control is rejected with probability >= 1 - 1e-6, so the control cannot flake:
// digits as a byte modulo 10 (0..5 come 26/256 of the time, 6..9 25/256) for the digit checks, and
// a weak PIN turned into an allowed one by adding 1 (mod 10) to its last digit, instead of redrawn,
// for the whole-PIN check.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { generatePins, isWeakPin } from '../../plugins/pin.js'
import { ALPHA, assertFits, assertPower, type Asserts } from './fit.js'
import { goodnessOfFit } from './chi-square.js'

const N = 3_000_000
const ALPHA_DIGIT = ALPHA / 4
const ALPHA_PIN = ALPHA / 2
const CONTROL_POWER = 1 - 1e-6

// The allowed PINs, by the contract's definition written here (CONTRACT §2), as numbers 0..9999
function weak (digits: number[]): boolean {
  const periodic = [1, 2].some((block) => digits.every((digit, i) => digit === digits[i % block]))
  const up = digits.every((digit, i) => i === 0 || digit === (digits[i - 1] as number) + 1)
  const down = digits.every((digit, i) => i === 0 || digit === (digits[i - 1] as number) - 1)
  return periodic || up || down
}
const digitsOf = (n: number) => [Math.floor(n / 1000), Math.floor(n / 100) % 10, Math.floor(n / 10) % 10, n % 10]
const ALLOWED = Array.from({ length: 10_000 }, (_, n) => n).filter((n) => !weak(digitsOf(n)))
/** Category of each PIN among the allowed ones (-1: weak). */
const CATEGORY = new Int32Array(10_000).fill(-1)
ALLOWED.forEach((n, i) => { CATEGORY[n] = i })

/** The exact law of one digit position over the allowed PINs. */
function digitLaw (position: number): number[] {
  const counts = new Float64Array(10)
  for (const n of ALLOWED) counts[digitsOf(n)[position] as number] = (counts[digitsOf(n)[position] as number] as number) + 1
  return [...counts].map((count) => count / ALLOWED.length)
}
const FIRST_LAW = digitLaw(0)
const LAST_LAW = digitLaw(3)
const PIN_LAW = new Array<number>(ALLOWED.length).fill(1 / ALLOWED.length)

interface Tally { first: Float64Array, last: Float64Array, pins: Float64Array, weak: number }

function tally (pins: Iterable<number>): Tally {
  const result: Tally = { first: new Float64Array(10), last: new Float64Array(10), pins: new Float64Array(ALLOWED.length), weak: 0 }
  for (const n of pins) {
    const category = CATEGORY[n] as number
    if (category < 0) { result.weak++; continue }
    result.first[Math.floor(n / 1000)] = (result.first[Math.floor(n / 1000)] as number) + 1
    result.last[n % 10] = (result.last[n % 10] as number) + 1
    result.pins[category] = (result.pins[category] as number) + 1
  }
  return result
}

/** Cohen's w of the law `actual` against `expected`. */
function effectSize (actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  let sum = 0
  for (let i = 0; i < expected.length; i++) sum += ((actual[i] as number) - (expected[i] as number)) ** 2 / (expected[i] as number)
  return Math.sqrt(sum)
}

function * generated (): Generator<number> {
  for (let i = 0; i < N; i += 50) for (const pin of generatePins({ length: 4, avoidWeak: true, quantity: 50 })) yield Number(pin)
}

// ---- wrong generators, from node:crypto directly

/** Four digits, each a random byte modulo 10, weak PINs redrawn. */
function * moduloDigits (): Generator<number> {
  let made = 0
  while (made < N) {
    const bytes = randomBytes(4 * 65_536)
    for (let i = 0; i + 4 <= bytes.length && made < N; i += 4) {
      const n = ((bytes[i] as number) % 10) * 1000 + ((bytes[i + 1] as number) % 10) * 100 + ((bytes[i + 2] as number) % 10) * 10 + (bytes[i + 3] as number) % 10
      if (CATEGORY[n] as number < 0) continue
      made++
      yield n
    }
  }
}

/** Four uniform digits (16-bit draws below 60,000, modulo 10,000); a weak PIN gets 1 added to its last digit, mod 10. */
function * weakBumped (): Generator<number> {
  let made = 0
  while (made < N) {
    const bytes = randomBytes(2 * 65_536)
    for (let i = 0; i + 2 <= bytes.length && made < N; i += 2) {
      const draw = (bytes[i] as number) << 8 | (bytes[i + 1] as number)
      if (draw >= 60_000) continue
      let n = draw % 10_000
      if (CATEGORY[n] as number < 0) n = n - (n % 10) + ((n % 10) + 1) % 10
      made++
      yield n
    }
  }
}

/** The laws of the wrong generators, exactly, for the designs of the controls. */
function moduloLaw (position: number): number[] {
  const digit = Array.from({ length: 10 }, (_, d) => (d < 6 ? 26 : 25) / 256)
  const counts = new Float64Array(10)
  let total = 0
  for (const n of ALLOWED) {
    const p = digitsOf(n).reduce((product, d) => product * (digit[d] as number), 1)
    counts[digitsOf(n)[position] as number] = (counts[digitsOf(n)[position] as number] as number) + p
    total += p
  }
  return [...counts].map((count) => count / total)
}
function bumpedLaw (): number[] {
  const mass = new Float64Array(ALLOWED.length)
  for (let n = 0; n < 10_000; n++) {
    const target = (CATEGORY[n] as number) < 0 ? n - (n % 10) + ((n % 10) + 1) % 10 : n
    mass[CATEGORY[target] as number] = (mass[CATEGORY[target] as number] as number) + 1 / 10_000
  }
  return [...mass]
}

t.test(`${N} PINs of length 4 with avoidWeak: first and last digit as over the 9,886 allowed PINs, every allowed PIN equally likely`, async (t) => {
  t.equal(ALLOWED.length, 9886)
  t.ok(ALLOWED.every((n) => !isWeakPin(String(n).padStart(4, '0'))) && ALLOWED.length === 10_000 - 114, 'the plugin and the test agree on the weak PINs')
  assertPower(t, 9, ALPHA_DIGIT, N)
  assertPower(t, ALLOWED.length - 1, ALPHA_PIN, N)
  const sample = tally(generated())
  t.equal(sample.weak, 0, 'no weak PIN')
  assertFits(t, sample.first, FIRST_LAW, ALPHA_DIGIT, 'first digit')
  assertFits(t, sample.last, LAST_LAW, ALPHA_DIGIT, 'last digit')
  assertFits(t, sample.pins, PIN_LAW, ALPHA_PIN, '9,886 allowed PINs')
})

t.test('negative controls: each check rejects a wrong generator', async (t) => {
  const rejects = (t: Asserts, name: string, df: number, alpha: number, w: number, observed: ArrayLike<number>, expected: number[]) => {
    assertPower(t, df, alpha, N, w, CONTROL_POWER)
    const { statistic, pValue } = goodnessOfFit(observed, expected)
    t.ok(pValue < alpha, `${name}: rejected, chi-square ${statistic.toFixed(1)}, df ${df}, p = ${pValue.toExponential(3)} < ${alpha.toExponential(2)}`)
  }
  t.test('digits as a byte modulo 10: the first- and last-digit checks reject', async (t) => {
    const sample = tally(moduloDigits())
    rejects(t, 'first digit, byte % 10', 9, ALPHA_DIGIT, effectSize(moduloLaw(0), FIRST_LAW), sample.first, FIRST_LAW)
    rejects(t, 'last digit, byte % 10', 9, ALPHA_DIGIT, effectSize(moduloLaw(3), LAST_LAW), sample.last, LAST_LAW)
  })
  t.test('weak PINs bumped by +1 mod 10 on the last digit: the whole-PIN check rejects', async (t) => {
    const sample = tally(weakBumped())
    t.equal(sample.weak, 0, 'the control makes no weak PIN either')
    rejects(t, 'weak + 1 mod 10', ALLOWED.length - 1, ALPHA_PIN, effectSize(bumpedLaw(), PIN_LAW), sample.pins, PIN_LAW)
  })
})
