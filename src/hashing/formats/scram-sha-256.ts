// CONTRACT §12: a SCRAM-SHA-256 verifier (RFC 5802, RFC 7677) as PostgreSQL stores it in
// pg_authid.rolpassword and PgBouncer reads it in userlist.txt:
// `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, Base64 with padding.
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto'
import type { Static } from '@sinclair/typebox'
import type { ScramSha256Hash } from '../../../schemas/hash.js'
import { scramPasswordBytes } from './saslprep.js'

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

export function scramSha256Hash (value: string, salt: Uint8Array, settings: Static<typeof ScramSha256Hash>): string {
  // Synchronous on purpose: formats run on a hashing thread (src/work-pool/pool.ts), never on the event loop
  const saltedPassword = pbkdf2Sync(scramPasswordBytes(value), salt, settings.iterations, 32, 'sha256')
  const clientKey = createHmac('sha256', saltedPassword).update('Client Key').digest()
  const storedKey = createHash('sha256').update(clientKey).digest()
  const serverKey = createHmac('sha256', saltedPassword).update('Server Key').digest()
  return `SCRAM-SHA-256$${settings.iterations}:${base64(salt)}$${base64(storedKey)}:${base64(serverKey)}`
}
