import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { bech32 } from '@scure/base'
import { AgeKeyParams, AgeKeyResult } from '../schemas/age-key.js'
import { DIGITS, LETTERS } from '../src/random/alphabets.js'
import type { Generated } from '../src/http/generator-route.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { randomChunks } from '../src/random/csprng.js'
import { x25519PublicKey } from '../src/keys/x25519.js'

type Params = Static<typeof AgeKeyParams>

// age's Bech32 human-readable parts (age-encryption.org/v1): identities are written in upper case
const IDENTITY_PREFIX = 'age-secret-key-'
const RECIPIENT_PREFIX = 'age'

/** Every character of an identity (upper case) or a recipient (lower case): Bech32's and the prefixes'. */
export const AGE_KEY_ALPHABET = LETTERS + DIGITS + '-'

/** Bech32 (BIP 173) of `bytes` under `prefix`; the 5-bit groups of a secret are wiped once encoded. */
function bech32Of (prefix: string, bytes: Uint8Array): string {
  const words = bech32.toWords(bytes)
  const text = bech32.encode(prefix, words)
  words.fill(0)
  return text
}

/**
 * `quantity` age identities as `age-keygen` makes them: 32 random bytes stored as drawn (X25519
 * clamps them when it uses them), `AGE-SECRET-KEY-1...`; the recipient `age1...` is X25519 of the
 * key by node:crypto. One draw, wiped once encoded.
 */
export function generateAgeKeys ({ quantity }: Params): Generated {
  const publicKeys: string[] = []
  const values = randomChunks(32, quantity, (bytes, start, end) => {
    const key = bytes.subarray(start, end)
    publicKeys.push(bech32Of(RECIPIENT_PREFIX, x25519PublicKey(key)))
    return bech32Of(IDENTITY_PREFIX, key).toUpperCase()
  })
  // 256 random bits, of which X25519's clamping fixes 5 (CONTRACT §2 age-key)
  return { values, publicKeys, entropyBits: 251 }
}

export default fp(async function ageKeyGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'age-key',
    name: 'AgeKey',
    summary: 'Generate age X25519 identities',
    description: 'age X25519 identities as `age-keygen` makes them. Each value is the identity (`AGE-SECRET-KEY-1` and 58 more characters): the line of a key file for `age -d -i key.txt`, or `SOPS_AGE_KEY`. Its public key, in `publicKeys`, is the recipient (`age1` and 58 more characters, as `age-keygen -y` prints it) for `age -r`, a recipients file, or the `age` key of a `.sops.yaml` creation rule.',
    params: AgeKeyParams,
    result: AgeKeyResult,
    alphabet: AGE_KEY_ALPHABET,
    generate: generateAgeKeys,
    keyPairs: () => true
  })
}, { name: 'generator-age-key', dependencies: ['errors'] })
