// CONTRACT §13 on the page: the JWK Set of the keys shown, built by the page from the public keys
// the API gave (web/jwk-set.ts), is the text the API writes for those keys: for a `jwk` answer its
// public JWK lines as they are; for `pem`, `vapid` and `synapse`, each key read by node:crypto (OpenSSL, not
// the page's reader) and written by the API's own JWK writer (src/keys/jwk.ts) must come out the same.
import t from 'tap'
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { jwkPair, jwkSet as apiJwkSet, type KeyType } from '../../src/keys/jwk.js'
import { rsaSigningKey, signingKeys } from '../../src/keys/signing-keys.js'
import { jwkSet } from '../../web/jwk-set.js'

/** The order src/keys/signing-keys.ts hands a key's members to the JWK writer (the first test holds the API to it). */
const MEMBERS: Record<string, readonly string[]> = { OKP: ['crv', 'x'], EC: ['crv', 'x', 'y'], RSA: ['n', 'e'] }

/** The public JWK line the API writes for `key`, its members as OpenSSL exports them. */
function apiLine (key: KeyObject, alg: string): string {
  const exported = key.export({ format: 'jwk' }) as Record<string, string>
  const kty = exported.kty as KeyType
  const members = Object.fromEntries((MEMBERS[kty] ?? []).map((name) => [name, exported[name] as string]))
  return jwkPair(kty, alg, members, {}).publicKey as string
}

const spki = (key: KeyObject): string => key.export({ type: 'spki', format: 'pem' }) as string

t.test('jwk: the public JWK lines as they are, in the API\'s JWK Set', async (t) => {
  for (const algorithm of ['EdDSA', 'ES256', 'ES384'] as const) {
    const { publicKeys = [] } = signingKeys({ algorithm, format: 'jwk', quantity: 3 })
    t.equal(jwkSet(algorithm, publicKeys), apiJwkSet(publicKeys), `${algorithm}: {"keys":[...]} around the lines`)
    t.same(JSON.parse(jwkSet(algorithm, publicKeys) as string), { keys: publicKeys.map((line) => JSON.parse(line)) })
    t.equal(publicKeys[0], apiLine(createPublicKey({ key: JSON.parse(publicKeys[0] as string), format: 'jwk' }), algorithm), `${algorithm}: the members in the order this test writes them`)
  }
  const rsa = rsaSigningKey(2048, 'RS256', 'jwk')
  t.equal(jwkSet('RS256', [rsa.publicKey]), apiJwkSet([rsa.publicKey]))
  t.equal(rsa.publicKey, apiLine(createPublicKey({ key: JSON.parse(rsa.publicKey), format: 'jwk' }), 'RS256'), 'RS256: the members in the order this test writes them')
})

t.test('pem: each SPKI read into the line the API writes for that key (Ed25519, P-256, P-384, RSA for RS256 and PS256)', async (t) => {
  const cases: Array<[string, KeyObject]> = [
    ['EdDSA', generateKeyPairSync('ed25519').publicKey],
    ['ES256', generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey],
    ['ES384', generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey],
    ['RS256', generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey],
    ['PS256', generateKeyPairSync('rsa', { modulusLength: 3072 }).publicKey]
  ]
  for (const [algorithm, key] of cases) {
    t.equal(jwkSet(algorithm, [spki(key)]), `{"keys":[${apiLine(key, algorithm)}]}`, `${algorithm}: the same line, kid included`)
  }
  // Keys as the API hands them out, several in one answer
  const { publicKeys = [] } = signingKeys({ algorithm: 'ES256', format: 'pem', quantity: 2 })
  const rsa = rsaSigningKey(2048, 'PS256', 'pem')
  t.equal(jwkSet('ES256', publicKeys), apiJwkSet(publicKeys.map((pem) => apiLine(createPublicKey(pem), 'ES256'))), 'two ES256 keys of a pem answer, in order')
  t.equal(jwkSet('PS256', [rsa.publicKey]), apiJwkSet([apiLine(createPrivateKey(rsa.value), 'PS256')]), 'the public key of the PS256 private key beside it')
})

t.test('vapid: the P-256 point read into the ES256 line the API writes for the key of the scalar beside it', async (t) => {
  const { values, publicKeys = [] } = signingKeys({ algorithm: 'ES256', format: 'vapid', quantity: 3 })
  const lines = values.map((d, index) => {
    const point = Buffer.from(publicKeys[index] as string, 'base64url')
    const key = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d, x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' })
    return apiLine(createPublicKey(key), 'ES256')
  })
  t.equal(jwkSet('ES256', publicKeys), apiJwkSet(lines))
})

t.test('synapse: the verify key read into the EdDSA line the API writes for the key of the seed beside it', async (t) => {
  const { values, publicKeys = [] } = signingKeys({ algorithm: 'EdDSA', format: 'synapse', quantity: 3 })
  // RFC 8410's PKCS#8 of an Ed25519 seed, read by OpenSSL: the public key is OpenSSL's, not the page's
  const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
  const lines = values.map((value) => {
    const seed = Buffer.from(value.split(' ')[2] as string, 'base64')
    return apiLine(createPublicKey(createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' })), 'EdDSA')
  })
  t.equal(jwkSet('EdDSA', publicKeys), apiJwkSet(lines))
  t.equal(jwkSet('EdDSA', [(publicKeys[0] as string).slice(0, -2)]), undefined, 'a verify key cut short: none')
})

t.test('anything else: no JWK Set rather than a wrong one', async (t) => {
  t.equal(jwkSet('ES256', ['not a key']), undefined)
  t.equal(jwkSet('ES256', ['-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n']), undefined)
  const x25519 = spki(generateKeyPairSync('x25519').publicKey)
  t.equal(jwkSet('EdDSA', [x25519]), undefined, 'an algorithm the API does not sign with')
})
