// CONTRACT §12: one hash, synchronously, in the layout its reader takes. Runs on a hashing
// thread of the work pool (src/work-pool/thread.ts), never on the event loop.
import type { HashJob } from '../hash-job.js'
import { argon2idHash } from './argon2id.js'
import { bcryptHash } from './bcrypt.js'
import { sha512CryptHash } from './sha512-crypt.js'
import { scramSha256Hash } from './scram-sha-256.js'
import { mosquittoHash } from './mosquitto.js'

export function computeHash ({ settings, value, salt }: HashJob): string {
  switch (settings.algorithm) {
    case 'argon2id': return argon2idHash(value, salt, settings)
    case 'bcrypt': return bcryptHash(value, salt, settings)
    case 'sha512-crypt': return sha512CryptHash(value, salt, settings)
    case 'scram-sha-256': return scramSha256Hash(value, salt, settings)
    case 'mosquitto': return mosquittoHash(value, salt, settings)
  }
}
