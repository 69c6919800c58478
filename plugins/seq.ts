import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { SeqParams, SeqResult } from '../schemas/seq.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomChunks } from '../src/random.js'

type Params = Static<typeof SeqParams>

/**
 * `byteLength` random bytes; Node's encoders give lowercase hex, padded base64, unpadded base64url.
 * All values come from one draw, each from its own bytes.
 */
export function generateSequences ({ byteLength, encoding, quantity }: Params): string[] {
  return randomChunks(byteLength, quantity, (bytes, start, end) => bytes.toString(encoding, start, end))
}

/** Every byte is uniform: 8 bits each. */
export function seqEntropyBits ({ byteLength }: Params): number {
  return 8 * byteLength
}

export default fp(async function seqGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'seq',
    name: 'Seq',
    summary: 'Generate random bytes',
    description: '`byteLength` random bytes, encoded as lowercase hex, standard padded Base64 or unpadded Base64url (RFC 4648 §5).',
    params: SeqParams,
    result: SeqResult,
    generate: (params) => ({ values: generateSequences(params), entropyBits: seqEntropyBits(params) })
  })
}, { name: 'generator-seq', dependencies: ['errors'] })
