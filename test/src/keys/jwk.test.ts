// JWK lines and thumbprints against the RFCs' own examples (RFC 7638 §3.1, RFC 8037 A.3).
import t from 'tap'
import { jwkPair, jwkSet, thumbprint } from '../../../src/keys/jwk.js'

// RFC 7638 §3.1: the RSA key and its SHA-256 thumbprint
const RFC7638_N = '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw'
const RFC7638_THUMBPRINT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'
// RFC 8037 A.1 and A.3: the Ed25519 key and its thumbprint
const RFC8037_X = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'
const RFC8037_D = 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A'
const RFC8037_THUMBPRINT = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k'

t.test('thumbprints: the RFCs\' known answers, whatever other members the key holds', async (t) => {
  t.equal(thumbprint('RSA', { n: RFC7638_N, e: 'AQAB', d: 'ignored' }), RFC7638_THUMBPRINT, 'RFC 7638 §3.1')
  t.equal(thumbprint('OKP', { crv: 'Ed25519', x: RFC8037_X, d: RFC8037_D }), RFC8037_THUMBPRINT, 'RFC 8037 A.3')
})

t.test('jwkPair: kty, the members, alg, use, kid in that order; the public JWK without the private members', async (t) => {
  const { value, publicKey } = jwkPair('OKP', 'EdDSA', { crv: 'Ed25519', x: RFC8037_X }, { d: RFC8037_D })
  t.equal(value, `{"kty":"OKP","crv":"Ed25519","x":"${RFC8037_X}","d":"${RFC8037_D}","alg":"EdDSA","use":"sig","kid":"${RFC8037_THUMBPRINT}"}`)
  t.equal(publicKey, `{"kty":"OKP","crv":"Ed25519","x":"${RFC8037_X}","alg":"EdDSA","use":"sig","kid":"${RFC8037_THUMBPRINT}"}`)
  const secret = jwkPair('oct', 'HS256', {}, { k: 'AAAA' })
  t.same(Object.keys(secret), ['value'], 'an oct key has no public JWK')
  t.same(Object.keys(JSON.parse(secret.value)), ['kty', 'k', 'alg', 'use', 'kid'])
  t.equal(jwkSet([publicKey as string]), `{"keys":[${publicKey as string}]}`)
})
