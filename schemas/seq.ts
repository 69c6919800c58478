import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity, StringEnum } from './common.js'

export const SEQ_ENCODINGS = ['hex', 'base64', 'base64url'] as const

export const SeqParams = Params('SeqParams', {
  byteLength: Type.Integer({ minimum: 2, maximum: 256, default: 32, description: 'Random bytes per value, before encoding (2..256).' }),
  encoding: StringEnum(SEQ_ENCODINGS, {
    default: 'hex',
    description: 'hex: lowercase; base64: standard alphabet, padded; base64url: RFC 4648 §5, no padding.'
  }),
  quantity: Quantity
}, {
  description: 'Random byte sequence parameters.',
  examples: [{ byteLength: 16, encoding: 'base64url' }]
})

export const SeqResult = GenerationResult('SeqResult', 'seq')
