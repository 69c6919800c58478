import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { ShortIdParams, ShortIdResult } from '../schemas/short-id.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomBytes } from '../src/random.js'

type Params = Static<typeof ShortIdParams>

/**
 * `length` lowercase hex characters: each is 4 random bits, so each is uniform over 0-9a-f. All
 * values come from one draw, each from its own bytes; the draw is wiped once encoded.
 */
export function generateShortIds ({ length, quantity }: Params): string[] {
  const byteLength = Math.ceil(length / 2)
  const bytes = randomBytes(byteLength * quantity)
  const values: string[] = []
  for (let start = 0; values.length < quantity; start += byteLength) {
    const hex = bytes.toString('hex', start, start + byteLength)
    values.push(hex.length === length ? hex : hex.slice(0, length))
  }
  bytes.fill(0)
  return values
}

export default fp(async function shortIdGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'short-id',
    name: 'ShortId',
    summary: 'Generate short hex identifiers',
    description: 'Lowercase hexadecimal identifiers of `length` characters, such as Xray REALITY `shortIds`.',
    params: ShortIdParams,
    result: ShortIdResult,
    generate: generateShortIds
  })
}, { name: 'generator-short-id', dependencies: ['errors'] })
