// CONTRACT §12 `bcrypt`: `$2y$`, what htpasswd writes, computed by the maintained `bcrypt`
// package (OpenBSD's bcrypt in a native addon). Synchronous on purpose: it runs on a hashing
// thread, never on the event loop.
import { hashSync } from 'bcrypt'
import type { Static } from '@sinclair/typebox'
import { BCRYPT_MAX_BYTES, type BcryptHash } from '../../../schemas/hash.js'

const SALT_BYTES = 16
const STANDARD_BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
/** bcrypt's own Base64: the same bit layout as the standard one, another alphabet, no padding. */
const BCRYPT_BASE64 = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const TO_BCRYPT = new Map(Array.from(STANDARD_BASE64, (character, index) => [character, BCRYPT_BASE64[index] as string]))

/** The 22 characters of a 16-byte salt in bcrypt's Base64 (its last carries 2 bits). */
function bcryptSalt (salt: Uint8Array): string {
  const standard = Buffer.from(salt.buffer, salt.byteOffset, salt.byteLength).toString('base64').replace(/=+$/, '')
  return Array.from(standard, (character) => TO_BCRYPT.get(character)).join('')
}

export function bcryptHash (value: string, salt: Uint8Array, settings: Static<typeof BcryptHash>): string {
  // The route refuses values that could pass 72 bytes before drawing them (TOO_LONG_FOR_HASH):
  // bcrypt would silently ignore the rest
  if (Buffer.byteLength(value, 'utf8') > BCRYPT_MAX_BYTES) throw new RangeError(`bcrypt reads at most ${BCRYPT_MAX_BYTES} bytes`)
  if (salt.length !== SALT_BYTES) throw new RangeError(`bcrypt takes a ${SALT_BYTES}-byte salt`)
  const setting = `$${settings.cost.toString().padStart(2, '0')}$${bcryptSalt(salt)}`
  // The package writes only $2a$ and $2b$; $2y$ is the same algorithm (crypt_blowfish's name for
  // the fixed one), the prefix htpasswd writes and every reader of §12 takes
  return `$2y${hashSync(value, `$2b${setting}`).slice(3)}`
}
