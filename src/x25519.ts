// X25519 and Ed25519 public keys by node:crypto (OpenSSL), never by curve code of our own.
import { createPrivateKey } from 'node:crypto'

/**
 * The public key of a raw 32-byte private key of curve `crv`, as raw bytes. The key goes in as a
 * JWK (`d` is its base64url): OpenSSL decodes that several times faster than a PKCS#8 DER
 * wrapping. Node asks for the public part `x` as a string but derives the public key from `d` alone.
 */
function publicKeyOf (crv: 'X25519' | 'Ed25519', privateKey: Buffer): Buffer {
  const key = createPrivateKey({ key: { kty: 'OKP', crv, d: privateKey.toString('base64url'), x: '' }, format: 'jwk' })
  return Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url')
}

/** X25519(privateKey, 9): OpenSSL clamps the scalar itself, so unclamped keys (age's) work too. */
export function x25519PublicKey (privateKey: Buffer): Buffer {
  return publicKeyOf('X25519', privateKey)
}

/** The Ed25519 public key of a 32-byte seed (RFC 8032: the seed is the private key). */
export function ed25519PublicKey (seed: Buffer): Buffer {
  return publicKeyOf('Ed25519', seed)
}
