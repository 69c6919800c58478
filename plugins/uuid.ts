import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { UuidParams, UuidResult } from '../schemas/uuid.js'
import { entropyBitsOfString } from '../src/entropy.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomStrings, uuidV4 } from '../src/random.js'

type Params = Static<typeof UuidParams>

const DIGITS = '0123456789'
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export const COMPACT_ALPHABETS: Record<Exclude<Params['format'], 'standard'>, string> = {
  numeric: DIGITS,
  alpha: LETTERS,
  alphanumeric: LETTERS + DIGITS
}

export function generateUuids ({ format, length, quantity }: Params): string[] {
  if (format !== 'standard') return randomStrings(COMPACT_ALPHABETS[format], length, quantity)
  return Array.from({ length: quantity }, uuidV4)
}

/** A v4 UUID fixes 6 of its 128 bits (version and variant); compact IDs are uniform characters. */
export function uuidEntropyBits ({ format, length }: Params): number {
  if (format === 'standard') return 122
  return entropyBitsOfString(COMPACT_ALPHABETS[format].length, length)
}

export default fp(async function uuidGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'uuid',
    name: 'Uuid',
    summary: 'Generate UUIDs or compact identifiers',
    description: 'standard: RFC 9562 UUID version 4, lowercase (36 characters); numeric, alpha, alphanumeric: `length` characters, each uniform over the alphabet.',
    params: UuidParams,
    result: UuidResult,
    generate: (params) => ({ values: generateUuids(params), entropyBits: uuidEntropyBits(params) })
  })
}, { name: 'generator-uuid', dependencies: ['errors'] })
