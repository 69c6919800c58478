// The statistics the randomness tests rely on, checked against published values.
import t from 'tap'
import {
  chiSquareCritical, chiSquareSurvival, goodnessOfFit, logGamma, noncentralChiSquareSurvival,
  power, regularizedGammaQ, samplesFor, uniform
} from './chi-square.js'
import { assertFits, assertPower, countByPosition } from './fit.js'

const close = (actual: number, expected: number, relative = 1e-9) =>
  Math.abs(actual - expected) <= relative * Math.abs(expected)

t.test('logGamma matches factorials and Γ(1/2) = √π', async (t) => {
  t.ok(Math.abs(logGamma(1)) < 1e-13, 'Γ(1) = 1')
  t.ok(close(logGamma(11), Math.log(3628800)))
  t.ok(close(logGamma(0.5), Math.log(Math.sqrt(Math.PI))))
  t.ok(close(logGamma(0.25), Math.log(3.625609908221908)))
})

t.test('chi-square survival matches tables (both branches of Q)', async (t) => {
  // df = 2: Q(1, x/2) = exp(-x/2) exactly
  for (const x of [0.1, 1, 2.5, 10, 100]) t.ok(close(chiSquareSurvival(x, 2), Math.exp(-x / 2)), `df 2, x ${x}`)
  t.ok(close(chiSquareSurvival(3.841458820694124, 1), 0.05))
  t.ok(close(chiSquareSurvival(18.307038053275146, 10), 0.05))
  t.ok(close(chiSquareSurvival(124.34211340400407, 100), 0.05, 1e-8))
  t.equal(chiSquareSurvival(0, 5), 1)
  t.equal(regularizedGammaQ(3, -1), 1)
})

t.test('critical values at alpha = 1e-6 match tables', async (t) => {
  t.ok(close(chiSquareCritical(1e-6, 1), 23.928127, 1e-6))
  // Reference values here and below: scipy.stats (chi2.isf, chi2.sf, ncx2.sf)
  t.ok(close(chiSquareCritical(1e-6, 10), 46.863046846784385, 1e-8))
  t.ok(close(chiSquareSurvival(chiSquareCritical(1e-9, 2047), 2047), 1e-9, 1e-6))
})

t.test('noncentral survival: lambda 0 is the central case, and it grows with lambda', async (t) => {
  t.ok(close(noncentralChiSquareSurvival(10, 4, 0), chiSquareSurvival(10, 4)))
  t.ok(close(noncentralChiSquareSurvival(10, 4, 5), 0.36177114041768893, 1e-8))
  t.ok(close(noncentralChiSquareSurvival(200, 63, 150), 0.675586221174087, 1e-8))
  t.ok(power(10, 1e-6, 1e6, 0.02) > power(10, 1e-6, 1e5, 0.02))
  const n = samplesFor(63, 1e-6, 0.02, 0.99)
  t.ok(power(63, 1e-6, n, 0.02) >= 0.99 && power(63, 1e-6, n - 1000, 0.02) < 0.99)
})

t.test('goodnessOfFit accepts a fair sample and rejects a biased one', async (t) => {
  t.ok(goodnessOfFit([250, 250, 250, 250], uniform(4)).pValue > 0.99)
  const biased = goodnessOfFit([2600, 2400, 2500, 2500], uniform(4))
  t.equal(biased.df, 3)
  t.equal(biased.statistic, 8)
  t.ok(close(biased.pValue, 0.04601170568923136, 1e-9))
  t.equal(goodnessOfFit([1, 5, 5], [0, 0.5, 0.5]).pValue, 0, 'a category of probability 0 observed')
  t.equal(goodnessOfFit([0, 5, 5], [0, 0.5, 0.5]).df, 1)
  t.throws(() => goodnessOfFit([1], [0.5, 0.5]), RangeError)
})

t.test('fit helpers report failures', async (t) => {
  const messages: Array<[unknown, string]> = []
  const recorder = { ok: (value: unknown, message: string) => { messages.push([value, message]) } }
  assertPower(recorder, 10, 1e-6, 100)
  assertFits(recorder, [900, 100], uniform(2), 1e-6, 'biased coin')
  t.equal(messages.length, 2)
  t.notOk(messages[0]?.[0], 'too few samples is reported')
  t.notOk(messages[1]?.[0], 'a biased sample is reported')
  t.same(countByPosition(['ab', 'ba', 'aa'], 'ab', 2), [[2, 1], [2, 1]])
  t.throws(() => countByPosition(['abc'], 'ab', 2), RangeError)
  t.throws(() => countByPosition(['ac'], 'ab', 2), RangeError)
  t.throws(() => countByPosition(['a\u00e9'], 'ab', 2), RangeError, 'non-ASCII')
})
