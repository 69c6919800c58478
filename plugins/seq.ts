import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { base32, base32nopad } from '@scure/base'
import { PADDING_WHEN_LEFT_OUT, SEQ_PREFIX_CHARACTERS, SeqParams, SeqResult } from '../schemas/seq.js'
import { BASE32, BASE64, BASE64URL, HEX } from '../src/random/alphabets.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { ParameterError } from '../src/http/parameter-error.js'
import { randomChunks } from '../src/random/csprng.js'

type Params = Static<typeof SeqParams>
type Encoding = Params['encoding']
type Encoder = (bytes: Buffer, start: number, end: number) => string

/** Base64's padding to a whole 4-character quantum, which Node's base64url leaves out. */
const padded64 = (text: string): string => text + '='.repeat((4 - text.length % 4) % 4)
/** Node's base64 without its `=` (at most two, at the end). */
const unpadded64 = (text: string): string => text.replace(/=+$/, '')

/**
 * Encoders of `bytes[start, end)`, unpadded and padded: Node's Buffer for lowercase hex, Base64
 * and base64url (padded by Node for base64, unpadded for base64url: the other variant adds or
 * drops the `=` alone), @scure/base for RFC 4648 §6 base32 in both variants. Hex has no padding.
 */
const ENCODE: Record<Encoding, readonly [unpadded: Encoder, padded: Encoder]> = {
  hex: [(bytes, start, end) => bytes.toString('hex', start, end), (bytes, start, end) => bytes.toString('hex', start, end)],
  base64: [(bytes, start, end) => unpadded64(bytes.toString('base64', start, end)), (bytes, start, end) => bytes.toString('base64', start, end)],
  base64url: [(bytes, start, end) => bytes.toString('base64url', start, end), (bytes, start, end) => padded64(bytes.toString('base64url', start, end))],
  base32: [(bytes, start, end) => base32nopad.encode(bytes.subarray(start, end)), (bytes, start, end) => base32.encode(bytes.subarray(start, end))]
}

/** Every character of a value, in any of the four encodings (`=` among Base64's), after any prefix. */
export const SEQ_ALPHABET = HEX + BASE64 + BASE64URL + BASE32 + SEQ_PREFIX_CHARACTERS

/** Whether `=` pads the values of these parameters (CONTRACT §14.2: by encoding, when `padding` is left out). */
export function seqPadded ({ encoding, padding }: Pick<Params, 'encoding' | 'padding'>): boolean {
  return padding ?? PADDING_WHEN_LEFT_OUT[encoding] ?? false
}

/** CONTRACT §14.2's rule beyond the schema: hex has no padding to ask for. */
export function checkSeq ({ encoding, padding }: Pick<Params, 'encoding' | 'padding'>): void {
  if (encoding === 'hex' && padding !== undefined) {
    throw new ParameterError([{ pointer: '#/padding', code: 'NOT_ALLOWED_VALUE', message: 'PADDING_NOT_FOR_HEX' }])
  }
}

/** What a draw needs: the route's parameters, `prefix` optional for callers of the pure function (none: ''). */
export type SeqDraw = Omit<Params, 'prefix'> & Partial<Pick<Params, 'prefix'>>

/** `byteLength` random bytes per value, `prefix` before each; all values come from one draw, each from its own bytes. */
export function generateSequences (params: SeqDraw): string[] {
  checkSeq(params)
  const encode = ENCODE[params.encoding][seqPadded(params) ? 1 : 0]
  const { prefix = '' } = params
  return randomChunks(params.byteLength, params.quantity, prefix === '' ? encode : (bytes, start, end) => prefix + encode(bytes, start, end))
}

/** Every byte is uniform: 8 bits each; the prefix and padding add nothing. */
export function seqEntropyBits ({ byteLength }: Pick<Params, 'byteLength'>): number {
  return 8 * byteLength
}

export default fp(async function seqGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'seq',
    name: 'Seq',
    summary: 'Generate random bytes',
    description: '`byteLength` random bytes, encoded as lowercase hex, standard Base64, base64url (RFC 4648 §5) or upper-case base32 (RFC 4648 §6, as authenticator apps take TOTP secrets). ' +
      '`padding` pads to a whole quantum with `=` (by default Base64 only); `prefix` is written before each value (Laravel\'s `base64:`). A Fernet key: `{"byteLength": 32, "encoding": "base64url", "padding": true}`.',
    params: SeqParams,
    result: SeqResult,
    alphabet: SEQ_ALPHABET,
    generate: (params) => ({ values: generateSequences(params), entropyBits: seqEntropyBits(params) }),
    check: checkSeq
  })
}, { name: 'generator-seq', dependencies: ['errors'] })
