// symbolSet's pattern against the contract's rule written out by hand (CONTRACT §2: 1..32
// distinct characters, each one of the 32 ASCII punctuation characters), on the strings most likely
// to part them: the default it matches first, its neighbours, subsets, repeats, other characters.
import t from 'tap'
import { randomInt } from 'node:crypto'
import { DEFAULT_SYMBOLS, SYMBOL_SET_PATTERN } from '../../schemas/password.js'

const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
const OTHERS = 'aZ09 \t\n\u007fé€😀！'

/** The rule, without a regular expression. */
function allowed (symbolSet: string): boolean {
  const characters = [...symbolSet]
  return characters.length >= 1 && characters.length <= 32 &&
    characters.every((character) => PUNCTUATION.includes(character)) &&
    new Set(characters).size === characters.length
}

const pattern = new RegExp(SYMBOL_SET_PATTERN, 'u')
const pick = (from: string): string => [...from][randomInt([...from].length)] as string

t.test('the default and its near misses', async (t) => {
  const near = [DEFAULT_SYMBOLS, DEFAULT_SYMBOLS + '"', DEFAULT_SYMBOLS + '!', '!' + DEFAULT_SYMBOLS, DEFAULT_SYMBOLS.slice(1),
    DEFAULT_SYMBOLS.slice(0, -1), DEFAULT_SYMBOLS + '\n', `${DEFAULT_SYMBOLS}a`, [...DEFAULT_SYMBOLS].reverse().join(''), PUNCTUATION, PUNCTUATION + '!']
  for (const symbolSet of near) t.equal(pattern.test(symbolSet), allowed(symbolSet), JSON.stringify(symbolSet))
  t.ok(pattern.test(DEFAULT_SYMBOLS))
})

t.test('random strings: subsets, repeats and other characters', async (t) => {
  let accepted = 0
  let disagreements = 0
  for (let i = 0; i < 20_000; i++) {
    const length = randomInt(0, 36)
    // Mostly punctuation (so that distinct sets of every length occur), sometimes another character
    let symbolSet = ''
    const pool = [...PUNCTUATION]
    for (let j = 0; j < length; j++) {
      const roll = randomInt(20)
      if (roll === 0) symbolSet += pick(OTHERS)
      else if (roll === 1 && symbolSet !== '') symbolSet += pick(symbolSet)
      else if (pool.length > 0) symbolSet += pool.splice(randomInt(pool.length), 1)[0]
    }
    if (pattern.test(symbolSet) !== allowed(symbolSet)) {
      disagreements++
      t.fail(`disagree on ${JSON.stringify(symbolSet)}`)
    }
    if (allowed(symbolSet)) accepted++
  }
  t.equal(disagreements, 0)
  // Both answers occur often: a test of agreement on refusals alone would prove little
  t.ok(accepted > 5000 && accepted < 15_000, `${accepted} of 20,000 accepted`)
})
