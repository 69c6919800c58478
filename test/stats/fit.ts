// Shared assertions of the statistical tests: every test rejects at a stated false-alarm rate
// and checks, before sampling, that its sample size gives it the power it claims.
import { goodnessOfFit, power } from './chi-square.js'

export interface Asserts {
  ok: (value: unknown, message: string) => unknown
}

/** The project's bound on a statistical test's false-alarm rate (per test, split across its checks). */
export const ALPHA = 1e-6
/** "A 1% bias": 1% of the probability mass misplaced (total variation 0.01), hence Cohen's w >= 0.02. */
export const EFFECT_W = 0.02
/** Each test samples enough to catch such a bias at least this often. */
export const TARGET_POWER = 0.99

/** Asserts that `n` samples give the test (df, alpha) the target power against a 1% bias. */
export function assertPower (t: Asserts, df: number, alpha: number, n: number, w = EFFECT_W, target = TARGET_POWER): void {
  const achieved = power(df, alpha, n, w)
  t.ok(achieved >= target, `design: n=${n}, df=${df}, alpha=${alpha.toExponential(2)} detects w=${w} with power ${achieved.toFixed(4)} (>= ${target})`)
}

/** Asserts that `observed` fits `probabilities` at false-alarm rate `alpha`; returns the p-value. */
export function assertFits (t: Asserts, observed: ArrayLike<number>, probabilities: ArrayLike<number>, alpha: number, label: string): number {
  const { statistic, df, pValue } = goodnessOfFit(observed, probabilities)
  t.ok(pValue > alpha, `${label}: chi-square ${statistic.toFixed(1)}, df ${df}, p = ${pValue.toExponential(3)} > ${alpha.toExponential(2)}`)
  return pValue
}

/**
 * Per-position counts of `strings` over the ASCII `alphabet`: counts[position][symbol index].
 * A character outside the alphabet throws (other tests check alphabets; here it would skew counts).
 */
export function countByPosition (strings: Iterable<string>, alphabet: string, length: number): number[][] {
  const index = new Int16Array(128).fill(-1)
  for (let i = 0; i < alphabet.length; i++) index[alphabet.charCodeAt(i)] = i
  const counts = Array.from({ length }, () => new Array<number>(alphabet.length).fill(0))
  for (const text of strings) {
    if (text.length !== length) throw new RangeError(`countByPosition: length ${text.length}, expected ${length}`)
    for (let position = 0; position < length; position++) {
      const symbol = index[text.charCodeAt(position)] ?? -1
      if (symbol < 0) throw new RangeError(`countByPosition: ${JSON.stringify(text[position])} is not in the alphabet`)
      const row = counts[position] as number[]
      row[symbol] = (row[symbol] as number) + 1
    }
  }
  return counts
}
