// The oidc recipe: OIDC_PRIVATE_KEY is an RS256 private JWK that jose (npm) imports and signs an
// ID token with, which OIDC_PUBLIC_KEY verifies (and another key's public JWK refuses); its kid is
// the RFC 7638 thumbprint jose computes. The HMAC secret: 64 letters and digits.
import t from 'tap'
import { SignJWT, calculateJwkThumbprint, errors, importJWK, jwtVerify, type JWK } from 'jose'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

const JWK_LINE = /^\{"kty":"RSA",.*\}$/

t.test('oidc: the JWK pair signs and verifies in jose', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'oidc', ['OIDC_PRIVATE_KEY', 'OIDC_PUBLIC_KEY', 'OIDC_HMAC_SECRET'])
  checkForms(t, answers, { OIDC_PRIVATE_KEY: JWK_LINE, OIDC_PUBLIC_KEY: JWK_LINE, OIDC_HMAC_SECRET: /^[A-Za-z0-9]{64}$/ })
  const privateJwk = JSON.parse(valueOf(answers.env, 'OIDC_PRIVATE_KEY')) as JWK
  const publicJwk = JSON.parse(valueOf(answers.env, 'OIDC_PUBLIC_KEY')) as JWK
  t.equal(publicJwk.kid, await calculateJwkThumbprint(publicJwk, 'sha256'), 'kid is the public key\'s RFC 7638 thumbprint')
  t.notOk('d' in publicJwk, 'the public JWK holds no private member')
  const token = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'RS256', kid: privateJwk.kid }).setIssuer('https://auth.example.com').setIssuedAt().setExpirationTime('5m')
    .sign(await importJWK(privateJwk, 'RS256'))
  const { payload, protectedHeader } = await jwtVerify(token, await importJWK(publicJwk, 'RS256'), { issuer: 'https://auth.example.com' })
  t.same([payload.sub, protectedHeader.kid], ['alice', publicJwk.kid], 'an ID token signed with the private JWK verifies with the public one')
  const other = JSON.parse(valueOf(answers.json, 'OIDC_PUBLIC_KEY')) as JWK
  await t.rejects(jwtVerify(token, await importJWK(other, 'RS256')), errors.JWSSignatureVerificationFailed, 'another key\'s public JWK refuses it')
})
