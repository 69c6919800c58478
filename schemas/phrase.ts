import { Type } from '@sinclair/typebox'
import { GenerationResult, IntegerEnum, Params, Quantity } from './common.js'

export const PHRASE_WORD_COUNTS = [12, 15, 18, 21, 24] as const

export const PhraseParams = Params('PhraseParams', {
  words: IntegerEnum(PHRASE_WORD_COUNTS, { default: 12, description: 'Words per mnemonic: 12, 15, 18, 21 or 24 (128..256 bits of entropy).' }),
  separator: Type.String({
    minLength: 1,
    maxLength: 4,
    default: ' ',
    description: 'Joins the words (1..4 characters, no letters a-z): splitting a value on it gives the BIP-39 word list.'
  }),
  quantity: Quantity
}, {
  description: 'BIP-39 English mnemonic parameters.',
  examples: [{ words: 24, separator: '-' }]
})

export const PhraseResult = GenerationResult('PhraseResult', 'phrase')
