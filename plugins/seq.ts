import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { base32nopad } from '@scure/base'
import { SeqParams, SeqResult } from '../schemas/seq.js'
import { BASE32, BASE64, BASE64URL, HEX } from '../src/random/alphabets.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { randomChunks } from '../src/random/csprng.js'

type Params = Static<typeof SeqParams>
type Encoding = Params['encoding']

/**
 * Encoders of `bytes[start, end)`: Node's give lowercase hex, padded base64 and unpadded
 * base64url; @scure/base gives RFC 4648 §6 base32 (A-Z 2-7) without padding, as authenticator
 * apps take TOTP secrets.
 */
const ENCODE: Record<Encoding, (bytes: Buffer, start: number, end: number) => string> = {
  hex: (bytes, start, end) => bytes.toString('hex', start, end),
  base64: (bytes, start, end) => bytes.toString('base64', start, end),
  base64url: (bytes, start, end) => bytes.toString('base64url', start, end),
  base32: (bytes, start, end) => base32nopad.encode(bytes.subarray(start, end))
}

/** `byteLength` random bytes per value; all values come from one draw, each from its own bytes. */
/** Every character of a value, in any of the four encodings. */
export const SEQ_ALPHABET = HEX + BASE64 + BASE64URL + BASE32

export function generateSequences ({ byteLength, encoding, quantity }: Params): string[] {
  return randomChunks(byteLength, quantity, ENCODE[encoding])
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
    description: '`byteLength` random bytes, encoded as lowercase hex, standard padded Base64, unpadded base64url (RFC 4648 §5) or unpadded upper-case base32 (RFC 4648 §6, as authenticator apps take TOTP secrets).',
    params: SeqParams,
    result: SeqResult,
    alphabet: SEQ_ALPHABET,
    generate: (params) => ({ values: generateSequences(params), entropyBits: seqEntropyBits(params) })
  })
}, { name: 'generator-seq', dependencies: ['errors'] })
