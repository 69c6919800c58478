// Password characters with a custom symbolSet and with exclude: uniform over the union of the sets
// the contract builds. Each test: false-alarm rate alpha = 1e-6, and a sample that catches a 1% bias
// (total variation 0.01, Cohen's w >= 0.02) with probability >= 0.99 (assertPower, before
// sampling). At length 128 a draw misses a set with probability < 1e-6, so the minimums leave the
// character frequencies uniform over the union to far better than the test can see (as in
// test/stats/password.test.ts). Each test also rejects a wrong generator (a negative control)
// sampled at the same size, and the design shows that control is rejected with probability
// >= 1 - 1e-6, so it cannot flake.
import t from 'tap'
import { randomInt } from 'node:crypto'
import { CHARACTER_SETS, generatePasswords } from '../../plugins/password.js'
import { ALPHA, assertFits, assertPower, countByPosition, type Asserts } from './fit.js'
import { goodnessOfFit, uniform } from './chi-square.js'

const PASSWORDS = 3000
const LENGTH = 128
const N = PASSWORDS * LENGTH
const CONTROL_POWER = 1 - 1e-6
const DEFAULTS = { length: LENGTH, uppercase: true, lowercase: true, numbers: true, symbols: true, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols as string, exclude: '', quantity: 50 }
const DEFAULT_UNION = Object.values(CHARACTER_SETS).join('')

/** Pooled character counts of `passwords` over `alphabet`. */
function pooled (passwords: string[], alphabet: string): number[] {
  const counts = new Array<number>(alphabet.length).fill(0)
  for (const row of countByPosition(passwords, alphabet, LENGTH)) row.forEach((count, symbol) => { counts[symbol] = (counts[symbol] as number) + count })
  return counts
}

function sample (params: Partial<typeof DEFAULTS>): string[] {
  const passwords: string[] = []
  while (passwords.length < PASSWORDS) passwords.push(...generatePasswords({ ...DEFAULTS, ...params }))
  return passwords
}

/** `PASSWORDS` strings of `LENGTH` characters, each from `draw`. */
function sampleOf (draw: () => string): string[] {
  return Array.from({ length: PASSWORDS }, () => Array.from({ length: LENGTH }, draw).join(''))
}

function effectSize (actual: number[], expected: number[]): number {
  return Math.sqrt(actual.reduce((sum, p, i) => sum + (p - (expected[i] as number)) ** 2 / (expected[i] as number), 0))
}

function rejects (t: Asserts, name: string, alphabet: string, law: number[], passwords: string[]): void {
  const expected = uniform(alphabet.length)
  assertPower(t, alphabet.length - 1, ALPHA, N, effectSize(law, expected), CONTROL_POWER)
  const { statistic, df, pValue } = goodnessOfFit(pooled(passwords, alphabet), expected)
  t.ok(pValue < ALPHA, `${name}: rejected, chi-square ${statistic.toFixed(1)}, df ${df}, p = ${pValue.toExponential(3)} < ${ALPHA.toExponential(2)}`)
}

t.test('symbolSet !@#$%^&*: characters uniform over the 70 of the union (alpha 1e-6, power 0.99 vs 1% bias)', async (t) => {
  const symbolSet = '!@#$%^&*'
  const alphabet = CHARACTER_SETS.uppercase + CHARACTER_SETS.lowercase + CHARACTER_SETS.numbers + symbolSet
  assertPower(t, alphabet.length - 1, ALPHA, N)
  assertFits(t, pooled(sample({ symbolSet }), alphabet), uniform(alphabet.length), ALPHA, `${N} characters`)

  t.test('negative control: a symbol as one of the 28 defaults\' indexes modulo 8 (4 symbols 4/28 of the time, 4 only 3/28)', async (t) => {
    // Uniform over the 70 as to which set, but a symbol is symbolSet[randomInt(28) % 8]
    const draw = () => {
      const index = randomInt(alphabet.length)
      return index < 62 ? alphabet[index] as string : symbolSet[randomInt(28) % 8] as string
    }
    const law = [...alphabet].map((_, i) => i < 62 ? 1 / 70 : (8 / 70) * ((i - 62) < 4 ? 4 : 3) / 28)
    rejects(t, 'symbols by index % 8', alphabet, law, sampleOf(draw))
  })
})

t.test('exclude AEIOUaeiou01<>&: characters uniform over the 75 left (alpha 1e-6, power 0.99 vs 1% bias)', async (t) => {
  const exclude = 'AEIOUaeiou01<>&'
  const alphabet = [...DEFAULT_UNION].filter((c) => !exclude.includes(c)).join('')
  t.equal(alphabet.length, 75)
  assertPower(t, alphabet.length - 1, ALPHA, N)
  assertFits(t, pooled(sample({ exclude }), alphabet), uniform(alphabet.length), ALPHA, `${N} characters`)

  t.test('negative control: drawn over all 90, an excluded character replaced by the next one kept', async (t) => {
    const substitute = (c: string): string => {
      let index = DEFAULT_UNION.indexOf(c)
      while (exclude.includes(DEFAULT_UNION[index] as string)) index = (index + 1) % DEFAULT_UNION.length
      return DEFAULT_UNION[index] as string
    }
    const draw = () => substitute(DEFAULT_UNION[randomInt(DEFAULT_UNION.length)] as string)
    const law = [...alphabet].map((c) => [...DEFAULT_UNION].filter((d) => substitute(d) === c).length / 90)
    rejects(t, 'substitution after drawing', alphabet, law, sampleOf(draw))
  })
})
