import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity, StringEnum } from './common.js'

export const SEQ_ENCODINGS = ['hex', 'base64', 'base64url', 'base32'] as const

export const SeqParams = Params('SeqParams', {
  byteLength: Type.Integer({ minimum: 2, maximum: 256, default: 32, description: 'Random bytes per value, before encoding (2..256).' }),
  encoding: StringEnum(SEQ_ENCODINGS, {
    default: 'hex',
    description: 'hex: lowercase; base64: standard alphabet, padded; base64url: RFC 4648 §5, no padding; base32: RFC 4648 §6 (A-Z 2-7), upper case, no padding, as authenticator apps take a TOTP secret.'
  }),
  quantity: Quantity
}, {
  description: 'Random byte sequence parameters.',
  examples: [{ byteLength: 16, encoding: 'base64url' }, { byteLength: 20, encoding: 'base32' }]
})

export const SeqResult = GenerationResult('SeqResult', 'seq', { closedAlphabet: true })
