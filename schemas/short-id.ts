import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'

export const ShortIdParams = Params('ShortIdParams', {
  length: Type.Integer({ minimum: 2, maximum: 256, default: 8, description: 'Lowercase hex characters per identifier (2..256).' }),
  quantity: Quantity
}, {
  description: 'Short lowercase hex identifier parameters (Xray REALITY shortIds).',
  examples: [{ length: 16, quantity: 3 }]
})

export const ShortIdResult = GenerationResult('ShortIdResult', 'short-id', { closedAlphabet: true })
