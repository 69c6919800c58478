// CONTRACT §13 on the route: every algorithm and format, the rules, the JWK Set and its 406, plain
// text, RSA on the pool (BUSY), sets (VAPID_PRIVATE_KEY -> VAPID_PUBLIC_KEY, PEM refused in the
// .env form, 5 RSA keys a set) and MCP. Each key is read by jose (npm), not by our code; the
// formats' own readers (jwcrypto, openssl, web-push) are test/src/keys/'s.
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { importJWK, importPKCS8, importSPKI, jwtVerify, SignJWT, type JWK } from 'jose'
import { build, callTool, get, post } from '../helper.js'

interface Answer { values: string[], publicKeys?: string[], entropyBits: number }

async function answered (app: FastifyInstance, params: Record<string, unknown>, send = post): Promise<Answer> {
  const response = await send(app, 'signing-key', params)
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`)
  return response.json() as Answer
}

/** A JWT signed with the private key verifies with the public key in jose, and a tampered one does not. */
async function signsAndVerifies (t: Test, alg: string, privateKey: Parameters<SignJWT['sign']>[0], publicKey: Parameters<typeof jwtVerify>[1]): Promise<void> {
  const jwt = await new SignJWT({ sub: 'randgen' }).setProtectedHeader({ alg }).sign(privateKey)
  const { payload } = await jwtVerify(jwt, publicKey)
  t.equal(payload.sub, 'randgen', `${alg}: verified`)
  const [header, , signature] = jwt.split('.') as [string, string, string]
  const tampered = `${header}.${Buffer.from('{"sub":"mallory"}').toString('base64url')}.${signature}`
  await t.rejects(jwtVerify(tampered, publicKey), `${alg}: a tampered JWT is refused`)
}

t.test('JWK: every algorithm, the private key signs and the public key verifies (jose)', async (t) => {
  const app = await build(t)
  const cases: Array<[string, Record<string, unknown>, number]> = [
    ['EdDSA', {}, 256], ['ES256', { algorithm: 'ES256' }, 255.99], ['ES384', { algorithm: 'ES384' }, 383.99],
    ['RS256', { algorithm: 'RS256' }, 112], ['PS256', { algorithm: 'PS256', modulusBits: 3072 }, 128]
  ]
  for (const [alg, params, bits] of cases) {
    const answer = await answered(app, { ...params, quantity: 2 })
    t.equal(answer.entropyBits, bits, `${alg}: entropyBits`)
    t.equal(answer.values.length, 2)
    for (const [index, value] of answer.values.entries()) {
      const privateJwk = JSON.parse(value) as JWK & { kid: string, use: string }
      const publicJwk = JSON.parse(answer.publicKeys?.[index] as string) as JWK & { kid: string }
      t.same([privateJwk.alg, privateJwk.use, privateJwk.kid], [alg, 'sig', publicJwk.kid], `${alg}: alg, use, and the same kid`)
      t.notOk('d' in publicJwk, `${alg}: no private member in the public JWK`)
      await signsAndVerifies(t, alg, await importJWK(privateJwk, alg), await importJWK(publicJwk, alg))
    }
  }
  const hmac = await answered(app, { algorithm: 'HS512' })
  t.notOk('publicKeys' in hmac, 'HS*: no publicKeys')
  t.equal(hmac.entropyBits, 512)
  const secret = JSON.parse(hmac.values[0] as string) as JWK
  await signsAndVerifies(t, 'HS512', await importJWK(secret, 'HS512'), await importJWK(secret, 'HS512'))
})

t.test('PEM: PKCS#8 and SPKI that jose reads; RSA keys carry rsaEncryption for PS256 too', async (t) => {
  const app = await build(t)
  for (const [alg, params] of [['EdDSA', {}], ['ES384', { algorithm: 'ES384' }], ['PS256', { algorithm: 'PS256' }]] as const) {
    const answer = await answered(app, { ...params, format: 'pem' }, get)
    const [value, publicKey] = [answer.values[0] as string, answer.publicKeys?.[0] as string]
    t.match(value, /^-----BEGIN PRIVATE KEY-----\n(?:[A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END PRIVATE KEY-----\n$/, `${alg}: PKCS#8, 64-character lines`)
    t.match(publicKey, /^-----BEGIN PUBLIC KEY-----\n[\s\S]*\n-----END PUBLIC KEY-----\n$/, `${alg}: SPKI`)
    await signsAndVerifies(t, alg, await importPKCS8(value, alg), await importSPKI(publicKey, alg))
  }
})

t.test('VAPID: the 32-byte scalar and the 65-byte uncompressed point, Base64url', async (t) => {
  const app = await build(t)
  const answer = await answered(app, { algorithm: 'ES256', format: 'vapid', quantity: 5 })
  for (const [index, value] of answer.values.entries()) {
    t.equal(Buffer.from(value, 'base64url').length, 32)
    const point = Buffer.from(answer.publicKeys?.[index] as string, 'base64url')
    t.same([point.length, point[0]], [65, 4])
  }
  t.equal(answer.entropyBits, 255.99)
})

t.test('the rules: modulusBits is RSA\'s, pem, vapid and synapse where the algorithm has them, 5 RSA keys', async (t) => {
  const app = await build(t)
  const cases: Array<[Record<string, unknown>, Array<[string, string]>]> = [
    [{ modulusBits: 2048 }, [['#/modulusBits', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 'HS256', format: 'pem' }, [['#/format', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 'HS384', format: 'vapid' }, [['#/format', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 'EdDSA', format: 'vapid' }, [['#/format', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 'RS256', format: 'vapid' }, [['#/format', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 'ES256', format: 'synapse' }, [['#/format', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 'HS256', format: 'synapse', modulusBits: 2048 }, [['#/modulusBits', 'NOT_ALLOWED_VALUE'], ['#/format', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 'RS256', quantity: 6 }, [['#/quantity', 'TOO_MANY_VALUES']]],
    [{ algorithm: 'RS256', modulusBits: 1024 }, [['#/modulusBits', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 'RS512' }, [['#/algorithm', 'NOT_ALLOWED_VALUE']]]
  ]
  for (const [params, expected] of cases) {
    const response = await post(app, 'signing-key', params)
    const errors = (response.json().errors as Array<{ pointer: string, code: string }>).map(({ pointer, code }) => [pointer, code])
    t.same([response.statusCode, errors], [400, expected], JSON.stringify(params))
  }
  t.equal((await post(app, 'signing-key', { algorithm: 'ES256', quantity: 50 })).statusCode, 200, '50 P-256 keys, on the event loop')
  // ~0.9 ms of CPU each: made on the pool, in one job, not on the event loop (CONTRACT §5)
  const es384 = await answered(app, { algorithm: 'ES384', format: 'pem', quantity: 50 })
  t.same([es384.values.length, es384.publicKeys?.length, new Set(es384.values).size], [50, 50, 50], '50 P-384 keys, made on the pool')
})

t.test('Accept: a JWK Set of the public keys whatever format; 406 for HMAC keys; plain text', async (t) => {
  const app = await build(t)
  const set = await post(app, 'signing-key', { algorithm: 'ES256', format: 'pem', quantity: 2 }, { accept: 'application/jwk-set+json' })
  t.equal(set.statusCode, 200)
  t.equal(set.headers['content-type'], 'application/jwk-set+json; charset=utf-8')
  const { keys } = set.json() as { keys: Array<JWK & { kid: string }> }
  t.equal(keys.length, 2)
  for (const key of keys) t.same([key.kty, key.crv, key.alg, key.use, 'd' in key], ['EC', 'P-256', 'ES256', 'sig', false])
  const tie = await post(app, 'signing-key', {}, { accept: 'application/jwk-set+json, application/json' })
  t.match(tie.headers['content-type'], /^application\/json/, 'a tie goes to JSON')
  const hmac = await post(app, 'signing-key', { algorithm: 'HS256' }, { accept: 'application/jwk-set+json', 'x-language': 'fr' })
  t.same([hmac.statusCode, hmac.json().code, hmac.json().title], [406, 'NOT_ACCEPTABLE', 'Non acceptable'])
  const text = await post(app, 'signing-key', { algorithm: 'ES256', format: 'vapid', quantity: 2 }, { accept: 'text/plain' })
  const lines = text.body.split('\n')
  t.equal(lines.length, 3)
  t.ok(lines.slice(0, 2).every((line) => /^[A-Za-z0-9_-]{43} [A-Za-z0-9_-]{87}$/.test(line)), 'each line the private key, one space, the public key')
  const pem = await post(app, 'signing-key', { algorithm: 'EdDSA', format: 'pem', quantity: 2 }, { accept: 'text/plain' })
  t.match(pem.body, /^(-----BEGIN PRIVATE KEY-----\n[^-]+-----END PRIVATE KEY-----\n-----BEGIN PUBLIC KEY-----\n[^-]+-----END PUBLIC KEY-----\n){2}$/, 'PEM: each key as it is, its public key after, no blank line')
  const hs = await post(app, 'signing-key', { algorithm: 'HS256' }, { accept: 'text/plain' })
  t.match(hs.body, /^\{"kty":"oct","k":"[A-Za-z0-9_-]{43}","alg":"HS256","use":"sig","kid":"[A-Za-z0-9_-]{43}"\}\n$/, 'HS*: the JWK alone')
})

t.test('RSA keys are made on the pool: 503 BUSY when its queue is full, nothing drawn', async (t) => {
  const app = await build(t, { HASH_CONCURRENCY: '1', HASH_QUEUE: '0' })
  const first = post(app, 'signing-key', { algorithm: 'RS256', modulusBits: 4096 }).then((response) => response)
  const busy = await post(app, 'signing-key', { algorithm: 'PS256' })
  t.equal(busy.statusCode, 503)
  t.equal(busy.json().code, 'BUSY')
  t.ok(Number(busy.headers['retry-after']) >= 1)
  t.equal((await post(app, 'signing-key', { algorithm: 'EdDSA' })).statusCode, 200, 'the other algorithms never wait for the pool')
  t.equal((await first).statusCode, 200)
})

t.test('sets: VAPID_PRIVATE_KEY derives VAPID_PUBLIC_KEY; PEM refused in the .env form; 5 RSA keys a set', async (t) => {
  const app = await build(t)
  const postSet = (body: unknown, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) })
  const env = await postSet({ items: [{ name: 'VAPID_PRIVATE_KEY', type: 'signing-key', params: { algorithm: 'ES256', format: 'vapid' } }, { name: 'JWT_SECRET', type: 'signing-key', params: { algorithm: 'HS256' } }, { name: 'OIDC_KEY', type: 'signing-key', params: { algorithm: 'RS256' } }] }, { accept: 'text/plain' })
  t.equal(env.statusCode, 200, env.body)
  t.same(env.body.split('\n').map((line) => line.split('=')[0]), ['VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY', 'JWT_SECRET', 'OIDC_KEY', 'OIDC_KEY_PUBLIC_KEY', ''])
  const pem = await postSet({ items: [{ name: 'KEY', type: 'signing-key', params: { format: 'pem' } }] }, { accept: 'text/plain' })
  t.same(pem.json().errors.map(({ pointer, code }: { pointer: string, code: string }) => [pointer, code]), [['#/items/0/params/format', 'NOT_REPRESENTABLE']])
  t.equal((await postSet({ items: [{ name: 'KEY', type: 'signing-key', params: { format: 'pem' } }] })).statusCode, 200, 'the JSON form takes a PEM')
  const many = await postSet({ items: [{ name: 'A', type: 'signing-key', params: { algorithm: 'RS256', quantity: 3 } }, { name: 'B', type: 'signing-key', params: { algorithm: 'PS256', quantity: 3 } }] })
  t.same(many.json().errors.map(({ pointer, code }: { pointer: string, code: string }) => [pointer, code]), [['#/items', 'TOO_MANY_VALUES']])
})

t.test('MCP: generate_signing_key', async (t) => {
  const app = await build(t)
  const response = await callTool(app, 'generate_signing_key', { algorithm: 'RS256' })
  const answer = response.json().result.structuredContent as Answer
  await signsAndVerifies(t, 'RS256', await importJWK(JSON.parse(answer.values[0] as string) as JWK, 'RS256'), await importJWK(JSON.parse(answer.publicKeys?.[0] as string) as JWK, 'RS256'))
})
