import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity, StringEnum } from './common.js'
import { PHRASE_LANGUAGES } from './phrase.js'
import { HashParameter } from './hash.js'

/** The word lists: the EFF large list, and the phrase generator's ten BIP-39 lists under `bip39-<language>`. */
export const PASSPHRASE_WORD_LISTS = ['eff-large', ...PHRASE_LANGUAGES.map((language) => `bip39-${language}` as const)] as const

export const PassphraseParams = Params('PassphraseParams', {
  words: Type.Integer({
    minimum: 3,
    maximum: 20,
    default: 6,
    description: 'Words per passphrase (3..20), each drawn independently and uniformly from the word list: log2(7776) ≈ 12.92 bits per word from the EFF large list, 11 bits from a BIP-39 list.'
  }),
  wordList: StringEnum(PASSPHRASE_WORD_LISTS, {
    default: 'eff-large',
    description: 'The word list: `eff-large`, the EFF large list (7,776 lower-case English words), or a BIP-39 list of 2,048 words, exactly as the phrase generator holds them (NFKD): ' +
      '`bip39-english`, `bip39-chinese_simplified`, `bip39-chinese_traditional`, `bip39-czech`, `bip39-french`, `bip39-italian`, `bip39-japanese`, `bip39-korean`, `bip39-portuguese`, `bip39-spanish`. ' +
      'With a BIP-39 list the phrase generator\'s separator rule applies as well: 1..4 characters, none that occurs in a word of the list in any Unicode normal form.',
    examples: ['bip39-spanish']
  }),
  separator: Type.String({
    minLength: 0,
    maxLength: 4,
    default: '-',
    description: 'Joins the words: 0..4 characters (Unicode code points), none of them a letter, a digit, a control or an invisible character (zero-width, bidirectional and other format characters), and not starting with a combining mark. Four EFF words carry a hyphen of their own (drop-down, felt-tip, t-shirt, yo-yo). ' +
      'With a BIP-39 `wordList`, also 1 character at least, as for the phrase generator (empty is TOO_SHORT: in the English and Spanish lists some words begin others, so words run together would not read back) and none that occurs in a word of the list in any normal form (NOT_ALLOWED_VALUE): U+3000 for Japanese, a space for any list.'
  }),
  capitalize: Type.Boolean({ default: false, description: 'Upper-case the first letter of every word where the script has case (`Abacus`, `T-shirt`, `Ábaco`); Chinese, Japanese and Korean words stay as they are.' }),
  includeNumber: Type.Boolean({
    default: false,
    description: 'Append one digit 0-9, chosen uniformly, to one word, chosen uniformly: log2(10 × words) more bits.'
  }),
  quantity: Quantity,
  hash: HashParameter
}, {
  description: 'Passphrase parameters: `words` words from `wordList` (the EFF large list by default), each chosen independently and uniformly, joined with `separator`.',
  examples: [{ words: 8, separator: ' ' }, { words: 5, separator: '.', capitalize: true, includeNumber: true, quantity: 3 }, { words: 6, wordList: 'bip39-spanish', separator: ' ' }, { words: 5, hash: { algorithm: 'bcrypt' } }]
})

export const PassphraseResult = GenerationResult('PassphraseResult', 'passphrase', { passwordHashes: true })
