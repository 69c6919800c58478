import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { ShortIdParams, ShortIdResult } from '../schemas/short-id.js'
import { HEX } from '../src/random/alphabets.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { randomChunks } from '../src/random/csprng.js'

type Params = Static<typeof ShortIdParams>

/**
 * `length` lowercase hex characters: each is 4 random bits, so each is uniform over 0-9a-f. All
 * values come from one draw, each from its own bytes.
 */
/** Every character of a value: lowercase hex. */
export const SHORT_ID_ALPHABET = HEX

export function generateShortIds ({ length, quantity }: Params): string[] {
  return randomChunks(Math.ceil(length / 2), quantity, (bytes, start, end) => bytes.toString('hex', start, end).slice(0, length))
}

/** Every hex digit is 4 uniform bits. */
export function shortIdEntropyBits ({ length }: Params): number {
  return 4 * length
}

export default fp(async function shortIdGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'short-id',
    name: 'ShortId',
    summary: 'Generate short hex identifiers',
    description: 'Lowercase hexadecimal identifiers of `length` characters, such as Xray REALITY `shortIds`.',
    params: ShortIdParams,
    result: ShortIdResult,
    alphabet: SHORT_ID_ALPHABET,
    generate: (params) => ({ values: generateShortIds(params), entropyBits: shortIdEntropyBits(params) })
  })
}, { name: 'generator-short-id', dependencies: ['errors'] })
