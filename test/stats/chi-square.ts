// Pearson's chi-square goodness-of-fit test, its p-value and its power, for the statistical
// tests of the generators. Written here (no statistics package) so the whole computation is
// reviewable: regularized incomplete gamma by series / continued fraction (Numerical Recipes
// §6.2 method, relative accuracy ~1e-13), the noncentral distribution as a Poisson mixture.

// Lanczos approximation (g = 7, 9 coefficients): |error| < 1e-13 for x > 0
const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7
]

export function logGamma (x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  const z = x - 1
  let sum = LANCZOS[0] as number
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] as number) / (z + i)
  const t = z + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum)
}

const EPSILON = 1e-15
const MAX_ITERATIONS = 100_000

/** Q(a, x) = Γ(a, x) / Γ(a), the upper regularized incomplete gamma function (a > 0, x >= 0). */
export function regularizedGammaQ (a: number, x: number): number {
  if (x <= 0) return 1
  const logPrefix = a * Math.log(x) - x - logGamma(a)
  if (x < a + 1) {
    // Series for P(a, x); Q = 1 - P loses nothing here because P is not close to 1
    let term = 1 / a
    let sum = term
    for (let n = 1; n < MAX_ITERATIONS && Math.abs(term) > Math.abs(sum) * EPSILON; n++) {
      term *= x / (a + n)
      sum += term
    }
    return 1 - sum * Math.exp(logPrefix)
  }
  // Continued fraction for Q (modified Lentz), accurate in the far tail where p-values live
  const tiny = 1e-300
  let b = x + 1 - a
  let c = 1 / tiny
  let d = 1 / b
  let h = d
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < tiny) d = tiny
    c = b + an / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPSILON) break
  }
  return Math.exp(logPrefix) * h
}

/** P(X >= statistic) for X ~ chi-square with `df` degrees of freedom: the test's p-value. */
export function chiSquareSurvival (statistic: number, df: number): number {
  return regularizedGammaQ(df / 2, statistic / 2)
}

/** The statistic above which the test rejects at false-alarm rate `alpha`. */
export function chiSquareCritical (alpha: number, df: number): number {
  let low = 0
  let high = df + 10 * Math.sqrt(2 * df) + 100
  while (chiSquareSurvival(high, df) > alpha) high *= 2
  for (let i = 0; i < 200 && high - low > 1e-9 * high; i++) {
    const middle = (low + high) / 2
    if (chiSquareSurvival(middle, df) > alpha) low = middle
    else high = middle
  }
  return high
}

/**
 * P(X > x) for X ~ noncentral chi-square (df, noncentrality lambda): a Poisson(lambda / 2)
 * mixture of central chi-squares with df + 2j degrees of freedom, summed over ±40 standard
 * deviations of the Poisson weight (the rest is below 1e-300).
 */
export function noncentralChiSquareSurvival (x: number, df: number, lambda: number): number {
  const mean = lambda / 2
  const spread = 40 * Math.sqrt(mean) + 40
  let total = 0
  for (let j = Math.max(0, Math.floor(mean - spread)); j <= mean + spread; j++) {
    const logWeight = -mean + (j === 0 ? 0 : j * Math.log(mean)) - logGamma(j + 1)
    total += Math.exp(logWeight) * chiSquareSurvival(x, df + 2 * j)
  }
  return Math.min(1, total)
}

/**
 * The chance that the test (df, alpha) rejects when `n` samples come from a distribution at
 * Cohen's effect size `w` from the expected one (noncentrality n·w²).
 * A distribution at total variation distance d from the expected one has w >= 2d (Cauchy–Schwarz:
 * (Σ|Δi|)² <= Σ Δi²/pi · Σ pi), so a "1% bias" (1% of the probability mass misplaced) means w >= 0.02.
 */
export function power (df: number, alpha: number, n: number, w: number): number {
  return noncentralChiSquareSurvival(chiSquareCritical(alpha, df), df, n * w * w)
}

export interface FitResult {
  statistic: number
  df: number
  pValue: number
}

/**
 * Pearson's statistic of `observed` counts against `probabilities` (summing to 1), df = categories - 1.
 * Categories with probability 0 must have no observation: such a count makes the p-value 0.
 */
export function goodnessOfFit (observed: ArrayLike<number>, probabilities: ArrayLike<number>): FitResult {
  if (observed.length !== probabilities.length) throw new RangeError('goodnessOfFit: lengths differ')
  let n = 0
  for (let i = 0; i < observed.length; i++) n += observed[i] as number
  let statistic = 0
  let categories = 0
  for (let i = 0; i < observed.length; i++) {
    const p = probabilities[i] as number
    const count = observed[i] as number
    if (p === 0) {
      if (count > 0) return { statistic: Infinity, df: 0, pValue: 0 }
      continue
    }
    categories++
    const expected = n * p
    statistic += (count - expected) ** 2 / expected
  }
  const df = categories - 1
  return { statistic, df, pValue: chiSquareSurvival(statistic, df) }
}

/** Uniform probabilities over `k` categories. */
export function uniform (k: number): number[] {
  return new Array<number>(k).fill(1 / k)
}

/**
 * The smallest sample size (rounded up to a multiple of `step`) at which the test (df, alpha)
 * has at least `targetPower` against effect size w. Tests use it to state (and check) their power.
 */
export function samplesFor (df: number, alpha: number, w: number, targetPower: number, step = 1000): number {
  const critical = chiSquareCritical(alpha, df)
  let low = 0
  let high = step
  while (noncentralChiSquareSurvival(critical, df, high * w * w) < targetPower) high *= 2
  while (high - low > step) {
    const middle = Math.floor((low + high) / 2)
    if (noncentralChiSquareSurvival(critical, df, middle * w * w) < targetPower) low = middle
    else high = middle
  }
  return Math.ceil(high / step) * step
}
