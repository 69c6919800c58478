import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'

export const PasswordParams = Params('PasswordParams', {
  length: Type.Integer({ minimum: 6, maximum: 128, default: 20, description: 'Characters per password (6..128).' }),
  uppercase: Type.Boolean({ default: true, description: 'Include A-Z.' }),
  lowercase: Type.Boolean({ default: true, description: 'Include a-z.' }),
  numbers: Type.Boolean({ default: true, description: 'Include 0-9.' }),
  symbols: Type.Boolean({ default: true, description: 'Include the 28 symbols !#$%&()*+,-./:;<=>?@[]^_{|}~' }),
  quantity: Quantity
}, {
  description: 'Password parameters. Every enabled set appears at least once; at least one set must be enabled.',
  examples: [{ length: 24, symbols: false, quantity: 2 }]
})

export const PasswordResult = GenerationResult('PasswordResult', 'password')
