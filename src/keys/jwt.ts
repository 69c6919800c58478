// CONTRACT §14.2: a JWS compact serialization (RFC 7515) signed with another item's secret or
// signing key: Supabase's ANON_KEY and SERVICE_ROLE_KEY, an API's service tokens. Every signature
// is node:crypto's (HMAC, sign); Base64url is the runtime's.
import { createHmac, createPrivateKey, createPublicKey, sign, constants, type KeyObject } from 'node:crypto'
import { thumbprint, type KeyType, type Members } from './jwk.js'

export const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const
export type HmacAlgorithm = typeof HMAC_ALGORITHMS[number]
export type JwsAlgorithm = HmacAlgorithm | 'RS256' | 'PS256' | 'ES256' | 'ES384' | 'EdDSA'

/** What signs: a secret's bytes (HMAC; an `HS*` signing key's with its `kid`), or a private key with its `kid`. */
export type JwtKey =
  | { kind: 'secret', bytes: Buffer, kid?: string }
  | { kind: 'key', key: KeyObject, kid: string }

export type ClaimValue = string | number | boolean

const HASH_OF: Record<JwsAlgorithm, string | null> = {
  HS256: 'sha256', HS384: 'sha384', HS512: 'sha512', RS256: 'sha256', PS256: 'sha256', ES256: 'sha256', ES384: 'sha384', EdDSA: null
}

/**
 * The key of a `signing-key` value: its private JWK line (an `oct` JWK's decoded `k` is an HMAC
 * secret), or its PKCS#8 PEM, whose `kid` is the RFC 7638 thumbprint of its public key, as its JWK would carry.
 */
export function signingKeyOf (value: string, format: 'jwk' | 'pem'): JwtKey {
  if (format === 'pem') {
    const key = createPrivateKey(value)
    const jwk = createPublicKey(key).export({ format: 'jwk' }) as Members & { kty: KeyType }
    return { kind: 'key', key, kid: thumbprint(jwk.kty, jwk) }
  }
  const jwk = JSON.parse(value) as Members & { kty: KeyType, kid: string }
  if (jwk.kty === 'oct') return { kind: 'secret', bytes: Buffer.from(jwk.k as string, 'base64url'), kid: jwk.kid }
  return { kind: 'key', key: createPrivateKey({ key: jwk, format: 'jwk' }), kid: jwk.kid }
}

function signature (algorithm: JwsAlgorithm, key: JwtKey, input: string): Buffer {
  const hash = HASH_OF[algorithm]
  if (key.kind === 'secret') return createHmac(hash as string, key.bytes).update(input).digest()
  // ECDSA as JWS writes it: r and s side by side (RFC 7518 §3.4), never DER; RSA-PSS with a salt as long as the hash (§3.5)
  if (algorithm === 'ES256' || algorithm === 'ES384') return sign(hash, Buffer.from(input), { key: key.key, dsaEncoding: 'ieee-p1363' })
  if (algorithm === 'PS256') return sign(hash, Buffer.from(input), { key: key.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
  return sign(hash, Buffer.from(input), key.key)
}

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url')

/**
 * The token: header `{"alg","typ":"JWT"}` (then `kid` for a signing key), payload the claims in
 * their order then `iat` and `exp` when `expiresInDays` is given.
 */
export function signJwt (algorithm: JwsAlgorithm, key: JwtKey, claims: Readonly<Record<string, ClaimValue>>, issuedAt: number, expiresInDays?: number): string {
  // CONTRACT §14.2: a signing key's `kid` after `typ`, an HS* one's too (a verifier picks the key by it)
  const header = key.kid === undefined ? { alg: algorithm, typ: 'JWT' } : { alg: algorithm, typ: 'JWT', kid: key.kid }
  const payload: Record<string, ClaimValue> = { ...claims, iat: issuedAt }
  if (expiresInDays !== undefined) payload.exp = issuedAt + expiresInDays * 86_400
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`
  return `${input}.${signature(algorithm, key, input).toString('base64url')}`
}
