// Password minimums: every password is uniform over ALL valid passwords, whichever way it is
// drawn. Each check: false-alarm rate alpha <= 1e-6 per test (Bonferroni across its checks), and
// a sample size that catches a 1% bias (Cohen's w >= 0.02) with probability >= 0.99, checked by
// assertPower before sampling. Each test also shows that it rejects a generator that is wrong
// in the way it looks for.
import t from 'tap'
import { randomInt } from 'node:crypto'
import { CHARACTER_SETS, drawByComposition, drawByRejection, generatePassword, passwordPlan, type PasswordPlan } from '../../plugins/password.js'
import { goodnessOfFit, uniform } from './chi-square.js'
import { ALPHA, assertFits, assertPower, type Asserts } from './fit.js'

const DIGITS = CHARACTER_SETS.numbers
const SYMBOLS = CHARACTER_SETS.symbols
const NONE = { uppercase: false, lowercase: false, numbers: false, symbols: false }
const MINIMUMS = { minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1 }

function binomial (n: number, k: number): bigint {
  let result = 1n
  for (let i = 1; i <= k; i++) result = result * BigInt(n - k + i) / BigInt(i)
  return result
}

/** Probabilities from exact BigInt weights (as doubles: plenty for expected counts). */
function normalise (weights: bigint[]): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0n)
  // Scale before dividing so that tiny shares keep their digits
  const scale = 10n ** 18n
  return weights.map((weight) => Number(weight * scale / total) / 1e18)
}

/** A Fisher–Yates shuffle with node:crypto indexes (for the wrong generators below). */
function shuffled (characters: string[]): string {
  for (let i = characters.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [characters[i], characters[j]] = [characters[j] as string, characters[i] as string]
  }
  return characters.join('')
}

const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)] as string

// ---------------------------------------------------------------------------------------------
// Length 8, digits and symbols only, minNumbers 3, minSymbols 3. The number k of digits of a
// uniform valid password follows C(8,k)·10^k·28^(8−k), k = 3..5; given k, the positions of the
// digits are any of the C(8,k) choices, equally likely; every digit and every symbol is uniform.
// ---------------------------------------------------------------------------------------------
const SMALL = { ...NONE, ...MINIMUMS, numbers: true, symbols: true, length: 8, minNumbers: 3, minSymbols: 3, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols, exclude: '', quantity: 1 }
const DIGIT_COUNTS = [3, 4, 5]
const DIGIT_COUNT_LAW = normalise(DIGIT_COUNTS.map((k) => binomial(8, k) * 10n ** BigInt(k) * 28n ** BigInt(8 - k)))
// Which of the 8 positions hold digits (a bit mask): the law of every mask with 3..5 bits set
const MASKS = Array.from({ length: 256 }, (_, mask) => mask).filter((mask) => DIGIT_COUNTS.includes(popcount(mask)))
const MASK_LAW = normalise(MASKS.map((mask) => 10n ** BigInt(popcount(mask)) * 28n ** BigInt(8 - popcount(mask))))

function popcount (mask: number): number {
  let bits = 0
  for (let m = mask; m !== 0; m >>= 1) bits += m & 1
  return bits
}

interface SmallTally { digitCounts: number[], masks: number[], digits: number[], symbols: number[] }

function tallySmall (passwords: Iterable<string>): SmallTally {
  const tally: SmallTally = { digitCounts: [0, 0, 0], masks: new Array<number>(MASKS.length).fill(0), digits: new Array<number>(10).fill(0), symbols: new Array<number>(28).fill(0) }
  for (const password of passwords) {
    let mask = 0
    for (let position = 0; position < 8; position++) {
      const c = password[position] as string
      const digit = DIGITS.indexOf(c)
      if (digit >= 0) {
        mask |= 1 << position
        tally.digits[digit] = (tally.digits[digit] as number) + 1
      } else {
        const symbol = SYMBOLS.indexOf(c)
        if (symbol < 0) throw new RangeError(`not a digit or symbol: ${JSON.stringify(c)}`)
        tally.symbols[symbol] = (tally.symbols[symbol] as number) + 1
      }
    }
    const countIndex = DIGIT_COUNTS.indexOf(popcount(mask))
    if (countIndex < 0) throw new RangeError(`minimums missed: ${popcount(mask)} digits`)
    tally.digitCounts[countIndex] = (tally.digitCounts[countIndex] as number) + 1
    const maskIndex = MASKS.indexOf(mask)
    tally.masks[maskIndex] = (tally.masks[maskIndex] as number) + 1
  }
  return tally
}

// The four checks of a sample share alpha 1e-6 equally
const ALPHA_SMALL = ALPHA / 4
const SMALL_N = 160_000

function checkSmall (t: Asserts, tally: SmallTally): void {
  assertFits(t, tally.digitCounts, DIGIT_COUNT_LAW, ALPHA_SMALL, 'digits per password (3, 4, 5) vs C(8,k)·10^k·28^(8−k)')
  assertFits(t, tally.masks, MASK_LAW, ALPHA_SMALL, 'positions of the digits (182 masks)')
  assertFits(t, tally.digits, uniform(10), ALPHA_SMALL, 'each digit')
  assertFits(t, tally.symbols, uniform(28), ALPHA_SMALL, 'each symbol')
}

/** The shortcut password managers take: the required characters, the rest from the union, shuffled. */
function placeThenShuffle (): string {
  const characters = [pick(DIGITS), pick(DIGITS), pick(DIGITS), pick(SYMBOLS), pick(SYMBOLS), pick(SYMBOLS)]
  while (characters.length < 8) characters.push(pick(DIGITS + SYMBOLS))
  return shuffled(characters)
}

/** Right counts and characters, but a biased arrangement: the naive shuffle (swap with any position). */
function naiveShuffle (plan: PasswordPlan): string {
  const [digits, symbols] = plan.compositions.draw()
  const characters = [...Array.from({ length: digits as number }, () => pick(DIGITS)), ...Array.from({ length: symbols as number }, () => pick(SYMBOLS))]
  for (let i = 0; i < characters.length; i++) {
    const j = randomInt(characters.length);
    [characters[i], characters[j]] = [characters[j] as string, characters[i] as string]
  }
  return characters.join('')
}

/** Right everything except the symbols: a byte reduced modulo 28 (256 = 9·28 + 4 favours 4 symbols). */
function moduloSymbols (plan: PasswordPlan): string {
  const password = drawByComposition(plan)
  return [...password].map((c) => DIGITS.includes(c) ? c : SYMBOLS[randomInt(256) % 28] as string).join('')
}

t.test('length 8, digits and symbols, minNumbers 3, minSymbols 3: uniform over all valid passwords', async (t) => {
  const plan = passwordPlan(SMALL)
  assertPower(t, DIGIT_COUNTS.length - 1, ALPHA_SMALL, SMALL_N)
  // The 182 masks need more samples for a 1% bias; this size still catches a 1.75% one (w 0.035)
  assertPower(t, MASKS.length - 1, ALPHA_SMALL, SMALL_N, 0.035)
  // Every password has at least 3 digits and 3 symbols, so each character check has >= 3n draws
  assertPower(t, 9, ALPHA_SMALL, 3 * SMALL_N)
  assertPower(t, 27, ALPHA_SMALL, 3 * SMALL_N)

  t.test(`the generator (rejection: cheap here), ${SMALL_N} passwords`, async (t) => {
    t.ok(plan.rejectionIsCheap, 'this plan is drawn by rejection')
    checkSmall(t, tallySmall(Array.from({ length: SMALL_N }, () => generatePassword(plan))))
  })
  t.test(`drawing by composition, ${SMALL_N} passwords`, async (t) => {
    checkSmall(t, tallySmall(Array.from({ length: SMALL_N }, () => drawByComposition(plan))))
  })
  t.test(`drawing by rejection, ${SMALL_N} passwords`, async (t) => {
    checkSmall(t, tallySmall(Array.from({ length: SMALL_N }, () => drawByRejection(plan))))
  })

  t.test('negative controls: each check rejects a generator wrong in its way', async (t) => {
    const n = 20_000
    const shortcut = tallySmall(Array.from({ length: n }, placeThenShuffle))
    const digitCounts = goodnessOfFit(shortcut.digitCounts, DIGIT_COUNT_LAW)
    t.ok(digitCounts.pValue < ALPHA_SMALL, `place-then-shuffle, ${n} passwords: digits per password p = ${digitCounts.pValue.toExponential(3)}`)
    const arranged = tallySmall(Array.from({ length: SMALL_N }, () => naiveShuffle(plan)))
    const masks = goodnessOfFit(arranged.masks, MASK_LAW)
    t.ok(masks.pValue < ALPHA_SMALL, `naive shuffle, ${SMALL_N} passwords: digit positions p = ${masks.pValue.toExponential(3)}`)
    const modulo = tallySmall(Array.from({ length: SMALL_N }, () => moduloSymbols(plan)))
    const symbols = goodnessOfFit(modulo.symbols, uniform(28))
    t.ok(symbols.pValue < ALPHA_SMALL, `symbols by byte % 28, ${SMALL_N} passwords: each symbol p = ${symbols.pValue.toExponential(3)}`)
  })
})

// ---------------------------------------------------------------------------------------------
// Length 128, all four sets, minSymbols 120 (the other minimums 1): rejection would almost never
// succeed, so every password is drawn by composition. The composition (u, l, n, s) has exact law
// 128!/(u! l! n! s!) · 26^u · 26^l · 10^n · 28^s over u, l, n >= 1, s >= 120, summing to 128: the
// 56 compositions are listed here, independently of the counting in src/random/compositions.ts.
// ---------------------------------------------------------------------------------------------
const HEAVY = { ...MINIMUMS, uppercase: true, lowercase: true, numbers: true, symbols: true, length: 128, minSymbols: 120, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols, exclude: '', quantity: 1 }

function heavyLaw (): { keys: string[], law: number[] } {
  const keys: string[] = []
  const weights: bigint[] = []
  for (let s = 120; s <= 125; s++) {
    for (let u = 1; u <= 128 - s - 2; u++) {
      for (let l = 1; u + l <= 128 - s - 1; l++) {
        const n = 128 - s - u - l
        keys.push(`${u},${l},${n},${s}`)
        weights.push(binomial(128, s) * binomial(128 - s, u) * binomial(128 - s - u, l) * 26n ** BigInt(u + l) * 10n ** BigInt(n) * 28n ** BigInt(s))
      }
    }
  }
  return { keys, law: normalise(weights) }
}

const SETS = [CHARACTER_SETS.uppercase, CHARACTER_SETS.lowercase, CHARACTER_SETS.numbers, CHARACTER_SETS.symbols]
const SET_OF = new Int8Array(128).fill(-1)
SETS.forEach((characters, set) => { for (const c of characters) SET_OF[c.charCodeAt(0)] = set })

function compositionOf (password: string): string {
  const counts = [0, 0, 0, 0]
  for (let i = 0; i < password.length; i++) {
    const set = SET_OF[password.charCodeAt(i)] as number
    counts[set] = (counts[set] as number) + 1
  }
  return counts.join(',')
}

/**
 * Observed and expected counts by composition, with the compositions expected fewer than 100 times
 * pooled into one category (chi-square needs expected counts that are not tiny).
 */
function pooled (keys: string[], law: number[], passwords: string[]): { observed: number[], expected: number[] } {
  const counts = new Map<string, number>()
  for (const password of passwords) {
    const key = compositionOf(password)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const observed: number[] = []
  const expected: number[] = []
  let rareObserved = 0
  let rareExpected = 0
  keys.forEach((key, index) => {
    const p = law[index] as number
    if (p * passwords.length >= 100) {
      observed.push(counts.get(key) ?? 0)
      expected.push(p)
    } else {
      rareObserved += counts.get(key) ?? 0
      rareExpected += p
    }
  })
  const unknown = passwords.length - [...counts.entries()].filter(([key]) => keys.includes(key)).reduce((sum, [, count]) => sum + count, 0)
  observed.push(rareObserved + unknown)
  expected.push(rareExpected)
  return { observed, expected }
}

t.test('length 128, minSymbols 120: compositions follow their exact law', async (t) => {
  const plan = passwordPlan(HEAVY)
  t.notOk(plan.rejectionIsCheap, 'drawn by composition')
  const { keys, law } = heavyLaw()
  t.equal(keys.length, 56, '56 compositions')
  const n = 260_000
  const categories = law.filter((p) => p * n >= 100).length + 1
  assertPower(t, categories - 1, ALPHA, n)

  t.test(`the generator, ${n} passwords`, async (t) => {
    const { observed, expected } = pooled(keys, law, Array.from({ length: n }, () => generatePassword(plan)))
    assertFits(t, observed, expected, ALPHA, `compositions (${categories} categories)`)
  })

  t.test('negative control: 120 symbols and one of each other set, 5 more from the union, shuffled', async (t) => {
    const union = SETS.join('')
    const shortcut = Array.from({ length: 5_000 }, () => {
      const characters = [...Array.from({ length: 120 }, () => pick(SYMBOLS)), pick(SETS[0] as string), pick(SETS[1] as string), pick(DIGITS)]
      while (characters.length < 128) characters.push(pick(union))
      return shuffled(characters)
    })
    const { observed, expected } = pooled(keys, law, shortcut)
    const { pValue } = goodnessOfFit(observed, expected)
    t.ok(pValue < ALPHA, `place-then-shuffle, 5000 passwords: p = ${pValue.toExponential(3)}`)
  })
})
