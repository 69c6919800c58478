import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'

/** CONTRACT §2 token: what `prefix` may hold (its length is the schema's). */
export const TOKEN_PREFIX_PATTERN = '^[a-z][a-z0-9]*$'

export const TokenParams = Params('TokenParams', {
  prefix: Type.String({
    minLength: 1,
    maxLength: 16,
    default: 'rg',
    description: 'Comes before the `_`: 1..16 characters a-z 0-9, the first a letter (`ghp`, `myapp`), so a secret scanner can tell whose token it found. ' +
      'Any other character: NOT_ALLOWED_VALUE.',
    examples: ['myapp']
  }),
  length: Type.Integer({ minimum: 16, maximum: 128, default: 30, description: 'Random base-62 characters between the `_` and the 6-character checksum (16..128).' }),
  quantity: Quantity
}, {
  description: 'API token parameters (GitHub\'s format: prefix, `_`, random base-62 characters, CRC-32 checksum).',
  examples: [{ prefix: 'myapp', length: 30, quantity: 2 }]
})

export const TokenResult = GenerationResult('TokenResult', 'token', { hashes: true, closedAlphabet: true })
