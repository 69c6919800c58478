import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { hash } from 'node:crypto'
import { TOKEN_PREFIX_PATTERN, TokenParams, TokenResult } from '../schemas/token.js'
import { BASE62 } from '../src/random/alphabets.js'
import { entropyBitsOfString } from '../src/random/entropy.js'
import { ParameterError } from '../src/http/parameter-error.js'
import { registerGenerator, type Generated } from '../src/http/generator-route.js'
import { crc32 } from '../src/builtins.js'
import { randomStrings } from '../src/random/csprng.js'

type Params = Static<typeof TokenParams>

/** Every character of a token: the prefix's a-z 0-9, the `_`, and base 62. */
export const TOKEN_ALPHABET = BASE62 + '_'

/** The checksum's base-62 digits: 62^6 > 2^32, so every CRC-32 fits, left-padded with `0`. */
export const CHECKSUM_LENGTH = 6

const PREFIX = new RegExp(TOKEN_PREFIX_PATTERN)

/**
 * GitHub's token checksum: the CRC-32 (IEEE 802.3, zlib's) of the random part's ASCII bytes, in
 * base 62 over BASE62, most significant digit first. The CRC is node:zlib's, not a table of ours.
 */
export function tokenChecksum (random: string): string {
  let crc = crc32(random)
  let digits = ''
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    digits = (BASE62[crc % 62] as string) + digits
    crc = Math.floor(crc / 62)
  }
  return digits
}

/** The prefix rule (its length is the schema's). */
export function checkPrefix ({ prefix }: Pick<Params, 'prefix'>): void {
  if (!PREFIX.test(prefix)) {
    throw new ParameterError([{ pointer: '#/prefix', code: 'NOT_ALLOWED_VALUE', message: 'PREFIX_NOT_ALLOWED' }])
  }
}

/**
 * `quantity` tokens `<prefix>_<random><checksum>`: `random` is `length` characters, each uniform
 * over the 62 of BASE62 and independent of the others (randomStrings rejects the bytes that would
 * bias them); the prefix and checksum add no randomness.
 */
export function generateTokens ({ prefix, length, quantity }: Params): string[] {
  checkPrefix({ prefix })
  return randomStrings(BASE62, length, quantity).map((random) => `${prefix}_${random}${tokenChecksum(random)}`)
}

/** What a server stores instead of a token: its SHA-256 (of its UTF-8 bytes) in lowercase hex. */
export function tokenHash (token: string): string {
  return hash('sha256', token, 'hex')
}

/** `length` independent characters uniform over 62. */
export function tokenEntropyBits ({ length }: Params): number {
  return entropyBitsOfString(BASE62.length, length)
}

export function generateTokenResult (params: Params): Generated {
  const values = generateTokens(params)
  return { values, hashes: values.map(tokenHash), entropyBits: tokenEntropyBits(params) }
}

export default fp(async function tokenGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'token',
    name: 'Token',
    summary: 'Generate API tokens with a checksum',
    description: 'API tokens in GitHub\'s format, `<prefix>_<random><checksum>`: `length` random characters, each uniform over `0-9 A-Z a-z`, then the CRC-32 (IEEE, zlib\'s) of those characters ' +
      'in base 62 (`0-9 A-Z a-z` order, most significant digit first, left-padded with `0` to 6 characters), which secret scanners verify and which catches a mistyped character offline. ' +
      '`hashes` holds the SHA-256 of each token (64 lowercase hex characters): store that, never the token. `entropyBits` is length × log2(62).',
    params: TokenParams,
    result: TokenResult,
    alphabet: TOKEN_ALPHABET,
    generate: generateTokenResult,
    check: checkPrefix
  })
}, { name: 'generator-token', dependencies: ['errors'] })
