// JSON Web Keys (RFC 7517, 7518, 8037) as CONTRACT §13 writes them: one line of JSON with
// exactly `kty`, the key's members, `alg`, `use` and `kid`, in that order, and nothing else
// (no `key_ops`, no `ext`: readers that check them would refuse a key used otherwise).
import { createHash } from 'node:crypto'

export type KeyType = 'OKP' | 'EC' | 'RSA' | 'oct'
/** A key's members by name, values already Base64url (or a curve's name), in writing order. */
export type Members = Record<string, string>

/** RFC 7638 §3.2: the members a thumbprint covers, in lexicographic order. */
const THUMBPRINT_MEMBERS: Record<KeyType, readonly string[]> = {
  OKP: ['crv', 'kty', 'x'],
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  oct: ['k', 'kty']
}

/**
 * The RFC 7638 thumbprint (SHA-256, Base64url) of a key's public members (the secret `k` for
 * `oct`): the same key always gets the same `kid`, and anyone can recompute it. JSON.stringify
 * writes exactly the RFC's form: no whitespace, and these values hold nothing it would escape.
 */
export function thumbprint (kty: KeyType, members: Members): string {
  const required = Object.fromEntries(THUMBPRINT_MEMBERS[kty].map((name) => [name, name === 'kty' ? kty : members[name]]))
  return createHash('sha256').update(JSON.stringify(required)).digest('base64url')
}

/** The private JWK line and, for a key pair, its public one (none for `oct`: its key is the secret). */
export interface JwkPair { value: string, publicKey?: string }

/**
 * `publicMembers` then `privateMembers` make the private JWK; the public JWK has the first alone.
 * Both carry the same `kid`, from the public members (from the secret for `oct`).
 */
export function jwkPair (kty: KeyType, alg: string, publicMembers: Members, privateMembers: Members): JwkPair {
  const kid = thumbprint(kty, { ...publicMembers, ...privateMembers })
  const tail = { alg, use: 'sig', kid }
  const value = JSON.stringify({ kty, ...publicMembers, ...privateMembers, ...tail })
  return kty === 'oct' ? { value } : { value, publicKey: JSON.stringify({ kty, ...publicMembers, ...tail }) }
}

/** A JWK Set (RFC 7517 §5) of public JWK lines, written around them as they are. */
export function jwkSet (publicJwks: readonly string[]): string {
  return `{"keys":[${publicJwks.join(',')}]}`
}
