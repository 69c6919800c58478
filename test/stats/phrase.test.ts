// BIP-39 word frequencies, in a list other than English: Japanese, also the list whose words
// @scure/bip39 joins with U+3000, so the split back into words is part of what is tested.
// Words 1..23 of a 24-word phrase are 253 of the 256 entropy bits; word 24 holds the last 3
// entropy bits above 8 checksum bits (the first byte of SHA-256 of the entropy), so it is tested
// on its entropy bits only and left out of the pooled test.
// False-alarm rate alpha = 1e-6: half to the pooled test, half split over 24 per-position tests
// (words 1..23, and word 24's entropy bits; Bonferroni).
// Power: 60,000 phrases give 1,380,000 words at positions 1..23, so the pooled test over the 2,048
// words catches a 1% bias (total variation 0.01, Cohen's w >= 0.02) with probability >= 0.99. Per
// position, 60,000 words in 64 buckets of 32 words (index >> 5), and word 24's 8 values of its
// entropy bits, catch a 2.5% bias (w >= 0.05) with probability >= 0.99. assertPower checks each
// claim; the negative controls below show the pooled test rejecting a bias of that size.
import t from 'tap'
import { PHRASE_WORDLISTS, generateMnemonic } from '../../plugins/phrase.js'
import { randomBytes } from '../../src/random/csprng.js'
import { goodnessOfFit, uniform } from './chi-square.js'
import { ALPHA, EFFECT_W, assertFits, assertPower } from './fit.js'

const LANGUAGE = 'japanese'
const PHRASES = 60_000
const WORDS = 24
const ENTROPY_WORDS = WORDS - 1
const SAMPLE = PHRASES * ENTROPY_WORDS
const BUCKETS = 64
// Word 24's 11 bits: 3 of entropy, then 8 of checksum
const LAST_WORD_ENTROPY_VALUES = 8
const ALPHA_POOLED = ALPHA / 2
const ALPHA_POSITION = ALPHA / 2 / WORDS

const { words: WORDLIST } = PHRASE_WORDLISTS[LANGUAGE]
const INDEX = new Map(WORDLIST.map((word, i) => [word, i]))

/** Counts of each list word over `phrases` lists of words; a word not in the list is counted apart. */
function countWords (phrases: Iterable<string[]>) {
  const pooled = new Array<number>(WORDLIST.length).fill(0)
  let unknown = 0
  for (const words of phrases) {
    for (const word of words) {
      const k = INDEX.get(word)
      if (k === undefined) unknown++
      else pooled[k] = (pooled[k] as number) + 1
    }
  }
  return { pooled, unknown }
}

/** `phrases` lists of 23 words, each WORDLIST[index(draw)] for a fresh 16-bit draw (undefined: rejected, draw again). */
function * drawnWords (phrases: number, index: (draw: number) => number | undefined): Generator<string[]> {
  for (let p = 0; p < phrases; p++) {
    const words: string[] = []
    while (words.length < ENTROPY_WORDS) {
      const bytes = randomBytes(2 * ENTROPY_WORDS)
      for (let i = 0; i < bytes.length && words.length < ENTROPY_WORDS; i += 2) {
        const k = index(bytes.readUInt16BE(i))
        if (k !== undefined) words.push(WORDLIST[k] as string)
      }
    }
    yield words
  }
}

/** Cohen's w of `probabilities` against the uniform distribution over as many categories. */
function effectSize (probabilities: number[]): number {
  const q = 1 / probabilities.length
  return Math.sqrt(probabilities.reduce((sum, p) => sum + (p - q) ** 2 / q, 0))
}

t.test(`${LANGUAGE}: ${PHRASES} phrases of ${WORDS} words: words 1..${ENTROPY_WORDS} uniform pooled and per position, word 24's entropy bits uniform`, async (t) => {
  assertPower(t, WORDLIST.length - 1, ALPHA_POOLED, SAMPLE)
  assertPower(t, BUCKETS - 1, ALPHA_POSITION, PHRASES, 0.05)
  assertPower(t, LAST_WORD_ENTROPY_VALUES - 1, ALPHA_POSITION, PHRASES, 0.05)

  const phrases: string[][] = []
  const positions = Array.from({ length: ENTROPY_WORDS }, () => new Array<number>(BUCKETS).fill(0))
  const lastWord = new Array<number>(LAST_WORD_ENTROPY_VALUES).fill(0)
  let unknownLast = 0
  for (let i = 0; i < PHRASES; i++) {
    const words = generateMnemonic(WORDS, LANGUAGE)
    if (words.length !== WORDS) t.fail(`a phrase of ${words.length} words`)
    phrases.push(words.slice(0, ENTROPY_WORDS))
    words.slice(0, ENTROPY_WORDS).forEach((word, position) => {
      const k = INDEX.get(word)
      if (k === undefined) return
      const row = positions[position] as number[]
      row[k >> 5] = (row[k >> 5] as number) + 1
    })
    const last = INDEX.get(words[WORDS - 1] as string)
    if (last === undefined) unknownLast++
    else lastWord[last >> 8] = (lastWord[last >> 8] as number) + 1
  }
  const { pooled, unknown } = countWords(phrases)
  t.equal(unknown + unknownLast, 0, `every word is in the ${LANGUAGE} list`)
  assertFits(t, pooled, uniform(WORDLIST.length), ALPHA_POOLED, `words 1..${ENTROPY_WORDS} pooled, ${WORDLIST.length} words`)
  positions.forEach((row, position) => assertFits(t, row, uniform(BUCKETS), ALPHA_POSITION, `word ${position + 1}, 64 buckets`))
  assertFits(t, lastWord, uniform(LAST_WORD_ENTROPY_VALUES), ALPHA_POSITION, 'word 24, its 3 entropy bits')
})

t.test(`negative controls: the pooled test, at the same sample size (${SAMPLE} words) and alpha, rejects wrong generators`, async (t) => {
  const rejects = (label: string, probabilities: number[], phrases: Iterable<string[]>) => {
    const w = effectSize(probabilities)
    const { pooled } = countWords(phrases)
    const { statistic, df, pValue } = goodnessOfFit(pooled, uniform(WORDLIST.length))
    t.ok(pValue <= ALPHA_POOLED, `${label} (w = ${w.toFixed(4)}): chi-square ${statistic.toFixed(1)}, df ${df}, p = ${pValue.toExponential(3)} <= ${ALPHA_POOLED.toExponential(2)}`)
    return w
  }

  // Modulo bias: a uniform draw over 24.5 × 2048 = 50,176 values reduced mod 2048, so words
  // 0..1023 come 25 times in 49 and 1024..2047 24 times: total variation 1%, w = 0.0204, just
  // above the smallest bias the design claims to catch
  const RANGE = 50_176
  const moduloBiased = Array.from({ length: 2048 }, (_, k) => (k < 1024 ? 25 : 24) / RANGE)
  const w = rejects('modulo-biased draw', moduloBiased, drawnWords(PHRASES, (draw) => draw < RANGE ? draw % 2048 : undefined))
  t.ok(w >= EFFECT_W, 'the modulo bias is of the size the design names')

  // A list missing its last 16 words: every other word 1/2032
  const KEPT = 2032
  const truncated = Array.from({ length: 2048 }, (_, k) => k < KEPT ? 1 / KEPT : 0)
  rejects('list missing its last 16 words', truncated, drawnWords(PHRASES, (draw) => draw < KEPT * 32 ? draw % KEPT : undefined))
})
