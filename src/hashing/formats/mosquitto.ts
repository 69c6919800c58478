// CONTRACT §12: Mosquitto 2's `$7$<iterations>$<salt>$<hash>` (what `mosquitto_passwd` writes
// into a password_file): PBKDF2-HMAC-SHA512 over the value's UTF-8 bytes as they are (Mosquitto
// hashes the password it receives, strlen() bytes, no normalization), a 12-byte salt (Mosquitto
// refuses any other length), a 64-byte hash, both in Base64 with padding.
import { pbkdf2Sync } from 'node:crypto'
import type { Static } from '@sinclair/typebox'
import type { MosquittoHash } from '../../../schemas/hash.js'

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

export function mosquittoHash (value: string, salt: Uint8Array, settings: Static<typeof MosquittoHash>): string {
  // Synchronous on purpose: formats run on a hashing thread (src/work-pool/pool.ts), never on the event loop
  const hash = pbkdf2Sync(Buffer.from(value, 'utf8'), salt, settings.iterations, 64, 'sha512')
  return `$7$${settings.iterations}$${base64(salt)}$${base64(hash)}`
}
