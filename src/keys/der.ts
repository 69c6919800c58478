// Reads the few DER structures node:crypto writes for a key pair (PKCS#8, SPKI, RFC 5915's
// ECPrivateKey, RFC 8017's RSAPrivateKey) to take out the numbers a JWK holds. Node exports JWKs
// itself, but on Node 20 (OpenSSL 3.0) `KeyObject.export({ format: 'jwk' })` of a generated key
// deadlocks its thread on a lock after a few hundred (RSA) to a few thousand (EC, Ed25519) calls;
// its DER export does not. Reading, never writing: every encoding we hand out is node:crypto's own.
// Strict: anything but the expected shape throws, so a runtime that changed its output fails
// loudly (and in the tests) instead of yielding a wrong key.

const SEQUENCE = 0x30
const INTEGER = 0x02
const OCTET_STRING = 0x04
const BIT_STRING = 0x03

/** One DER element: its tag and a view of its contents (the same memory, for wiping). */
export interface Element { tag: number, contents: Buffer }

function fail (what: string): never {
  throw new Error(`unexpected DER from node:crypto: ${what}`)
}

/** The elements one after another in `bytes`, which they must fill exactly. */
export function elements (bytes: Buffer): Element[] {
  const found: Element[] = []
  let offset = 0
  while (offset < bytes.length) {
    if (offset + 2 > bytes.length) fail('truncated header')
    const tag = bytes[offset] as number
    let length = bytes[offset + 1] as number
    let start = offset + 2
    if (length >= 0x80) {
      // Long form: the low bits count the length's bytes (keys here stay far below 2^32 bytes)
      const count = length & 0x7f
      if (count === 0 || count > 4 || start + count > bytes.length) fail('length')
      length = bytes.readUIntBE(start, count)
      start += count
    }
    const end = start + length
    if (end > bytes.length) fail('truncated contents')
    found.push({ tag, contents: bytes.subarray(start, end) })
    offset = end
  }
  return found
}

/** The contents of the only element in `bytes`, which must carry `tag`. */
export function single (bytes: Buffer, tag: number, what: string): Buffer {
  const [only, ...rest] = elements(bytes)
  if (only === undefined || rest.length > 0 || only.tag !== tag) fail(what)
  return only.contents
}

/** The members of a SEQUENCE, each checked against `tags` (as many as given; more may follow). */
function sequence (bytes: Buffer, tags: readonly number[], what: string): Element[] {
  const members = elements(single(bytes, SEQUENCE, what))
  if (members.length < tags.length || tags.some((tag, index) => members[index]?.tag !== tag)) fail(what)
  return members
}

/** PKCS#8 (RFC 5208): version, algorithm, then the privateKey OCTET STRING's contents. */
export function pkcs8PrivateKey (der: Buffer): Buffer {
  return (sequence(der, [INTEGER, SEQUENCE, OCTET_STRING], 'PKCS#8')[2] as Element).contents
}

/** SPKI (RFC 5280): algorithm, then the subjectPublicKey BIT STRING's bytes (whole bytes only). */
export function spkiPublicKey (der: Buffer): Buffer {
  const bits = (sequence(der, [SEQUENCE, BIT_STRING], 'SPKI')[1] as Element).contents
  if (bits[0] !== 0) fail('SPKI public key of a partial byte')
  return bits.subarray(1)
}

/** RFC 8410: an Ed25519 PKCS#8 privateKey is an OCTET STRING holding the 32-byte seed. */
export function ed25519Seed (privateKey: Buffer): Buffer {
  const seed = single(privateKey, OCTET_STRING, 'Ed25519 private key')
  if (seed.length !== 32) fail('Ed25519 seed length')
  return seed
}

/**
 * RFC 5915's ECPrivateKey: version 1, then the scalar as an OCTET STRING of the order's length
 * (OpenSSL pads it, so a scalar with leading zero bytes keeps them: JWK `d` and VAPID need them).
 */
export function ecScalar (privateKey: Buffer, bytes: number): Buffer {
  const [version, scalar] = sequence(privateKey, [INTEGER, OCTET_STRING], 'ECPrivateKey') as [Element, Element]
  if (!version.contents.equals(Buffer.of(1)) || scalar.contents.length !== bytes) fail('ECPrivateKey version or scalar length')
  return scalar.contents
}

/** An EC public key as SPKI holds it from OpenSSL: the uncompressed point 04 ‖ x ‖ y (SEC 1 §2.3.3). */
export function uncompressedPoint (publicKey: Buffer, bytes: number): { x: Buffer, y: Buffer } {
  if (publicKey.length !== 1 + 2 * bytes || publicKey[0] !== 4) fail('EC public key not an uncompressed point')
  return { x: publicKey.subarray(1, 1 + bytes), y: publicKey.subarray(1 + bytes) }
}

/** RFC 8017's RSAPrivateKey, version 0 (two primes): n, e, d, p, q, dp, dq, qi in that order. */
export function rsaIntegers (privateKey: Buffer): Buffer[] {
  const members = sequence(privateKey, Array(9).fill(INTEGER), 'RSAPrivateKey')
  if (members.length !== 9 || !(members[0] as Element).contents.equals(Buffer.of(0))) fail('RSAPrivateKey version')
  return members.slice(1).map(({ contents }) => unsigned(contents))
}

/**
 * A positive DER INTEGER's magnitude in the fewest bytes (RFC 7518 §2 Base64urlUInt): DER adds a
 * zero byte before a leading bit of 1, which the JWK must not carry.
 */
function unsigned (integer: Buffer): Buffer {
  if (integer.length === 0 || ((integer[0] as number) & 0x80) !== 0) fail('RSA member not a positive INTEGER')
  let start = 0
  while (start < integer.length - 1 && integer[start] === 0) start++
  return integer.subarray(start)
}
