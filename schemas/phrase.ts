import { Type } from '@sinclair/typebox'
import { GenerationResult, IntegerEnum, Params, Quantity, StringEnum } from './common.js'

export const PHRASE_WORD_COUNTS = [12, 15, 18, 21, 24] as const

/** The BIP-39 word lists @scure/bip39 ships, by the names the BIP-39 repository (and `bip39`) gives them. */
export const PHRASE_LANGUAGES = [
  'english', 'chinese_simplified', 'chinese_traditional', 'czech', 'french',
  'italian', 'japanese', 'korean', 'portuguese', 'spanish'
] as const

export const PhraseParams = Params('PhraseParams', {
  words: IntegerEnum(PHRASE_WORD_COUNTS, { default: 12, description: 'Words per mnemonic: 12, 15, 18, 21 or 24 (128..256 bits of entropy).' }),
  language: StringEnum(PHRASE_LANGUAGES, {
    default: 'english',
    description: 'The BIP-39 word list (2,048 words each), as @scure/bip39 ships it; words are sent exactly as in the list, in NFKD as BIP-39 specifies. ' +
      'english: a-z; ' +
      'chinese_simplified: Simplified Chinese, one character per word; ' +
      'chinese_traditional: Traditional Chinese, one character per word; ' +
      'czech: a-z without diacritics; ' +
      'french: a-z, accents as combining marks (é is e + U+0301); ' +
      'italian: a-z without accents; ' +
      'japanese: hiragana, voicing marks combining (が is か + U+3099); Japanese wallets join words with U+3000, the ideographic space: send it as `separator`; ' +
      'korean: Hangul as conjoining jamo (NFKD); ' +
      'portuguese: a-z without accents; ' +
      'spanish: a-z, accents and tilde as combining marks (ñ is n + U+0303).',
    examples: ['japanese']
  }),
  separator: Type.String({
    minLength: 1,
    maxLength: 4,
    default: ' ',
    description: 'Joins the words: 1..4 characters (Unicode code points), so splitting a value on it gives the BIP-39 words. ' +
      'Refused (NOT_ALLOWED_VALUE): a character that occurs in a word of the chosen list, compared per code point in every Unicode normal form of both ' +
      '(é, as U+00E9 or as e + U+0301, is refused for french and spanish, and for every list whose words hold an e, since it decomposes to one; ' +
      'a-z for every Latin list); a control, format (zero-width, bidirectional), line or paragraph separator, surrogate or unassigned code point; ' +
      'and a first character that joins the one before it (a combining mark, a Hangul vowel or final jamo). ' +
      'One space suits every list; U+3000 is what Japanese wallets use.',
    examples: [' ']
  }),
  quantity: Quantity
}, {
  description: 'BIP-39 mnemonic parameters: `words` words of the `language` list (checksum included), joined with `separator`.',
  examples: [{ words: 24, language: 'japanese', separator: '\u3000' }, { words: 12, language: 'french', separator: '-' }]
})

export const PhraseResult = GenerationResult('PhraseResult', 'phrase')
