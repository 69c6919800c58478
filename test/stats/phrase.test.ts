// BIP-39 word frequencies. False-alarm rate alpha = 1e-6: half to the pooled test, half split over
// the 24 per-position tests (Bonferroni).
// Power: 60,000 phrases of 24 words give 1.44M words, so the pooled test over the 2048 words
// catches a 1% bias (total variation 0.01, Cohen's w >= 0.02) with probability >= 0.99. Per
// position, 60,000 words in 64 buckets of 32 words (index >> 5) catch a 2.5% bias (w >= 0.05)
// with probability >= 0.99; a 1% per-position bias would need ~350,000 phrases (over a minute of
// @scure/bip39, which validates the word list on every call). assertPower checks both claims.
import t from 'tap'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { generateMnemonic } from '../../plugins/phrase.js'
import { ALPHA, assertFits, assertPower } from './fit.js'
import { uniform } from './chi-square.js'

const PHRASES = 60_000
const WORDS = 24
const BUCKETS = 64

t.test(`${PHRASES} phrases of ${WORDS} words: word frequencies uniform overall and per position`, async (t) => {
  const alphaPooled = ALPHA / 2
  const alphaPosition = ALPHA / 2 / WORDS
  assertPower(t, wordlist.length - 1, alphaPooled, PHRASES * WORDS)
  assertPower(t, BUCKETS - 1, alphaPosition, PHRASES, 0.05)

  const index = new Map(wordlist.map((word, i) => [word, i]))
  const pooled = new Array<number>(wordlist.length).fill(0)
  const positions = Array.from({ length: WORDS }, () => new Array<number>(BUCKETS).fill(0))
  let unknown = 0
  for (let i = 0; i < PHRASES; i++) {
    generateMnemonic(WORDS).forEach((word, position) => {
      const k = index.get(word)
      if (k === undefined) {
        unknown++
        return
      }
      pooled[k] = (pooled[k] as number) + 1
      const row = positions[position] as number[]
      row[k >> 5] = (row[k >> 5] as number) + 1
    })
  }
  t.equal(unknown, 0, 'every word is in the English list')
  // The last word carries 3 entropy bits and 8 checksum bits (SHA-256 of the entropy): uniform too
  assertFits(t, pooled, uniform(wordlist.length), alphaPooled, 'all positions, 2048 words')
  positions.forEach((row, position) => assertFits(t, row, uniform(BUCKETS), alphaPosition, `position ${position}, 64 buckets`))
})
