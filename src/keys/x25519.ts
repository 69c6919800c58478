// X25519 and Ed25519 public keys by node:crypto (OpenSSL), never by curve code of our own.
import { createPrivateKey, createPublicKey, type PrivateKeyInput } from 'node:crypto'

type Curve = 'X25519' | 'Ed25519'

export interface CurveBackend {
  name: string
  /** The raw 32-byte public key of a raw 32-byte private key of curve `crv`. */
  publicKeyOf: (crv: Curve, privateKey: Buffer) => Buffer
}

/**
 * Node ≥ 24.7 takes and gives raw keys (`raw-private`, `raw-public`); @types/node 22 knows neither,
 * so the options are spelled out. Node 26 refuses the JWK below (it checks `x`), so this is the
 * only way in there; on 26, 70 µs of CPU per X25519 key against 135 µs for a PKCS#8 DER wrapping.
 */
export const RAW: CurveBackend = {
  name: 'raw',
  publicKeyOf: (crv, privateKey) => {
    const input = { key: privateKey, format: 'raw-private', asymmetricKeyType: crv.toLowerCase() } as unknown as PrivateKeyInput
    return createPublicKey(createPrivateKey(input)).export({ format: 'raw-public' } as unknown as { format: 'der', type: 'spki' })
  }
}

/**
 * Node 20 and 22 have no raw formats: the key goes in as a JWK (`d` is its base64url), which their
 * OpenSSL decodes several times faster than a PKCS#8 DER wrapping (~1 ms a key on Node 20). They
 * ask for the public part `x` as a string but derive the public key from `d` alone.
 */
export const JWK: CurveBackend = {
  name: 'jwk',
  publicKeyOf: (crv, privateKey) => {
    const key = createPrivateKey({ key: { kty: 'OKP', crv, d: privateKey.toString('base64url'), x: '' }, format: 'jwk' })
    return Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url')
  }
}

/** The first of `candidates` that makes both curves' keys on this runtime. */
export function pickCurveBackend (candidates: readonly CurveBackend[]): CurveBackend {
  const zero = Buffer.alloc(32, 1)
  for (const candidate of candidates) {
    try {
      candidate.publicKeyOf('X25519', zero)
      candidate.publicKeyOf('Ed25519', zero)
      return candidate
    } catch {}
  }
  throw new Error('no X25519/Ed25519 key import answers on this runtime')
}

const CURVES = pickCurveBackend([RAW, JWK])

/** X25519(privateKey, 9): OpenSSL clamps the scalar itself, so unclamped keys (age's) work too. */
export function x25519PublicKey (privateKey: Buffer): Buffer {
  return CURVES.publicKeyOf('X25519', privateKey)
}

/** The Ed25519 public key of a 32-byte seed (RFC 8032: the seed is the private key). */
export function ed25519PublicKey (seed: Buffer): Buffer {
  return CURVES.publicKeyOf('Ed25519', seed)
}
