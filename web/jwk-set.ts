// CONTRACT §13: the JWK Set of the keys on screen, as the API writes one (`{"keys":[...]}` around
// the public JWK lines). Asking the API for a JWK Set would make other keys, so the page builds
// it from the public keys it was given: a `jwk` answer's public JWK lines as they are; a `pem`
// answer's SPKI, a `vapid` answer's point and a `synapse` answer's verify key read into the
// members the API would write, in its order (`kty`, the key's members, `alg`, `use`, `kid`), `kid`
// the RFC 7638 thumbprint. Public keys only: nothing secret passes through here.
import { sha256 } from '@noble/hashes/sha2.js'

const SEQUENCE = 0x30
const INTEGER = 0x02
const BIT_STRING = 0x03
const OBJECT_IDENTIFIER = 0x06

/** The algorithm identifiers of SPKI (RFC 8410, RFC 5480, RFC 8017), as the hex of their DER contents. */
const ED25519 = '2b6570'
const EC_PUBLIC_KEY = '2a8648ce3d0201'
const RSA_ENCRYPTION = '2a864886f70d010101'
const CURVES: Readonly<Record<string, { crv: string, alg: string, bytes: number }>> = {
  '2a8648ce3d030107': { crv: 'P-256', alg: 'ES256', bytes: 32 },
  '2b81040022': { crv: 'P-384', alg: 'ES384', bytes: 48 }
}

interface Element { tag: number, contents: Uint8Array }

function fail (what: string): never {
  throw new Error(`not a public key the API writes: ${what}`)
}

/** The DER elements one after another in `bytes`, which they must fill exactly. */
function elements (bytes: Uint8Array): Element[] {
  const found: Element[] = []
  let offset = 0
  while (offset < bytes.length) {
    const tag = bytes[offset] ?? fail('truncated')
    let length = bytes[offset + 1] ?? fail('truncated')
    let start = offset + 2
    if (length >= 0x80) {
      const count = length & 0x7f
      if (count === 0 || count > 2) fail('length')
      length = 0
      for (let index = 0; index < count; index++) length = length * 256 + (bytes[start + index] ?? fail('truncated'))
      start += count
    }
    if (start + length > bytes.length) fail('truncated')
    found.push({ tag, contents: bytes.subarray(start, start + length) })
    offset = start + length
  }
  return found
}

/** The members of the only element of `bytes`, a SEQUENCE, each of the tag given. */
function sequence (bytes: Uint8Array, tags: readonly number[]): Element[] {
  const [only, ...rest] = elements(bytes)
  if (only === undefined || rest.length > 0 || only.tag !== SEQUENCE) fail('not a SEQUENCE')
  const members = elements(only.contents)
  if (members.length !== tags.length || members.some((member, index) => member.tag !== tags[index])) fail('unexpected members')
  return members
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')

export function base64url (bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** Base64 or Base64url, padded or not (atob's forgiving decoding takes both paddings). */
function bytesOf (text: string): Uint8Array {
  return Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (char) => char.charCodeAt(0))
}

/** An uncompressed point 04 ‖ x ‖ y of a curve's coordinates. */
function point (bytes: Uint8Array, size: number): { x: string, y: string } {
  if (bytes.length !== 1 + 2 * size || bytes[0] !== 4) fail('not an uncompressed point')
  return { x: base64url(bytes.subarray(1, 1 + size)), y: base64url(bytes.subarray(1 + size)) }
}

/** A positive INTEGER's magnitude without DER's leading zero byte (RFC 7518 §2 Base64urlUInt). */
function unsigned (integer: Uint8Array): string {
  let start = 0
  while (start < integer.length - 1 && integer[start] === 0) start++
  return base64url(integer.subarray(start))
}

type Members = Record<string, string>
interface PublicKey { kty: 'OKP' | 'EC' | 'RSA', alg: string, members: Members }

/** RFC 7638 §3.2: the members a thumbprint covers, in lexicographic order. */
const THUMBPRINT_MEMBERS = { OKP: ['crv', 'kty', 'x'], EC: ['crv', 'kty', 'x', 'y'], RSA: ['e', 'kty', 'n'] } as const

/** SPKI (RFC 5280) as the API writes it in PEM; `algorithm` tells RS256 from PS256, whose keys are alike. */
function fromSpki (pem: string, algorithm: string): PublicKey {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '')
  const [identifier, key] = sequence(bytesOf(body), [SEQUENCE, BIT_STRING]) as [Element, Element]
  if (key.contents[0] !== 0) fail('a key of a partial byte')
  const bits = key.contents.subarray(1)
  const [oid, parameters] = elements(identifier.contents)
  if (oid?.tag !== OBJECT_IDENTIFIER) fail('no algorithm')
  switch (hex(oid.contents)) {
    case ED25519:
      if (bits.length !== 32) fail('Ed25519 key length')
      return { kty: 'OKP', alg: 'EdDSA', members: { crv: 'Ed25519', x: base64url(bits) } }
    case EC_PUBLIC_KEY: {
      const curve = parameters?.tag === OBJECT_IDENTIFIER ? CURVES[hex(parameters.contents)] : undefined
      if (curve === undefined) fail('curve')
      return { kty: 'EC', alg: curve.alg, members: { crv: curve.crv, ...point(bits, curve.bytes) } }
    }
    case RSA_ENCRYPTION: {
      const [n, e] = sequence(bits, [INTEGER, INTEGER]) as [Element, Element]
      return { kty: 'RSA', alg: algorithm, members: { n: unsigned(n.contents), e: unsigned(e.contents) } }
    }
    default:
      return fail('algorithm')
  }
}

/** A Synapse verify key (CONTRACT §14.2): `ed25519:<key id> <the 32 bytes, unpadded Base64>`. */
function fromSynapse (publicKey: string): PublicKey {
  const match = /^ed25519:a_[A-Za-z0-9]+ ([A-Za-z0-9+/]{43})$/.exec(publicKey) ?? fail('not a Synapse verify key')
  const bytes = bytesOf(match[1] as string)
  if (bytes.length !== 32) fail('Ed25519 key length')
  return { kty: 'OKP', alg: 'EdDSA', members: { crv: 'Ed25519', x: base64url(bytes) } }
}

/** The public JWK line the API writes for a key: `kty`, the members, `alg`, `use`, `kid`. */
function jwkLine ({ kty, alg, members }: PublicKey): string {
  const required = Object.fromEntries(THUMBPRINT_MEMBERS[kty].map((name) => [name, name === 'kty' ? kty : members[name]]))
  const kid = base64url(sha256(new TextEncoder().encode(JSON.stringify(required))))
  return JSON.stringify({ kty, ...members, alg, use: 'sig', kid })
}

/**
 * The JWK Set of a signing-key answer's public keys, for the `algorithm` they were made for; the
 * text the API answers to `Accept: application/jwk-set+json`. Undefined for keys it cannot read.
 */
export function jwkSet (algorithm: string, publicKeys: readonly string[]): string | undefined {
  try {
    const lines = publicKeys.map((publicKey) => {
      if (publicKey.startsWith('{')) return publicKey
      if (publicKey.startsWith('-----BEGIN PUBLIC KEY-----')) return jwkLine(fromSpki(publicKey, algorithm))
      if (publicKey.startsWith('ed25519:')) return jwkLine(fromSynapse(publicKey))
      // VAPID: the P-256 point in Base64url, an ES256 key
      return jwkLine({ kty: 'EC', alg: 'ES256', members: { crv: 'P-256', ...point(bytesOf(publicKey), 32) } })
    })
    return `{"keys":[${lines.join(',')}]}`
  } catch {
    return undefined
  }
}
