// X25519 public keys by node:crypto (OpenSSL), never by curve code of our own.
import { createPrivateKey } from 'node:crypto'

/**
 * The X25519 public key of a raw 32-byte private key, as raw bytes. The key goes in as a JWK
 * (`d` is its base64url): OpenSSL decodes that several times faster than a PKCS#8 DER wrapping.
 * Node asks for the public part `x` as a string but derives the public key from `d` alone.
 */
export function x25519PublicKey (privateKey: Buffer): Buffer {
  const key = createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: privateKey.toString('base64url'), x: '' }, format: 'jwk' })
  return Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url')
}
