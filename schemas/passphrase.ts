import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'

export const PassphraseParams = Params('PassphraseParams', {
  words: Type.Integer({
    minimum: 3,
    maximum: 20,
    default: 6,
    description: 'Words per passphrase (3..20), each drawn independently and uniformly from the 7,776 words of the EFF large word list: log2(7776) ≈ 12.92 bits per word.'
  }),
  separator: Type.String({
    minLength: 0,
    maxLength: 4,
    default: '-',
    description: 'Joins the words: 0..4 characters (Unicode code points), none of them a letter, a digit, a control or an invisible character (zero-width, bidirectional and other format characters), and not starting with a combining mark. Four list words carry a hyphen of their own (drop-down, felt-tip, t-shirt, yo-yo).'
  }),
  capitalize: Type.Boolean({ default: false, description: 'Upper-case the first letter of every word (`Abacus`, `T-shirt`).' }),
  includeNumber: Type.Boolean({
    default: false,
    description: 'Append one digit 0-9, chosen uniformly, to one word, chosen uniformly: log2(10 × words) more bits.'
  }),
  quantity: Quantity
}, {
  description: 'Passphrase parameters: `words` words from the EFF large word list (7,776 lower-case words), each chosen independently and uniformly, joined with `separator`.',
  examples: [{ words: 8, separator: ' ' }, { words: 5, separator: '.', capitalize: true, includeNumber: true, quantity: 3 }]
})

export const PassphraseResult = GenerationResult('PassphraseResult', 'passphrase')
