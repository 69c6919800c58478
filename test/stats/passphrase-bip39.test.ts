// Passphrase words from a BIP-39 list (bip39-japanese, joined with U+3000 as Japanese wallets do):
// every word of the 2,048 equally likely, at every position. One sample of N passphrases of 20
// words feeds both checks; their false-alarm rate together is alpha = 1e-6 (Bonferroni: half to
// the pooled words, half over the 20 positions, each in 64 groups of 32 words by index).
// Power (assertPower, before sampling): each check rejects a 1% bias (total variation 0.01,
// Cohen's w >= 0.02) with probability >= 0.99. The pooled check also rejects a wrong generator
// (a negative control: the off-by-one `randomInt(2047)`, which never draws the last word), and the
// design shows it is rejected with probability >= 1 - 1e-6, so the control cannot flake.
import t from 'tap'
import { randomInt } from 'node:crypto'
import { PASSPHRASE_WORD_LISTS, generatePassphrases } from '../../plugins/passphrase.js'
import { ALPHA, assertFits, assertPower } from './fit.js'
import { goodnessOfFit, uniform } from './chi-square.js'

const N = 400_000
const WORDS = 20
const LIST = 2048
const GROUP = 32
const GROUPS = LIST / GROUP
const ALPHA_POOLED = ALPHA / 2
const ALPHA_POSITION = ALPHA / 2 / WORDS
const CONTROL_POWER = 1 - 1e-6
const { words } = PASSPHRASE_WORD_LISTS['bip39-japanese']

t.test(`${N} passphrases of ${WORDS} bip39-japanese words: words uniform over the 2,048, at every position`, async (t) => {
  assertPower(t, LIST - 1, ALPHA_POOLED, N * WORDS)
  assertPower(t, GROUPS - 1, ALPHA_POSITION, N)
  const index = new Map(words.map((word, i) => [word, i]))
  const counts = new Array<number>(LIST).fill(0)
  const positions = Array.from({ length: WORDS }, () => new Array<number>(GROUPS).fill(0))
  let unreadable = 0
  for (let made = 0; made < N; made += 50) {
    for (const value of generatePassphrases({ words: WORDS, wordList: 'bip39-japanese', separator: '\u3000', capitalize: false, includeNumber: false, quantity: 50 })) {
      const parts = value.split('\u3000')
      if (parts.length !== WORDS) unreadable++
      parts.forEach((word, position) => {
        const found = index.get(word)
        if (found === undefined) return unreadable++
        counts[found] = (counts[found] as number) + 1
        const row = positions[position] as number[]
        row[found >> 5] = (row[found >> 5] as number) + 1
      })
    }
  }
  t.equal(unreadable, 0, 'every value splits into 20 list words')
  assertFits(t, counts, uniform(LIST), ALPHA_POOLED, `all positions, ${LIST} words`)
  positions.forEach((row, position) => assertFits(t, row, uniform(GROUPS), ALPHA_POSITION, `position ${position}, ${GROUPS} groups`))
})

t.test('negative control: randomInt(2047), the last word never drawn, is rejected by the pooled check', async (t) => {
  // Cohen's w of the off-by-one law against uniform: the last word's missing 1/2048, the others' 1/2047 - 1/2048
  const w = Math.sqrt((LIST - 1) * ((1 / (LIST - 1) - 1 / LIST) ** 2) * LIST + (1 / LIST) ** 2 * LIST)
  assertPower(t, LIST - 1, ALPHA_POOLED, N * WORDS, w, CONTROL_POWER)
  const counts = new Array<number>(LIST).fill(0)
  const drawn = new Float64Array(LIST)
  for (let i = 0; i < N * WORDS; i++) {
    const index = randomInt(LIST - 1)
    drawn[index] = (drawn[index] as number) + 1
  }
  counts.splice(0, LIST, ...drawn)
  const { statistic, pValue } = goodnessOfFit(counts, uniform(LIST))
  t.ok(pValue < ALPHA_POOLED, `off by one: rejected, chi-square ${statistic.toFixed(1)}, df ${LIST - 1}, p = ${pValue.toExponential(3)} < ${ALPHA_POOLED.toExponential(2)}`)
})
