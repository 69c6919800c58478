import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity, StringEnum } from './common.js'

export const UUID_FORMATS = ['standard', 'v7', 'ulid', 'numeric', 'alpha', 'alphanumeric', 'urlsafe'] as const

export const UuidParams = Params('UuidParams', {
  format: StringEnum(UUID_FORMATS, {
    default: 'standard',
    description: 'standard: RFC 9562 UUID version 4, lowercase (36 characters, 122 random bits); ' +
      'v7: RFC 9562 UUID version 7, lowercase: the Unix time in milliseconds when it was made, then 74 random bits; ' +
      'ulid: a ULID, 26 upper-case Crockford Base32 characters: the millisecond time, then 80 random bits; ' +
      'numeric: `length` characters of 0-9; alpha: of A-Z a-z; alphanumeric: of A-Z a-z 0-9; ' +
      'urlsafe: of A-Z a-z 0-9 _ - (the nanoid alphabet, 6 bits per character). ' +
      'The values of one v7 or ulid response are in strictly ascending order (so are their strings).',
    examples: ['v7', 'ulid', 'urlsafe']
  }),
  length: Type.Integer({
    minimum: 2,
    maximum: 256,
    default: 32,
    description: 'Characters per compact identifier (numeric, alpha, alphanumeric, urlsafe), 2..256; ignored for standard, v7 and ulid, whose length is fixed.'
  }),
  quantity: Quantity
}, {
  description: 'UUID (v4, v7), ULID or compact identifier parameters.',
  examples: [{ format: 'v7', quantity: 5 }, { format: 'ulid', quantity: 5 }, { format: 'urlsafe', length: 21 }]
})

export const UuidResult = GenerationResult('UuidResult', 'uuid', { closedAlphabet: true })
