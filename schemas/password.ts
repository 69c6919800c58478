import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'

const Minimum = (set: string) => Type.Integer({
  minimum: 0,
  maximum: 128,
  default: 1,
  description: `The fewest ${set} characters (0..128); counts only while that set is enabled. The enabled sets' minimums must add up to at most \`length\`.`
})

export const PasswordParams = Params('PasswordParams', {
  length: Type.Integer({ minimum: 6, maximum: 128, default: 20, description: 'Characters per password (6..128).' }),
  uppercase: Type.Boolean({ default: true, description: 'Include A-Z.' }),
  lowercase: Type.Boolean({ default: true, description: 'Include a-z.' }),
  numbers: Type.Boolean({ default: true, description: 'Include 0-9.' }),
  symbols: Type.Boolean({ default: true, description: 'Include the 28 symbols !#$%&()*+,-./:;<=>?@[]^_{|}~' }),
  minUppercase: Minimum('A-Z'),
  minLowercase: Minimum('a-z'),
  minNumbers: Minimum('0-9'),
  minSymbols: Minimum('symbol'),
  avoidAmbiguous: Type.Boolean({ default: false, description: 'Leave out the look-alikes I O l o 0 1 | (24 upper case, 24 lower case, 8 digits and 27 symbols remain).' }),
  quantity: Quantity
}, {
  description: 'Password parameters. Every password is uniform over all passwords of `length` characters from the enabled sets that hold at least each enabled set\'s minimum; at least one set must be enabled.',
  examples: [{ length: 24, symbols: false, quantity: 2 }, { length: 16, minNumbers: 2, minSymbols: 2, avoidAmbiguous: true }]
})

export const PasswordResult = GenerationResult('PasswordResult', 'password', { closedAlphabet: true })
