import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'

const SafeInteger = (description: string, value: number) => Type.Integer({
  minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, default: value, description
})

export const NumberParams = Params('NumberParams', {
  min: SafeInteger('Smallest possible value, inclusive (a safe integer).', 0),
  max: SafeInteger('Largest possible value, inclusive (a safe integer, >= min).', 100),
  exclusions: Type.Array(
    // A string must be a base-10 integer; the pattern applies to strings only, JSON integers pass as they are
    Type.Unsafe<string | number>({ type: ['string', 'integer'], pattern: '^-?[0-9]+$', examples: ['7', '-12'] }),
    { maxItems: 1000, default: [], description: 'Values never returned: base-10 integer strings ("7", "-12") or JSON integers; at most 1000. Values outside [min, max] and duplicates are ignored.' }
  ),
  unique: Type.Boolean({ default: false, description: 'When true, no value repeats within one response.' }),
  quantity: Quantity
}, {
  description: 'Integer parameters: uniform over [min, max] minus exclusions.',
  examples: [{ min: 1, max: 6, quantity: 3 }]
})

export const NumberResult = GenerationResult('NumberResult', 'number', { closedAlphabet: true })
