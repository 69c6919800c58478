// What one hash is made from: the settings of CONTRACT §12, the value, and its salt. A plain
// object, so a job crosses to a hashing thread (src/hashing/pool.ts) as it is.
import type { HashAlgorithm, HashSettings } from '../../schemas/hash.js'

export interface HashJob {
  settings: HashSettings
  value: string
  /** Fresh from the CSPRNG (src/hashing/salt.ts); for sha512-crypt the ASCII bytes of its 16 salt characters. */
  salt: Uint8Array
}

/**
 * CONTRACT §13: signing keys whose making costs more than the event loop may spend (§5): an RSA
 * key (one a job: up to seconds at 4096 bits), or all of a request's ES384 keys (~0.9 ms each).
 */
export interface SigningKeySettings {
  algorithm: 'signing-keys'
  jws: 'RS256' | 'PS256' | 'ES384'
  /** RSA's only. */
  modulusBits?: 2048 | 3072 | 4096
  format: 'jwk' | 'pem'
  quantity: number
}

/** Keys to make: nothing of a client's goes in. The thread answers `{ values, publicKeys }` as JSON. */
export interface SigningKeyJob {
  settings: SigningKeySettings
  value: ''
  salt: Uint8Array
}

/** What the pool runs: a hash, or signing keys. */
export type PoolJob = HashJob | SigningKeyJob
export type PoolAlgorithm = HashAlgorithm | SigningKeySettings['algorithm']
