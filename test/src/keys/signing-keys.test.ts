// CONTRACT §13's key forms, checked member by member, each private key against its public key by a
// path that is not the module's (ECDH, a PKCS#8 import, BigInt arithmetic). Readers no one here
// wrote (jose, jwcrypto, openssl, web-push) read the keys in signing-keys-readers.test.ts and
// signing-keys-vapid.test.ts; the Node 20 JWK-export trap is signing-keys-many.test.ts.
import t, { type Test } from 'tap'
import { execFileSync } from 'node:child_process'
import { createECDH, createPrivateKey, createPublicKey } from 'node:crypto'
import { calculateJwkThumbprint, type JWK } from 'jose'
import {
  formatAllowed, isRsaAlgorithm, jwkSet, rsaEntropyBits, rsaSigningKey, signingKeys,
  type FastAlgorithm, type SigningAlgorithm, type SigningKeyFormat
} from '../../../src/keys/signing-keys.js'
import { hasTool } from '../../tools.js'

const BASE64URL = /^[A-Za-z0-9_-]+$/
const bytesOf = (member: string): Buffer => Buffer.from(member, 'base64url')
const bigintOf = (member: string): bigint => BigInt('0x' + bytesOf(member).toString('hex'))

/** A Base64url member as RFC 7515 §2 writes it: the alphabet, no padding, and canonical (it re-encodes to itself). */
function canonicalBase64url (member: unknown): boolean {
  return typeof member === 'string' && BASE64URL.test(member) && bytesOf(member).toString('base64url') === member
}

/** The exact members, in order, of each key's private and public JWK (CONTRACT §13). */
const MEMBERS = {
  EdDSA: { private: ['kty', 'crv', 'x', 'd', 'alg', 'use', 'kid'], public: ['kty', 'crv', 'x', 'alg', 'use', 'kid'] },
  ES256: { private: ['kty', 'crv', 'x', 'y', 'd', 'alg', 'use', 'kid'], public: ['kty', 'crv', 'x', 'y', 'alg', 'use', 'kid'] },
  ES384: { private: ['kty', 'crv', 'x', 'y', 'd', 'alg', 'use', 'kid'], public: ['kty', 'crv', 'x', 'y', 'alg', 'use', 'kid'] },
  RSA: { private: ['kty', 'n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'alg', 'use', 'kid'], public: ['kty', 'n', 'e', 'alg', 'use', 'kid'] },
  oct: { private: ['kty', 'k', 'alg', 'use', 'kid'] }
}

/** Checks a private JWK and its public JWK: exact members, `use`, `alg`, `kid` (by jose's RFC 7638), Base64url. */
async function checkJwkPair (t: Test, value: string, publicKey: string, alg: string, members: { private: string[], public: string[] }): Promise<{ jwk: Record<string, string>, publicJwk: Record<string, string> }> {
  const jwk = JSON.parse(value) as Record<string, string>
  const publicJwk = JSON.parse(publicKey) as Record<string, string>
  t.same(Object.keys(jwk), members.private, `${alg}: private members, in order`)
  t.same(Object.keys(publicJwk), members.public, `${alg}: public members, in order`)
  t.equal(value, JSON.stringify(jwk), `${alg}: one line, no spaces`)
  t.match(jwk, { alg, use: 'sig' })
  for (const name of members.public) t.equal(publicJwk[name], jwk[name], `${alg}: public ${name} as in the private JWK`)
  t.equal(jwk.kid, await calculateJwkThumbprint(publicJwk as JWK, 'sha256'), `${alg}: kid is the public key's RFC 7638 thumbprint (jose)`)
  const encoded = members.private.filter((name) => !['kty', 'crv', 'alg', 'use', 'kid'].includes(name))
  t.ok(encoded.every((name) => canonicalBase64url(jwk[name])), `${alg}: ${encoded.join(', ')} Base64url without padding`)
  return { jwk, publicJwk }
}

/** The Ed25519 public key of a seed by node:crypto's PKCS#8 import (RFC 8410), not the module's path. */
function ed25519PublicOf (seed: Buffer): Buffer {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed])
  return createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })).export({ format: 'der', type: 'spki' }).subarray(12)
}

t.test('EdDSA JWK: Ed25519 x and d of 32 bytes, x derived from the seed d by another path', async (t) => {
  const { values, publicKeys, entropyBits } = signingKeys({ algorithm: 'EdDSA', format: 'jwk', quantity: 5 })
  t.equal(entropyBits, 256)
  t.equal(values.length, 5)
  for (const [index, value] of values.entries()) {
    const { jwk } = await checkJwkPair(t, value, publicKeys?.[index] as string, 'EdDSA', MEMBERS.EdDSA)
    t.match(jwk, { kty: 'OKP', crv: 'Ed25519' })
    t.equal(bytesOf(jwk.d as string).length, 32)
    t.ok(ed25519PublicOf(bytesOf(jwk.d as string)).equals(bytesOf(jwk.x as string)), 'x is the public key of d')
  }
  t.equal(new Set(values).size, 5, 'five different keys')
})

for (const [algorithm, crv, curve, bytes, bits] of [['ES256', 'P-256', 'prime256v1', 32, 255.99], ['ES384', 'P-384', 'secp384r1', 48, 383.99]] as const) {
  t.test(`${algorithm} JWK: ${crv} x, y and d of ${bytes} bytes, the point derived from d by ECDH`, async (t) => {
    const { values, publicKeys, entropyBits } = signingKeys({ algorithm, format: 'jwk', quantity: 5 })
    t.equal(entropyBits, bits)
    for (const [index, value] of values.entries()) {
      const { jwk } = await checkJwkPair(t, value, publicKeys?.[index] as string, algorithm, MEMBERS[algorithm])
      t.match(jwk, { kty: 'EC', crv })
      for (const name of ['x', 'y', 'd']) t.equal(bytesOf(jwk[name] as string).length, bytes, `${name}: ${bytes} bytes, leading zeros kept (RFC 7518 §6.2)`)
      const ecdh = createECDH(curve)
      ecdh.setPrivateKey(bytesOf(jwk.d as string))
      t.equal(ecdh.getPublicKey('base64url'), Buffer.concat([Buffer.of(4), bytesOf(jwk.x as string), bytesOf(jwk.y as string)]).toString('base64url'), '04 ‖ x ‖ y = d · G')
    }
  })
}

for (const [algorithm, bytes] of [['HS256', 32], ['HS384', 48], ['HS512', 64]] as const) {
  t.test(`${algorithm} JWK: an oct key of ${bytes} random bytes, kid its thumbprint, no public key`, async (t) => {
    const result = signingKeys({ algorithm, format: 'jwk', quantity: 20 })
    t.equal(result.entropyBits, 8 * bytes)
    t.notOk('publicKeys' in result, 'no publicKeys for a shared secret')
    for (const value of result.values) {
      const jwk = JSON.parse(value) as Record<string, string>
      t.same(Object.keys(jwk), MEMBERS.oct.private)
      t.match(jwk, { kty: 'oct', alg: algorithm, use: 'sig' })
      t.ok(canonicalBase64url(jwk.k), 'k Base64url without padding')
      t.equal(bytesOf(jwk.k as string).length, bytes)
      t.equal(jwk.kid, await calculateJwkThumbprint({ kty: 'oct', k: jwk.k as string }, 'sha256'), 'kid: thumbprint of {k, kty} (jose)')
    }
    t.equal(new Set(result.values).size, 20, 'twenty different secrets')
  })
}

t.test('RSA JWK (2048): e = AQAB, members in their fewest bytes, n = p·q and the CRT members agree with d', async (t) => {
  t.equal(isRsaAlgorithm('RS256') && isRsaAlgorithm('PS256'), true)
  t.equal(isRsaAlgorithm('ES256') || isRsaAlgorithm('HS256'), false)
  for (const algorithm of ['RS256', 'PS256'] as const) {
    const { value, publicKey } = rsaSigningKey(2048, algorithm, 'jwk')
    const { jwk } = await checkJwkPair(t, value, publicKey, algorithm, MEMBERS.RSA)
    t.match(jwk, { kty: 'RSA', e: 'AQAB' })
    const numbers = ['n', 'd', 'p', 'q', 'dp', 'dq', 'qi'].map((name) => bytesOf(jwk[name] as string))
    t.ok(numbers.every((number) => number[0] !== 0), 'no leading zero byte (RFC 7518 §2 Base64urlUInt)')
    const [n, e, d, p, q, dp, dq, qi] = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'].map((name) => bigintOf(jwk[name] as string)) as bigint[] as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint]
    t.equal(n.toString(2).length, 2048, 'a 2048-bit modulus')
    t.equal(n, p * q, 'n = p · q')
    t.equal(dp, d % (p - 1n), 'dp = d mod (p − 1)')
    t.equal(dq, d % (q - 1n), 'dq = d mod (q − 1)')
    t.equal((qi * q) % p, 1n, 'qi = q⁻¹ mod p')
    t.equal((e * dp) % (p - 1n), 1n, 'e · d ≡ 1 mod (p − 1)')
    t.equal((e * dq) % (q - 1n), 1n, 'e · d ≡ 1 mod (q − 1)')
  }
})

t.test('PEM: PKCS#8 and SPKI, 64-character lines, each PEM ending in a line feed; RSA keys are rsaEncryption', async (t) => {
  const pairs: Array<[string, string, string]> = []
  for (const algorithm of ['EdDSA', 'ES256', 'ES384'] as const) {
    const { values, publicKeys, entropyBits } = signingKeys({ algorithm, format: 'pem', quantity: 3 })
    t.equal(entropyBits, signingKeys({ algorithm, format: 'jwk', quantity: 1 }).entropyBits, `${algorithm}: entropy as the JWK's`)
    values.forEach((value, index) => pairs.push([algorithm, value, publicKeys?.[index] as string]))
  }
  for (const algorithm of ['RS256', 'PS256'] as const) {
    const { value, publicKey } = rsaSigningKey(2048, algorithm, 'pem')
    pairs.push([algorithm, value, publicKey])
    t.equal(createPrivateKey(value).asymmetricKeyType, 'rsa', `${algorithm}: rsaEncryption, not RSASSA-PSS`)
  }
  for (const [algorithm, value, publicKey] of pairs) {
    for (const [pem, label] of [[value, 'PRIVATE KEY'], [publicKey, 'PUBLIC KEY']] as const) {
      const lines = pem.split('\n')
      t.equal(lines[0], `-----BEGIN ${label}-----`, `${algorithm}: ${label}`)
      t.equal(lines.at(-2), `-----END ${label}-----`)
      t.equal(lines.at(-1), '', 'ends in a line feed')
      const body = lines.slice(1, -2)
      t.ok(body.slice(0, -1).every((line) => line.length === 64) && (body.at(-1) as string).length <= 64, '64-character lines')
    }
    t.equal(createPublicKey(value).export({ type: 'spki', format: 'pem' }), publicKey, `${algorithm}: the public key of the private key`)
  }
})

t.test('VAPID: a 32-byte scalar and a 65-byte uncompressed point, Base64url without padding; entropy as ES256', async (t) => {
  const { values, publicKeys, entropyBits } = signingKeys({ algorithm: 'ES256', format: 'vapid', quantity: 10 })
  t.equal(entropyBits, 255.99)
  values.forEach((value, index) => {
    const publicKey = publicKeys?.[index] as string
    t.ok(canonicalBase64url(value) && value.length === 43 && bytesOf(value).length === 32, 'private: 32 bytes, 43 characters')
    t.ok(canonicalBase64url(publicKey) && publicKey.length === 87 && bytesOf(publicKey)[0] === 4, 'public: 04 ‖ x ‖ y, 87 characters')
  })
})

t.test('entropyBits: log2(n − 1) of each curve\'s order as openssl prints it, RSA by SP 800-57, HMAC by its bytes', async (t) => {
  t.same([2048, 3072, 4096].map((bits) => rsaEntropyBits(bits as 2048 | 3072 | 4096)), [112, 128, 152])
  if (!hasTool(t, 'openssl', 'openssl')) return
  for (const [algorithm, curve] of [['ES256', 'prime256v1'], ['ES384', 'secp384r1']] as const) {
    const text = execFileSync('openssl', ['ecparam', '-name', curve, '-param_enc', 'explicit', '-text', '-noout'], { encoding: 'utf8' })
    const order = BigInt('0x' + (/Order:\s*([0-9a-f:\s]+?)\s*Cofactor/.exec(text)?.[1] as string).replace(/[:\s]/g, ''))
    // floor(100 · log2(n − 1)) exactly: (n − 1)^100 has h + 1 bits when 2^h <= (n − 1)^100 < 2^(h+1).
    // (P-384's n − 1 is 2^384 less about 2^190: a double's log2 of it is 384 exactly.)
    const expected = (((order - 1n) ** 100n).toString(2).length - 1) / 100
    t.equal(signingKeys({ algorithm, format: 'jwk', quantity: 1 }).entropyBits, expected, `${algorithm}: ${expected} from openssl's order`)
  }
})

t.test('formats each algorithm has (CONTRACT §13), and signingKeys refuses the others', async (t) => {
  const algorithms: SigningAlgorithm[] = ['EdDSA', 'ES256', 'ES384', 'RS256', 'PS256', 'HS256', 'HS384', 'HS512']
  const table = Object.fromEntries(algorithms.map((algorithm) => [algorithm, (['jwk', 'pem', 'vapid'] as const).filter((format) => formatAllowed(algorithm, format))]))
  t.same(table, {
    EdDSA: ['jwk', 'pem'],
    ES256: ['jwk', 'pem', 'vapid'],
    ES384: ['jwk', 'pem'],
    RS256: ['jwk', 'pem'],
    PS256: ['jwk', 'pem'],
    HS256: ['jwk'],
    HS384: ['jwk'],
    HS512: ['jwk']
  })
  for (const [bits, algorithm, format] of [[1024, 'RS256', 'jwk'], [2048, 'ES256', 'jwk'], [2048, 'PS256', 'vapid']]) {
    t.throws(() => rsaSigningKey(bits as 2048, algorithm as 'RS256', format as 'jwk'), RangeError, `no RSA key of ${bits} bits for ${algorithm} as ${format}`)
  }
  for (const [algorithm, format] of [['HS256', 'pem'], ['HS512', 'vapid'], ['EdDSA', 'vapid'], ['ES384', 'vapid']] as Array<[FastAlgorithm, SigningKeyFormat]>) {
    t.throws(() => signingKeys({ algorithm, format, quantity: 1 }), RangeError, `${algorithm} has no ${format} form`)
  }
})

t.test('jwkSet: the public JWKs as they are, in a {"keys": [...]} object', async (t) => {
  const { publicKeys } = signingKeys({ algorithm: 'ES256', format: 'jwk', quantity: 3 })
  const set = jwkSet(publicKeys as string[])
  t.same(JSON.parse(set), { keys: (publicKeys as string[]).map((key) => JSON.parse(key)) })
  t.equal(set, JSON.stringify(JSON.parse(set)), 'one line of JSON')
  t.equal(jwkSet([]), '{"keys":[]}')
})
