// The random part of a token (CONTRACT §2 token): every position uniform over the 62 characters
// 0-9 A-Z a-z. False-alarm rate alpha = 1e-6 split evenly over the 16 positions (Bonferroni); the
// sample catches a 1% bias at any one position (total variation 0.01, Cohen's w >= 0.02) with
// probability >= 0.99, checked by assertPower before sampling. A generator with a modulo bias is
// shown to be rejected by the same test.
import t from 'tap'
import { generateTokens } from '../../plugins/token.js'
import { randomStrings } from '../../src/random/csprng.js'
import { tokenParts } from '../token-checksum.js'
import { goodnessOfFit } from './chi-square.js'
import { ALPHA, assertFits, assertPower, countByPosition } from './fit.js'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const LENGTH = 16
const N = 340_000
const UNIFORM = new Array<number>(BASE62.length).fill(1 / BASE62.length)

/** `n` random parts, from a generator that returns 50 tokens per call. */
function sample (n: number, generate: () => string[]): string[] {
  const values: string[] = []
  while (values.length < n) values.push(...generate())
  return values.slice(0, n)
}

t.test(`token random part, length ${LENGTH}: every position uniform over 0-9 A-Z a-z (alpha 1e-6 over ${LENGTH} positions, power >= 0.99 against a 1% bias)`, async (t) => {
  assertPower(t, BASE62.length - 1, ALPHA / LENGTH, N)
  const randoms = sample(N, () => generateTokens({ prefix: 'rg', length: LENGTH, quantity: 50 }).map((token) => tokenParts(token).random))
  countByPosition(randoms, BASE62, LENGTH).forEach((row, position) => assertFits(t, row, UNIFORM, ALPHA / LENGTH, `position ${position}`))
})

t.test('negative control: a modulo bias (a uniform byte % 62) is rejected at every position', async (t) => {
  // 256 = 4·62 + 8: the first 8 characters come 5/256 of the time, the other 54 only 4/256
  // (total variation 0.027), the bias of a draw without rejection
  const bytes = String.fromCharCode(...Array.from({ length: 256 }, (_, code) => code))
  const biased = sample(N, () => randomStrings(bytes, LENGTH, 50)
    .map((draw) => Array.from(draw, (character) => BASE62[character.charCodeAt(0) % 62]).join('')))
  const pValues = countByPosition(biased, BASE62, LENGTH).map((row) => goodnessOfFit(row, UNIFORM).pValue)
  t.ok(pValues.every((p) => p <= ALPHA / LENGTH),
    `every position rejected (largest p = ${Math.max(...pValues).toExponential(3)} <= ${(ALPHA / LENGTH).toExponential(2)})`)
})
