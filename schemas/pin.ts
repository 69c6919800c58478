import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'

export const PinParams = Params('PinParams', {
  length: Type.Integer({ minimum: 4, maximum: 12, default: 6, description: 'Digits per PIN (4..12), leading zeros kept.' }),
  avoidWeak: Type.Boolean({
    default: true,
    description: 'Leave out the weak PINs: a shorter block repeated (1111, 1212, 123123, 000000) and straight runs up or down without wrap-around (0123, 3456789, 9876, 43210; 8901 is not weak).'
  }),
  quantity: Quantity
}, {
  description: 'PIN parameters: `length` digits, uniform over all PINs of that length, less the weak ones with `avoidWeak`.',
  examples: [{ length: 4, quantity: 3 }, { length: 8, avoidWeak: false }]
})

export const PinResult = GenerationResult('PinResult', 'pin', { closedAlphabet: true })
