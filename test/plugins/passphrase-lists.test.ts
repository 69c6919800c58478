// passphrase `wordList` (CONTRACT §2): the ten BIP-39 lists of the phrase generator, the same
// arrays in the process; capitals where the script has case; phrase's separator rule for those
// lists; every value reads back into list words; entropyBits per list.
import t from 'tap'
import fc from 'fast-check'
import { PASSPHRASE_WORD_LISTS, WORDLIST, capitalized, drawBip39Indexes, generatePassphrases, passphraseEntropyBits } from '../../plugins/passphrase.js'
import { PHRASE_WORDLISTS } from '../../plugins/phrase.js'
import { PASSPHRASE_WORD_LISTS as LIST_NAMES } from '../../schemas/passphrase.js'
import { PHRASE_LANGUAGES } from '../../schemas/phrase.js'
import { ParameterError } from '../../src/http/parameter-error.js'
import { isFloorOf } from '../exact-entropy.js'
import { build, get, post } from '../helper.js'
import { readPassphrase } from '../passphrase-reader.js'

const DEFAULTS = { words: 6, wordList: 'eff-large' as const, separator: '-', capitalize: false, includeNumber: false, quantity: 1 }
type WordList = typeof LIST_NAMES[number]
const BIP39 = PHRASE_LANGUAGES.map((language) => `bip39-${language}` as const)
// Scripts without case, whose words capitalize leaves as they are
const CASELESS = new Set(['bip39-chinese_simplified', 'bip39-chinese_traditional', 'bip39-japanese', 'bip39-korean'])

t.test('eleven lists: the EFF list and the ten BIP-39 lists, one copy shared with phrase', async (t) => {
  t.same([...LIST_NAMES], ['eff-large', ...BIP39])
  t.equal(PASSPHRASE_WORD_LISTS['eff-large'].words, WORDLIST)
  for (const language of PHRASE_LANGUAGES) {
    const list = PASSPHRASE_WORD_LISTS[`bip39-${language}`]
    t.equal(list.words, PHRASE_WORDLISTS[language].words, `${language}: the phrase generator's own array`)
    t.equal(list.words.length, 2048)
    t.ok(list.words.every((word) => word === word.normalize('NFKD')), `${language}: NFKD`)
  }
})

t.test('drawBip39Indexes: integers in 0..2047, every one reachable', async (t) => {
  const indexes = drawBip39Indexes(100_000)
  t.ok(indexes.every((index) => Number.isInteger(index) && index >= 0 && index < 2048))
  t.equal(new Set(indexes).size, 2048, '100,000 draws reach all 2,048 words')
})

const longestOf = (list: WordList) => Math.max(...PASSPHRASE_WORD_LISTS[list].words.map((word) => word.length)) + 1

t.test('property: every BIP-39 passphrase reads back, one way only, as list words with the capitals and the digit asked', async (t) => {
  const params = fc.record({
    words: fc.integer({ min: 3, max: 20 }),
    wordList: fc.constantFrom(...BIP39),
    separator: fc.constantFrom(' ', '\u3000', '-', ' · ', '🙂', '/'),
    capitalize: fc.boolean(),
    includeNumber: fc.boolean(),
    quantity: fc.integer({ min: 1, max: 5 })
  })
  fc.assert(fc.property(params, (request) => {
    const list = new Set(PASSPHRASE_WORD_LISTS[request.wordList].words)
    return generatePassphrases(request).every((value) => {
      const { first, count } = readPassphrase(value, request, list, longestOf(request.wordList))
      const digits = value.match(/[0-9]/g)?.length ?? 0
      return count === 1 && first !== undefined && digits === (request.includeNumber ? 1 : 0)
    })
  }), { numRuns: 500 })
  t.pass('500 runs')
})

t.test('capitalize: the first letter in upper case where the script has case, CJK and Hangul as they are', async (t) => {
  for (const wordList of LIST_NAMES) {
    const [value] = generatePassphrases({ ...DEFAULTS, wordList, separator: ' ', capitalize: true, words: 20 })
    const words = (value as string).split(' ')
    const list = PASSPHRASE_WORD_LISTS[wordList].words
    if (CASELESS.has(wordList)) t.ok(words.every((word) => list.includes(word)), `${wordList}: words unchanged`)
    else t.ok(words.every((word) => word.charAt(0) !== word.charAt(0).toLowerCase() && list.includes(word.charAt(0).toLowerCase() + word.slice(1))), `${wordList}: ${words.slice(0, 3).join(' ')}`)
  }
  t.equal(capitalized('e\u0301le\u0300ve'), 'E\u0301le\u0300ve', 'an NFKD accent stays on its capital')
  t.equal(capitalized('あい'), 'あい')
})

t.test('the separator: phrase\'s rule for BIP-39 lists, on top of the passphrase rule', async (t) => {
  const problem = (wordList: WordList, separator: string) => {
    try {
      generatePassphrases({ ...DEFAULTS, wordList, separator })
      return undefined
    } catch (error) {
      const [first] = (error as ParameterError).problems
      return `${first?.code} ${first?.message ?? ''}`.trim()
    }
  }
  for (const wordList of BIP39) {
    t.equal(problem(wordList, ''), 'TOO_SHORT', `${wordList}: empty`)
    t.equal(problem(wordList, 'a'), 'NOT_ALLOWED_VALUE SEPARATOR_HAS_LETTER_OR_DIGIT', `${wordList}: a letter`)
    t.equal(problem(wordList, ' '), undefined, `${wordList}: a space`)
  }
  t.equal(problem('eff-large', ''), undefined, 'the EFF list is prefix-free: empty allowed')
  // Characters no letter, but in the words: combining marks after a first character
  t.equal(problem('bip39-french', '-\u0301'), 'NOT_ALLOWED_VALUE SEPARATOR_HAS_WORD_CHARACTER')
  t.equal(problem('bip39-spanish', '-\u0303'), 'NOT_ALLOWED_VALUE SEPARATOR_HAS_WORD_CHARACTER')
  t.equal(problem('bip39-japanese', '-\u3099'), 'NOT_ALLOWED_VALUE SEPARATOR_HAS_WORD_CHARACTER')
  t.equal(problem('bip39-english', '-\u0301'), undefined, 'English words hold no accent')
  t.equal(problem('eff-large', '-\u0301'), undefined)
  try {
    generatePassphrases({ ...DEFAULTS, wordList: 'bip39-french', separator: '-\u0301' })
  } catch (error) {
    t.same((error as ParameterError).problems[0]?.args, { language: 'bip39-french' }, 'the message names the list')
  }
})

t.test('passphraseEntropyBits per list: words × log2(N), plus log2(10 × words) with includeNumber', async (t) => {
  for (const wordList of LIST_NAMES) {
    const size = BigInt(wordList === 'eff-large' ? 7776 : 2048)
    for (const words of [3, 6, 20]) {
      for (const includeNumber of [false, true]) {
        const count = size ** BigInt(words) * (includeNumber ? 10n * BigInt(words) : 1n)
        t.ok(isFloorOf(count, passphraseEntropyBits({ ...DEFAULTS, wordList, words, includeNumber })), `${wordList} ${words} ${includeNumber}`)
      }
    }
  }
  t.equal(passphraseEntropyBits({ ...DEFAULTS, wordList: 'bip39-korean' }), 66)
})

t.test('HTTP', async (t) => {
  const app = await build(t)
  t.test('every list, POST and GET alike, values read back', async (t) => {
    for (const wordList of LIST_NAMES) {
      const params = { wordList, separator: ' ', words: 8, quantity: 5, includeNumber: true }
      const [viaPost, viaGet] = [await post(app, 'passphrase', params), await get(app, 'passphrase', params)]
      t.same([viaPost.statusCode, viaGet.statusCode], [200, 200], wordList)
      t.equal(viaPost.json().entropyBits, viaGet.json().entropyBits)
      const list = new Set(PASSPHRASE_WORD_LISTS[wordList].words)
      for (const value of [...viaPost.json().values, ...viaGet.json().values]) {
        t.equal(readPassphrase(value, { ...DEFAULTS, ...params }, list, longestOf(wordList)).count, 1, `${wordList}: reads back`)
      }
    }
    t.equal((await post(app, 'passphrase', { wordList: 'bip39-english' })).json().entropyBits, 66, 'six words of 11 bits')
  })
  t.test('the separator errors of a BIP-39 list', async (t) => {
    const empty = (await post(app, 'passphrase', { wordList: 'bip39-english', separator: '' })).json()
    t.same(empty.errors, [{ pointer: '#/separator', code: 'TOO_SHORT', detail: '“separator” must have at least 1 character(s).' }])
    const mark = (await get(app, 'passphrase', { wordList: 'bip39-french', separator: '-\u0301' })).json()
    t.same(mark.errors.map((e: { pointer: string, code: string }) => [e.pointer, e.code]), [['#/separator', 'NOT_ALLOWED_VALUE']])
    t.match(mark.detail, /bip39-french/)
  })
})
