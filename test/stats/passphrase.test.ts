// Passphrase randomness: words uniform over the EFF list and independent of each other, the digit's
// word and value uniform. One sample of N passphrases of 20 words with includeNumber feeds six
// checks; the false-alarm rate of all of them together is alpha = 1e-6 (Bonferroni: a fifth each
// to the pooled words, the per-position words, the word pairs and the repeats, and a tenth each to
// the digit's word and the digit's value).
// Power (assertPower, before sampling): against a 1% bias (total variation 0.01, Cohen's w >= 0.02)
// each check rejects with probability >= 0.99. N = 400,000 passphrases: 8M words for the pooled
// test over the 7,776 words (2.5M would do), 400,000 per position in 36 groups of 216 words (297,000
// would do), 4M disjoint pairs of neighbours in 36 × 36 groups (1.06M would do), 400,000 for the
// repeats (142,000 would do), the digit's word (235,000) and the digit's value (199,000).
// Each check also rejects a wrong generator (a negative control), sampled at the same N, and the
// design shows that control is rejected with probability >= 1 - 1e-6, so the control cannot flake.
import t from 'tap'
import { randomBytes, randomInt } from 'node:crypto'
import { WORDLIST, generatePassphrases } from '../../plugins/passphrase.js'
import { ALPHA, assertFits, assertPower, type Asserts } from './fit.js'
import { goodnessOfFit, uniform } from './chi-square.js'

const N = 400_000
const WORDS = 20
const LIST = WORDLIST.length
// Words grouped by their first two dice (index / 216): 36 groups of 216 words
const GROUP = 216
const GROUPS = LIST / GROUP

const ALPHA_POOLED = ALPHA / 5
const ALPHA_POSITION = ALPHA / 5 / WORDS
const ALPHA_PAIRS = ALPHA / 5
const ALPHA_REPEATS = ALPHA / 5
const ALPHA_DIGIT_WORD = ALPHA / 10
const ALPHA_DIGIT = ALPHA / 10
/** How surely a negative control must be rejected, for its check not to flake. */
const CONTROL_POWER = 1 - 1e-6

/** N passphrases as numbers: word indexes (N × WORDS), and the digit's word and value. */
interface Sample {
  words: Uint16Array
  digitAfter: Uint8Array
  digit: Uint8Array
}

function emptySample (): Sample {
  return { words: new Uint16Array(N * WORDS), digitAfter: new Uint8Array(N), digit: new Uint8Array(N) }
}

/** Cohen's w of the law `actual` against `expected`: how far a wrong generator is from the contract. */
function effectSize (actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  let sum = 0
  for (let i = 0; i < expected.length; i++) sum += ((actual[i] as number) - (expected[i] as number)) ** 2 / (expected[i] as number)
  return Math.sqrt(sum)
}

// ---- the statistics, the same for the generator and the controls

function pooled (sample: Sample): number[] {
  const counts = new Array<number>(LIST).fill(0)
  for (const index of sample.words) counts[index] = (counts[index] as number) + 1
  return counts
}

function byPosition (sample: Sample): number[][] {
  const counts = Array.from({ length: WORDS }, () => new Array<number>(GROUPS).fill(0))
  sample.words.forEach((index, i) => {
    const row = counts[i % WORDS] as number[]
    const group = Math.floor(index / GROUP)
    row[group] = (row[group] as number) + 1
  })
  return counts
}

/** Disjoint neighbours (words 0 and 1, 2 and 3, ...): their groups, jointly. */
function pairs (sample: Sample): number[] {
  const counts = new Array<number>(GROUPS * GROUPS).fill(0)
  for (let i = 0; i < sample.words.length; i += 2) {
    const cell = Math.floor((sample.words[i] as number) / GROUP) * GROUPS + Math.floor((sample.words[i + 1] as number) / GROUP)
    counts[cell] = (counts[cell] as number) + 1
  }
  return counts
}

/** Passphrases with no word twice, and with some word twice or more. */
function repeats (sample: Sample): number[] {
  const counts = [0, 0]
  // seen[word] = 1 + the last passphrase that has it
  const seen = new Uint32Array(LIST)
  for (let p = 0; p < N; p++) {
    let repeated = 0
    for (let i = p * WORDS; i < (p + 1) * WORDS; i++) {
      const word = sample.words[i] as number
      if (seen[word] === p + 1) repeated = 1
      seen[word] = p + 1
    }
    counts[repeated] = (counts[repeated] as number) + 1
  }
  return counts
}

function histogram (values: Uint8Array, categories: number): number[] {
  const counts = new Array<number>(categories).fill(0)
  for (const value of values) counts[value] = (counts[value] as number) + 1
  return counts
}

// Independent uniform words never repeat in 20 with probability prod(1 - i/7776), i < 20
const NO_REPEAT = Array.from({ length: WORDS }, (_, i) => 1 - i / LIST).reduce((product, factor) => product * factor, 1)
const REPEATS_LAW = [NO_REPEAT, 1 - NO_REPEAT]

// ---- the generator under test

/** N passphrases from generatePassphrases, read back into numbers (separator ' ': no word has one). */
function sampleOfGenerator (t: Asserts): Sample {
  const sample = emptySample()
  const index = new Map(WORDLIST.map((word, i) => [word, i]))
  let unreadable = 0
  let p = 0
  while (p < N) {
    for (const value of generatePassphrases({ words: WORDS, wordList: 'eff-large', separator: ' ', capitalize: false, includeNumber: true, quantity: 50 })) {
      const parts = value.split(' ')
      let digits = 0
      parts.forEach((part, position) => {
        let word = part
        const last = part.charCodeAt(part.length - 1)
        if (last >= 48 && last <= 57) {
          word = part.slice(0, -1)
          sample.digitAfter[p] = position
          sample.digit[p] = last - 48
          digits++
        }
        const found = index.get(word)
        if (found === undefined) unreadable++
        else sample.words[p * WORDS + position] = found
      })
      if (parts.length !== WORDS || digits !== 1) unreadable++
      p++
    }
  }
  t.ok(unreadable === 0, `every value is ${WORDS} list words, one with a digit (${unreadable} not)`)
  return sample
}

// ---- wrong generators (negative controls), from node:crypto directly

/** Uniform indexes below 7,776 from 16-bit draws, rejecting those >= 8 × 7,776 (no bias). */
function fillUniform (target: Uint16Array): void {
  const limit = 65_536 - (65_536 % LIST)
  let filled = 0
  while (filled < target.length) {
    const bytes = randomBytes(2 * (target.length - filled) + 64)
    for (let i = 0; i + 1 < bytes.length && filled < target.length; i += 2) {
      const draw = (bytes[i] as number) << 8 | (bytes[i + 1] as number)
      if (draw < limit) target[filled++] = draw % LIST
    }
  }
}

/** A word as two random bytes modulo 7,776: indexes below 65,536 - 8 × 7,776 = 3,328 come 9/8 as often. */
function fillModulo (target: Uint16Array, every = 1, offset = 0): void {
  const bytes = randomBytes(2 * target.length)
  for (let i = offset; i < target.length; i += every) target[i] = ((bytes[2 * i] as number) << 8 | (bytes[2 * i + 1] as number)) % LIST
}

const MODULO_LAW = Array.from({ length: LIST }, (_, i) => (i < 65_536 % LIST ? 9 : 8) / 65_536)
const MODULO_GROUP_LAW = Array.from({ length: GROUPS }, (_, g) => MODULO_LAW.slice(g * GROUP, (g + 1) * GROUP).reduce((sum, p) => sum + p, 0))

t.test(`${N} passphrases of ${WORDS} words with includeNumber: words uniform and independent, the digit's word and value uniform`, async (t) => {
  assertPower(t, LIST - 1, ALPHA_POOLED, N * WORDS)
  assertPower(t, GROUPS - 1, ALPHA_POSITION, N)
  assertPower(t, GROUPS * GROUPS - 1, ALPHA_PAIRS, N * WORDS / 2)
  assertPower(t, 1, ALPHA_REPEATS, N)
  assertPower(t, WORDS - 1, ALPHA_DIGIT_WORD, N)
  assertPower(t, 9, ALPHA_DIGIT, N)

  const sample = sampleOfGenerator(t)
  assertFits(t, pooled(sample), uniform(LIST), ALPHA_POOLED, `all positions, ${LIST} words`)
  byPosition(sample).forEach((row, position) => assertFits(t, row, uniform(GROUPS), ALPHA_POSITION, `position ${position}, ${GROUPS} groups`))
  assertFits(t, pairs(sample), uniform(GROUPS * GROUPS), ALPHA_PAIRS, `neighbouring words, ${GROUPS} × ${GROUPS} groups`)
  assertFits(t, repeats(sample), REPEATS_LAW, ALPHA_REPEATS, `passphrases with a word twice (expected ${((1 - NO_REPEAT) * 100).toFixed(2)} %)`)
  assertFits(t, histogram(sample.digitAfter, WORDS), uniform(WORDS), ALPHA_DIGIT_WORD, 'the word the digit follows')
  assertFits(t, histogram(sample.digit, 10), uniform(10), ALPHA_DIGIT, 'the digit')
})

t.test('negative controls: each check rejects a wrong generator', async (t) => {
  /** Asserts the design rejects a control at effect size w surely, then that this sample was rejected. */
  const rejects = (t: Asserts, name: string, df: number, alpha: number, n: number, w: number, observed: number[], expected: number[]) => {
    assertPower(t, df, alpha, n, w, CONTROL_POWER)
    const { pValue } = goodnessOfFit(observed, expected)
    t.ok(pValue < alpha, `${name}: rejected, p = ${pValue.toExponential(3)} < ${alpha.toExponential(2)}`)
  }

  t.test('words as two bytes modulo 7,776: the pooled test rejects', async (t) => {
    const sample = emptySample()
    fillModulo(sample.words)
    rejects(t, 'two bytes % 7776', LIST - 1, ALPHA_POOLED, N * WORDS, effectSize(MODULO_LAW, uniform(LIST)), pooled(sample), uniform(LIST))
  })

  t.test('only the last word modulo-biased: the per-position test rejects at that position', async (t) => {
    const sample = emptySample()
    fillUniform(sample.words)
    fillModulo(sample.words, WORDS, WORDS - 1)
    const rows = byPosition(sample)
    rejects(t, 'last word two bytes % 7776', GROUPS - 1, ALPHA_POSITION, N, effectSize(MODULO_GROUP_LAW, uniform(GROUPS)), rows[WORDS - 1] as number[], uniform(GROUPS))
    // The pooled test sees this bias diluted twentyfold (w ~ 0.003): why each position is tested too
  })

  t.test('a word copying its neighbour\'s first two dice 1% of the time: the pairs test rejects', async (t) => {
    const sample = emptySample()
    fillUniform(sample.words)
    const copy = randomBytes(sample.words.length)
    for (let i = 1; i < sample.words.length; i += 2) {
      // 1% of 2^16: 655 of 65,536 two-byte draws
      if (((copy[i - 1] as number) << 8 | (copy[i] as number)) < 655) {
        const within = (sample.words[i] as number) % GROUP
        sample.words[i] = Math.floor((sample.words[i - 1] as number) / GROUP) * GROUP + within
      }
    }
    const share = 655 / 65_536
    const law = Array.from({ length: GROUPS * GROUPS }, (_, cell) =>
      (1 - share) / (GROUPS * GROUPS) + (Math.floor(cell / GROUPS) === cell % GROUPS ? share / GROUPS : 0))
    rejects(t, 'neighbour copies', GROUPS * GROUPS - 1, ALPHA_PAIRS, N * WORDS / 2, effectSize(law, uniform(GROUPS * GROUPS)), pairs(sample), uniform(GROUPS * GROUPS))
  })

  t.test('no word twice in a passphrase (drawing without replacement): the repeats test rejects', async (t) => {
    const sample = emptySample()
    // Uniform draws, a word skipped when the passphrase has it already (~0.05 skips per passphrase)
    const draws = new Uint16Array(N * WORDS + N)
    fillUniform(draws)
    // seen[word] = 1 + the last passphrase that has it
    const seen = new Uint32Array(LIST)
    let next = 0
    for (let p = 0; p < N; p++) {
      for (let position = 0; position < WORDS;) {
        if (next === draws.length) fillUniform(draws.subarray(next = 0))
        const word = draws[next++] as number
        if (seen[word] === p + 1) continue
        seen[word] = p + 1
        sample.words[p * WORDS + position++] = word
      }
    }
    rejects(t, 'without replacement', 1, ALPHA_REPEATS, N, effectSize([1, 0], REPEATS_LAW), repeats(sample), REPEATS_LAW)
  })

  t.test('the digit\'s word as a byte modulo 20 (the first 16 words favoured): the digit-word test rejects', async (t) => {
    const sample = emptySample()
    sample.digitAfter.set(randomBytes(N).map((byte) => byte % WORDS))
    const law = Array.from({ length: WORDS }, (_, i) => (i < 256 % WORDS ? 13 : 12) / 256)
    rejects(t, 'byte % 20', WORDS - 1, ALPHA_DIGIT_WORD, N, effectSize(law, uniform(WORDS)), histogram(sample.digitAfter, WORDS), uniform(WORDS))
  })

  t.test('the digit as a byte modulo 10 (0-5 favoured): the digit test rejects', async (t) => {
    const sample = emptySample()
    sample.digit.set(randomBytes(N).map((byte) => byte % 10))
    const law = Array.from({ length: 10 }, (_, i) => (i < 256 % 10 ? 26 : 25) / 256)
    rejects(t, 'byte % 10', 9, ALPHA_DIGIT, N, effectSize(law, uniform(10)), histogram(sample.digit, 10), uniform(10))
  })

  t.test('half of the digits after the first word: the digit-word test rejects', async (t) => {
    const sample = emptySample()
    sample.digitAfter.set(Array.from({ length: N }, () => (randomInt(2) === 0 ? 0 : randomInt(WORDS))))
    const law = Array.from({ length: WORDS }, (_, i) => (i === 0 ? 0.5 : 0) + 0.5 / WORDS)
    rejects(t, 'first word half the time', WORDS - 1, ALPHA_DIGIT_WORD, N, effectSize(law, uniform(WORDS)), histogram(sample.digitAfter, WORDS), uniform(WORDS))
  })
})
