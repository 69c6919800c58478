// CONTRACT §13: signing keys whose making costs more than the event loop may spend (§5), made on a
// thread of the work pool (src/work-pool/pool.ts): an RSA key (one a job: up to seconds at 4096
// bits), or all of a request's ES384 keys (~0.9 ms each).

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
