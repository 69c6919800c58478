// CONTRACT §12: every salt is fresh from the CSPRNG, one per hash, drawn on the event loop where
// every other random value is drawn (src/random/), then handed with its value to a hashing thread.
import type { HashAlgorithm } from '../../schemas/hash.js'
import { randomBytes, randomString } from '../random/csprng.js'

/** crypt(3)'s salt alphabet: `./0-9A-Za-z`. */
export const CRYPT_SALT_ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** Salt bytes per algorithm (CONTRACT §12); sha512-crypt's are 16 characters of CRYPT_SALT_ALPHABET. */
export const SALT_BYTES: Readonly<Record<HashAlgorithm, number>> = {
  argon2id: 16,
  bcrypt: 16,
  'sha512-crypt': 16,
  'scram-sha-256': 16,
  mosquitto: 12
}

/** A fresh salt for one hash of `algorithm`. */
export function saltFor (algorithm: HashAlgorithm): Uint8Array {
  if (algorithm === 'sha512-crypt') return Buffer.from(randomString(CRYPT_SALT_ALPHABET, SALT_BYTES[algorithm]), 'latin1')
  return randomBytes(SALT_BYTES[algorithm])
}
