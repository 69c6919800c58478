import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity, StringEnum } from './common.js'

export const UUID_FORMATS = ['standard', 'numeric', 'alpha', 'alphanumeric'] as const

export const UuidParams = Params('UuidParams', {
  format: StringEnum(UUID_FORMATS, {
    default: 'standard',
    description: 'standard: RFC 9562 UUID v4; numeric: 0-9; alpha: A-Z a-z; alphanumeric: A-Z a-z 0-9.'
  }),
  length: Type.Integer({ minimum: 2, maximum: 256, default: 32, description: 'Characters per compact identifier (2..256); ignored for standard.' }),
  quantity: Quantity
}, {
  description: 'UUID v4 or compact identifier parameters.',
  examples: [{ format: 'alphanumeric', length: 16 }]
})

export const UuidResult = GenerationResult('UuidResult', 'uuid')
