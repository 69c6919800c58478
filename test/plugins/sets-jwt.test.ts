// CONTRACT §14.2: the `jwt` set item, a token signed with an earlier item's secret or signing key.
// Every token is verified by readers no one here wrote: npm's jose and golang-jwt (what GoTrue
// verifies Supabase's keys with, test/app-readers/golang-jwt.ts). Its header and payload are read
// byte for byte; every refusal is checked with its pointer and code, before anything is drawn.
import t, { type Test } from 'tap'
import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { parseEnv } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK, importJWK, importSPKI, jwtVerify, type JWK } from 'jose'
import { jwtProblems } from '../../src/http/set-jwt.js'
import { GOLANG_JWT, golangJwtVerify, hasReader, type JwtKey } from '../app-readers/index.js'
import { build, xData } from '../helper.js'

type Headers = Record<string, string>
type Item = Record<string, unknown>
const TEXT = { accept: 'text/plain' }
/** A compact JWS as RFC 7515 §7.1 writes it: three Base64url segments, no padding. */
const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

function postSet (app: FastifyInstance, body: unknown, headers: Headers = {}) {
  return app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) })
}
function getSet (app: FastifyInstance, body: unknown, headers: Headers = {}) {
  return app.inject({ method: 'GET', url: '/api/generate', headers: { 'x-data': xData(body), ...headers } })
}
const problems = (body: string) => (JSON.parse(body).errors as Array<{ pointer: string, code: string }>).map(({ pointer, code }) => [pointer, code])
const segment = (token: string, index: number) => Buffer.from(token.split('.')[index] as string, 'base64url').toString('utf8')

/** An answered item of a set. */
interface Answered { name: string, type: string, values: string[], entropyBits: number, publicKeys?: string[] }

/** How each reader is handed the key a token was signed with, from the key item's answer. */
/** What jose verifies with: a secret's bytes or a public key, as its importers give them. */
type JoseKey = Awaited<ReturnType<typeof importJWK>>

interface Verifier { jose: () => Promise<JoseKey>, golang: JwtKey }

function verifierOf (keyItem: Answered, algorithm: string): Verifier {
  const value = keyItem.values[0] as string
  if (keyItem.type !== 'signing-key') return { jose: async () => new TextEncoder().encode(value), golang: { secret: value } }
  if (algorithm.startsWith('HS')) {
    // An HS* signing key signs with its JWK's decoded `k`
    const bytes = Buffer.from(JSON.parse(value).k as string, 'base64url')
    return { jose: async () => new Uint8Array(bytes), golang: { secretBytes: bytes } }
  }
  const publicKey = keyItem.publicKeys?.[0] as string
  return {
    jose: async () => publicKey.startsWith('-----BEGIN') ? await importSPKI(publicKey, algorithm) : await importJWK(JSON.parse(publicKey) as JWK, algorithm),
    golang: { publicKey }
  }
}

/** The kid a key item's tokens carry: its JWK's, or for a PEM the RFC 7638 thumbprint jose computes from its public key. */
async function kidOf (keyItem: Answered, algorithm: string): Promise<string | undefined> {
  if (keyItem.type !== 'signing-key') return undefined
  const value = keyItem.values[0] as string
  if (!value.startsWith('-----BEGIN')) return JSON.parse(value).kid
  const publicKey = await importSPKI(keyItem.publicKeys?.[0] as string, algorithm, { extractable: true })
  return await calculateJwkThumbprint(await exportJWK(publicKey))
}

/** The token with another payload, its header and signature kept. */
function tampered (token: string): string {
  const [header, , signature] = token.split('.')
  return [header, Buffer.from(JSON.stringify({ role: 'service_role', iat: 1 })).toString('base64url'), signature].join('.')
}

/** A public key no code here made, of the same kind: what another key's tokens are checked with. */
function anotherKey (algorithm: string): Verifier {
  const pairs: Record<string, () => { publicKey: KeyObject }> = {
    EdDSA: () => generateKeyPairSync('ed25519'),
    ES256: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    ES384: () => generateKeyPairSync('ec', { namedCurve: 'P-384' }),
    RS256: () => generateKeyPairSync('rsa', { modulusLength: 2048 }),
    PS256: () => generateKeyPairSync('rsa', { modulusLength: 2048 })
  }
  const pair = pairs[algorithm]
  if (pair === undefined) return { jose: async () => new TextEncoder().encode('another secret, not the one'), golang: { secret: 'another secret, not the one' } }
  const pem = pair().publicKey.export({ type: 'spki', format: 'pem' }) as string
  return { jose: async () => await importSPKI(pem, algorithm), golang: { publicKey: pem } }
}

/** Each case: the key item, the jwt's own params, the algorithm it is signed with. */
const CASES: Array<{ what: string, key: Item, jwt: Item, algorithm: string }> = [
  { what: 'a password, HS256 by default', key: { type: 'password', params: { length: 40, symbols: false } }, jwt: {}, algorithm: 'HS256' },
  { what: 'a password with symbols (its UTF-8 bytes)', key: { type: 'password', params: { symbolSet: '"\\\'$`' } }, jwt: { algorithm: 'HS256' }, algorithm: 'HS256' },
  { what: 'a passphrase of non-ASCII words', key: { type: 'passphrase', params: { wordList: 'bip39-japanese', words: 6 } }, jwt: {}, algorithm: 'HS256' },
  { what: 'a seq, HS384', key: { type: 'seq' }, jwt: { algorithm: 'HS384' }, algorithm: 'HS384' },
  { what: 'a seq, HS512', key: { type: 'seq', params: { byteLength: 64, encoding: 'base64' } }, jwt: { algorithm: 'HS512' }, algorithm: 'HS512' },
  { what: 'a token', key: { type: 'token' }, jwt: {}, algorithm: 'HS256' },
  { what: 'a uuid alphanumeric', key: { type: 'uuid', params: { format: 'alphanumeric', length: 32 } }, jwt: {}, algorithm: 'HS256' },
  { what: 'a signing-key HS256 JWK', key: { type: 'signing-key', params: { algorithm: 'HS256' } }, jwt: {}, algorithm: 'HS256' },
  { what: 'a signing-key EdDSA JWK', key: { type: 'signing-key' }, jwt: {}, algorithm: 'EdDSA' },
  { what: 'a signing-key ES256 JWK', key: { type: 'signing-key', params: { algorithm: 'ES256' } }, jwt: { algorithm: 'ES256' }, algorithm: 'ES256' },
  { what: 'a signing-key ES256 PEM', key: { type: 'signing-key', params: { algorithm: 'ES256', format: 'pem' } }, jwt: {}, algorithm: 'ES256' },
  { what: 'a signing-key ES384 JWK', key: { type: 'signing-key', params: { algorithm: 'ES384' } }, jwt: {}, algorithm: 'ES384' },
  { what: 'a signing-key RS256 PEM', key: { type: 'signing-key', params: { algorithm: 'RS256', format: 'pem', modulusBits: 2048 } }, jwt: {}, algorithm: 'RS256' },
  { what: 'a signing-key PS256 JWK', key: { type: 'signing-key', params: { algorithm: 'PS256', modulusBits: 2048 } }, jwt: {}, algorithm: 'PS256' }
]

const CLAIMS = { role: 'anon', iss: 'supabase', n: 42, negative: -7, admin: false, ok: true, text: 'é "q" \\ \' \u2028 ☃ 😀', 'a/b~c': 'x' }

/** Checks what jose and golang-jwt say of `token` with `verifier`; both must agree. */
async function verified (t: Test, token: string, verifier: Verifier, algorithm: string, what: string): Promise<{ jose?: Record<string, unknown>, golang?: Record<string, unknown> }> {
  const found: { jose?: Record<string, unknown>, golang?: Record<string, unknown> } = {}
  try {
    found.jose = (await jwtVerify(token, await verifier.jose(), { algorithms: [algorithm] })).payload as Record<string, unknown>
  } catch (error) {
    t.fail(`${what}: jose refused it: ${(error as Error).message}`)
  }
  if (hasReader(t, GOLANG_JWT)) {
    const read = golangJwtVerify(token, verifier.golang, algorithm)
    if (read.ok) found.golang = read.claims
    else t.fail(`${what}: golang-jwt refused it: ${read.error}`)
  }
  return found
}

/** Both readers refuse `token` with `verifier`. */
async function refused (t: Test, token: string, verifier: Verifier, algorithm: string, what: string): Promise<void> {
  await t.rejects(async () => await jwtVerify(token, await verifier.jose(), { algorithms: [algorithm] }), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' }, `jose: ${what}`)
  if (hasReader(t, GOLANG_JWT)) t.match(golangJwtVerify(token, verifier.golang, algorithm), { ok: false, error: /signature is invalid|verification error/ }, `golang-jwt: ${what}`)
}

t.test('tokens signed with every kind of key, verified by jose and golang-jwt; header and payload as §14.2 writes them', async (t) => {
  const app = await build(t)
  const items = CASES.flatMap(({ key, jwt }, index) => [
    { name: `KEY_${index}`, ...key },
    { name: `JWT_${index}`, type: 'jwt', params: { signedWith: `KEY_${index}`, claims: CLAIMS, expiresInDays: 1826, ...jwt } }
  ])
  const response = await postSet(app, { items })
  t.equal(response.statusCode, 200, response.body)
  const { items: answered, generatedAt } = response.json() as { items: Answered[], generatedAt: string }
  const iat = Math.floor(Date.parse(generatedAt) / 1000)
  for (const [index, { what, algorithm }] of CASES.entries()) {
    const keyItem = answered[2 * index] as Answered
    const item = answered[2 * index + 1] as Answered
    t.same(Object.keys(item), ['name', 'type', 'values', 'entropyBits'], `${what}: name, type, values, entropyBits`)
    t.match(item, { name: `JWT_${index}`, type: 'jwt', entropyBits: 0 }, `${what}: no randomness of its own`)
    t.equal(item.values.length, 1, `${what}: one token`)
    const token = item.values[0] as string
    t.match(token, COMPACT, `${what}: three unpadded Base64url segments`)
    const kid = await kidOf(keyItem, algorithm)
    t.equal(segment(token, 0), JSON.stringify(kid === undefined ? { alg: algorithm, typ: 'JWT' } : { alg: algorithm, typ: 'JWT', kid }), `${what}: the header, byte for byte`)
    t.same(decodeProtectedHeader(token), kid === undefined ? { alg: algorithm, typ: 'JWT' } : { alg: algorithm, typ: 'JWT', kid }, `${what}: the header as jose reads it`)
    const expected = { ...CLAIMS, iat, exp: iat + 1826 * 86_400 }
    t.equal(segment(token, 1), JSON.stringify(expected), `${what}: the claims in the request's order, then iat and exp`)
    const verifier = verifierOf(keyItem, algorithm)
    const read = await verified(t, token, verifier, algorithm, what)
    t.same(read.jose, expected, `${what}: jose verified it and reads its claims`)
    if (read.golang !== undefined) t.same(read.golang, expected, `${what}: golang-jwt verified it and reads its claims`)
    await refused(t, tampered(token), verifier, algorithm, `${what}: tampered, refused`)
    await refused(t, token, anotherKey(algorithm), algorithm, `${what}: another key, refused`)
  }
})

t.test('iat is the set\'s generatedAt in whole seconds; exp only when asked, iat + days × 86,400', async (t) => {
  const app = await build(t)
  for (const [params, exp] of [[{}, undefined], [{ expiresInDays: 1 }, 86_400], [{ expiresInDays: 36_500 }, 36_500 * 86_400]] as const) {
    const items = [{ name: 'S', type: 'password' }, { name: 'J', type: 'jwt', params: { signedWith: 'S', ...params } }]
    for (const send of [postSet, getSet]) {
      const response = await send(app, { items })
      t.equal(response.statusCode, 200, response.body)
      const { items: [secret, jwt], generatedAt } = response.json()
      const iat = Math.floor(Date.parse(generatedAt) / 1000)
      const payload = JSON.parse(segment(jwt.values[0], 1))
      t.same(payload, exp === undefined ? { iat } : { iat, exp: iat + exp }, `${send.name} ${JSON.stringify(params)}: the payload`)
      t.equal(segment(jwt.values[0], 0), '{"alg":"HS256","typ":"JWT"}', 'HS256 by default')
      const { payload: read } = await jwtVerify(jwt.values[0], new TextEncoder().encode(secret.values[0]), { algorithms: ['HS256'], currentDate: new Date((iat + 1) * 1000) })
      t.same(read, payload, 'jose verified it')
    }
  }
})

t.test('the .env form holds the token line, read back and verified with the secret beside it', async (t) => {
  const app = await build(t)
  const items = [
    { name: 'JWT_SECRET', type: 'password', params: { length: 40, symbols: false } },
    { name: 'ANON_KEY', type: 'jwt', params: { signedWith: 'JWT_SECRET', claims: { role: 'anon', quote: 'it\'s' }, expiresInDays: 10 } },
    { name: 'SIGNER', type: 'signing-key', params: { algorithm: 'ES256' } },
    { name: 'SERVICE', type: 'jwt', params: { signedWith: 'SIGNER', claims: { sub: 'service' } } }
  ]
  for (const send of [postSet, getSet]) {
    const response = await send(app, { items }, TEXT)
    t.equal(response.statusCode, 200, response.body)
    t.same(response.body.split('\n').map((line) => line.split('=')[0]), ['JWT_SECRET', 'ANON_KEY', 'SIGNER', 'SIGNER_PUBLIC_KEY', 'SERVICE', ''], `${send.name}: a line for the token, none derived`)
    const read = parseEnv(response.body)
    t.match(read.ANON_KEY, COMPACT)
    const { payload } = await jwtVerify(read.ANON_KEY as string, new TextEncoder().encode(read.JWT_SECRET), { algorithms: ['HS256'] })
    t.match(payload, { role: 'anon', quote: 'it\'s' }, `${send.name}: jose verified the token with JWT_SECRET's line`)
    if (hasReader(t, GOLANG_JWT)) t.match(golangJwtVerify(read.ANON_KEY as string, { secret: read.JWT_SECRET as string }, 'HS256'), { ok: true, claims: { role: 'anon' } }, 'golang-jwt too')
    const signed = await jwtVerify(read.SERVICE as string, await importJWK(JSON.parse(read.SIGNER_PUBLIC_KEY as string) as JWK, 'ES256'))
    t.match(signed.payload, { sub: 'service' }, 'and the ES256 token with the public key\'s line')
    t.equal(signed.protectedHeader.kid, JSON.parse(read.SIGNER as string).kid)
  }
})

t.test('every refusal at its pointer, with its code; a valid earlier item adds none; nothing drawn', async (t) => {
  const app = await build(t, { METRICS_PORT: '0' })
  const S = { name: 'S', type: 'password' }
  const jwt = (params: unknown) => ({ name: 'J', type: 'jwt', params })
  const at = (field: string) => `#/items/1/params/${field}`
  const signedWith = at('signedWith')
  const claims = (members: Record<string, unknown>) => [S, jwt({ signedWith: 'S', claims: members })]
  const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, index) => [`c${index}`, index]))
  const cases: Array<[string, unknown[], Array<[string, string]>]> = [
    ['no params', [S, { name: 'J', type: 'jwt' }], [[signedWith, 'REQUIRED']]],
    ['signedWith missing', [S, jwt({ claims: { a: 1 } })], [[signedWith, 'REQUIRED']]],
    ['signedWith not a string', [S, jwt({ signedWith: 5 })], [[signedWith, 'TYPE']]],
    ['signedWith empty', [S, jwt({ signedWith: '' })], [[signedWith, 'TOO_SHORT']]],
    ['naming no item', [S, jwt({ signedWith: 'NOPE' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming it by another case', [S, jwt({ signedWith: 's' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming itself', [S, jwt({ signedWith: 'J' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a later item', [{ name: 'A', type: 'uuid' }, jwt({ signedWith: 'S' }), S], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming an item with quantity 2', [{ name: 'S', type: 'password', params: { quantity: 2 } }, jwt({ signedWith: 'S' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a signing key with quantity 2', [{ name: 'S', type: 'signing-key', params: { quantity: 2 } }, jwt({ signedWith: 'S' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a vpn item', [{ name: 'S', type: 'vpn', params: { protocol: 'wireguard-psk' } }, jwt({ signedWith: 'S' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a number', [{ name: 'S', type: 'number' }, jwt({ signedWith: 'S' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a uuid standard', [{ name: 'S', type: 'uuid' }, jwt({ signedWith: 'S' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a uuid v7', [{ name: 'S', type: 'uuid', params: { format: 'v7' } }, jwt({ signedWith: 'S' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a ulid', [{ name: 'S', type: 'uuid', params: { format: 'ulid' } }, jwt({ signedWith: 'S' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a signing-key vapid', [{ name: 'S', type: 'signing-key', params: { algorithm: 'ES256', format: 'vapid' } }, jwt({ signedWith: 'S' })], [[signedWith, 'NOT_ALLOWED_VALUE']]],
    ['naming a jwt item', [S, { name: 'K', type: 'jwt', params: { signedWith: 'S' } }, { name: 'J', type: 'jwt', params: { signedWith: 'K' } }], [['#/items/2/params/signedWith', 'NOT_ALLOWED_VALUE']]],
    ['RS256 with a secret', [S, jwt({ signedWith: 'S', algorithm: 'RS256' })], [[at('algorithm'), 'NOT_ALLOWED_VALUE']]],
    ['EdDSA with a secret', [S, jwt({ signedWith: 'S', algorithm: 'EdDSA' })], [[at('algorithm'), 'NOT_ALLOWED_VALUE']]],
    ['ES256 against an EdDSA key', [{ name: 'S', type: 'signing-key' }, jwt({ signedWith: 'S', algorithm: 'ES256' })], [[at('algorithm'), 'NOT_ALLOWED_VALUE']]],
    ['HS256 against an ES256 key', [{ name: 'S', type: 'signing-key', params: { algorithm: 'ES256' } }, jwt({ signedWith: 'S', algorithm: 'HS256' })], [[at('algorithm'), 'NOT_ALLOWED_VALUE']]],
    ['HS512 against an HS256 key', [{ name: 'S', type: 'signing-key', params: { algorithm: 'HS256' } }, jwt({ signedWith: 'S', algorithm: 'HS512' })], [[at('algorithm'), 'NOT_ALLOWED_VALUE']]],
    ['an unknown algorithm', [S, jwt({ signedWith: 'S', algorithm: 'none' })], [[at('algorithm'), 'NOT_ALLOWED_VALUE']]],
    ['17 claims', claims({ ...sixteen, c16: 16 }), [[at('claims'), 'TOO_MANY_ITEMS']]],
    ['claims an array', claims([] as unknown as Record<string, unknown>), [[at('claims'), 'TYPE']]],
    ['claims null', [S, jwt({ signedWith: 'S', claims: null })], [[at('claims'), 'TYPE']]],
    ['a claim iat', claims({ iat: 1 }), [[at('claims/iat'), 'NOT_ALLOWED_VALUE']]],
    ['a claim exp', claims({ exp: 1 }), [[at('claims/exp'), 'NOT_ALLOWED_VALUE']]],
    ['a claim nbf', claims({ nbf: 1 }), [[at('claims/nbf'), 'NOT_ALLOWED_VALUE']]],
    ['a claim 123', claims({ 123: 'x' }), [[at('claims/123'), 'NOT_ALLOWED_VALUE']]],
    ['a claim 0', claims({ 0: 'x' }), [[at('claims/0'), 'NOT_ALLOWED_VALUE']]],
    ['a claim named empty', claims({ '': 'x' }), [[at('claims/'), 'NOT_ALLOWED_VALUE']]],
    ['a claim name with a control character', claims({ 'a\u0007': 'x' }), [[at('claims/a\u0007'), 'NOT_ALLOWED_VALUE']]],
    ['a claim name with DEL', claims({ 'a\u007f': 'x' }), [[at('claims/a\u007f'), 'NOT_ALLOWED_VALUE']]],
    ['a claim name with a line feed', claims({ 'a\nb': 'x' }), [[at('claims/a\nb'), 'NOT_ALLOWED_VALUE']]],
    // A name the client sent is echoed at most 32 characters long (src/http/validation-errors.ts)
    ['a claim name of 65 characters', claims({ ['n'.repeat(65)]: 'x' }), [[at(`claims/${'n'.repeat(32)}…`), 'NOT_ALLOWED_VALUE']]],
    ['a claim value of 257 characters', claims({ long: 'v'.repeat(257) }), [[at('claims/long'), 'TOO_LONG']]],
    ['a float claim', claims({ f: 1.5 }), [[at('claims/f'), 'TYPE']]],
    ['an integer claim past 2^53', claims({ n: 2 ** 53 }), [[at('claims/n'), 'OUT_OF_RANGE']]],
    ['an integer claim below -(2^53 - 1)', claims({ n: -(2 ** 53) }), [[at('claims/n'), 'OUT_OF_RANGE']]],
    ['a null claim', claims({ f: null }), [[at('claims/f'), 'TYPE']]],
    ['an object claim', claims({ f: { a: 1 } }), [[at('claims/f'), 'TYPE']]],
    ['an array claim', claims({ f: ['a'] }), [[at('claims/f'), 'TYPE']]],
    ['expiresInDays 0', [S, jwt({ signedWith: 'S', expiresInDays: 0 })], [[at('expiresInDays'), 'OUT_OF_RANGE']]],
    ['expiresInDays 36501', [S, jwt({ signedWith: 'S', expiresInDays: 36_501 })], [[at('expiresInDays'), 'OUT_OF_RANGE']]],
    ['expiresInDays 1.5', [S, jwt({ signedWith: 'S', expiresInDays: 1.5 })], [[at('expiresInDays'), 'TYPE']]],
    ['expiresInDays "10"', [S, jwt({ signedWith: 'S', expiresInDays: '10' })], [[at('expiresInDays'), 'TYPE']]],
    ['quantity in params', [S, jwt({ signedWith: 'S', quantity: 1 })], [[at('quantity'), 'UNKNOWN_FIELD']]],
    ['a typo', [S, jwt({ signedWith: 'S', claim: {} })], [[at('claim'), 'UNKNOWN_FIELD']]],
    ['a name taken', [S, { name: 'S', type: 'jwt', params: { signedWith: 'S' } }], [['#/items/1/name', 'DUPLICATE_NAME']]],
    ['a name reserved', [S, { name: 'PATH', type: 'jwt', params: { signedWith: 'S' } }], [['#/items/1/name', 'NOT_ALLOWED_VALUE']]],
    ['several at once', [S, jwt({ signedWith: 'S', algorithm: 'HS999', claims: { iat: 1, ok: 'x'.repeat(300) }, expiresInDays: 0 })],
      [[at('algorithm'), 'NOT_ALLOWED_VALUE'], [at('expiresInDays'), 'OUT_OF_RANGE']]],
    ['several rules at once', [S, jwt({ signedWith: 'S', claims: { iat: 1, ok: 'x'.repeat(300) } })], [[at('claims/iat'), 'NOT_ALLOWED_VALUE'], [at('claims/ok'), 'TOO_LONG']]]
  ]
  for (const [what, items, expected] of cases) {
    for (const send of [postSet, getSet]) {
      const response = await send(app, { items })
      t.equal(response.statusCode, 400, `${what} (${send.name})`)
      t.same(problems(response.body), expected, `${what} (${send.name})`)
    }
  }
  // What passes at the bounds
  const fine: Array<[string, unknown[]]> = [
    ['16 claims', claims(sixteen)],
    ['a claim name of 64 characters', claims({ ['n'.repeat(64)]: 'x' })],
    ['a claim value of 256 characters', claims({ long: 'v'.repeat(256) })],
    ['names that only look reserved', claims({ IAT: 1, iat_: 2, '1a': 3, '-1': 4, 1.5: 5, é: 6, ' ': 7 })],
    ['large and negative integers, booleans', claims({ big: Number.MAX_SAFE_INTEGER, small: -Number.MAX_SAFE_INTEGER, yes: true, no: false })],
    ['an explicit HS384 with a secret', [S, jwt({ signedWith: 'S', algorithm: 'HS384' })]],
    ['the key\'s own algorithm given', [{ name: 'S', type: 'signing-key', params: { algorithm: 'ES384' } }, jwt({ signedWith: 'S', algorithm: 'ES384' })]],
    ['a uuid numeric', [{ name: 'S', type: 'uuid', params: { format: 'numeric' } }, jwt({ signedWith: 'S' })]],
    ['a uuid urlsafe', [{ name: 'S', type: 'uuid', params: { format: 'urlsafe' } }, jwt({ signedWith: 'S' })]],
    ['a uuid alpha', [{ name: 'S', type: 'uuid', params: { format: 'alpha' } }, jwt({ signedWith: 'S' })]],
    ['two tokens of one key', [S, jwt({ signedWith: 'S' }), { name: 'K', type: 'jwt', params: { signedWith: 'S', algorithm: 'HS512' } }]],
    ['a key after other items', [{ name: 'A', type: 'uuid', params: { quantity: 3 } }, { name: 'B', type: 'password', params: { quantity: 2 } }, S, jwt({ signedWith: 'S' })]]
  ]
  for (const [what, items] of fine) {
    const response = await postSet(app, { items })
    t.equal(response.statusCode, 200, `${what}: ${response.statusCode === 200 ? 'answered' : response.body}`)
  }
  // 4 drawn by the last case alone: every refusal above drew nothing (the passing sets drew the rest)
  const metrics = await (await fetch(`${app.metricsUrl() as string}/metrics`)).text()
  const drawn = (type: string) => Number(new RegExp(`randgen_values_generated_total\\{generator="${type}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0)
  t.equal(drawn('number'), 0, 'no number drawn')
  t.equal(drawn('vpn'), 0, 'no vpn secret drawn')
  t.equal(drawn('uuid'), 6, 'uuids drawn only by the sets that passed')
})

t.test('a jwt counts as one value toward the 50', async (t) => {
  const app = await build(t)
  const S = { name: 'S', type: 'password' }
  const token = (name: string) => ({ name, type: 'jwt', params: { signedWith: 'S' } })
  const ok = await postSet(app, { items: [S, { name: 'U', type: 'uuid', params: { quantity: 48 } }, token('J')] })
  t.equal(ok.statusCode, 200, '49 values and a jwt')
  const two = await postSet(app, { items: [S, { name: 'U', type: 'uuid', params: { quantity: 47 } }, token('J'), token('K')] })
  t.equal(two.statusCode, 200, '48 values and two jwts')
  const over = await postSet(app, { items: [S, { name: 'U', type: 'uuid', params: { quantity: 49 } }, token('J')] })
  t.same(problems(over.body), [['#/items', 'TOO_MANY_VALUES']], '50 values and a jwt')
  t.match(over.json().errors[0].detail, /51/, 'the total counts the jwt')
  const tokens = await postSet(app, { items: [S, { name: 'U', type: 'uuid', params: { quantity: 47 } }, token('J'), token('K'), token('L')] })
  t.same(problems(tokens.body), [['#/items', 'TOO_MANY_VALUES']], '48 values and three jwts')
  // An invalid jwt still counts: its one value is asked for
  const invalid = await postSet(app, { items: [S, { name: 'U', type: 'uuid', params: { quantity: 49 } }, { name: 'J', type: 'jwt', params: {} }] })
  t.same(problems(invalid.body), [['#/items/2/params/signedWith', 'REQUIRED'], ['#/items', 'TOO_MANY_VALUES']])
})

t.test('thousands of claims or unknown fields are refused before AJV reads them, as a generator\'s params are', async (t) => {
  const app = await build(t)
  const S = { name: 'S', type: 'password' }
  const many = (value: unknown) => Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`c${index}`, value]))
  // Bad values would each cost AJV an error object: refused on the count alone
  for (const value of [null, 1]) {
    const response = await postSet(app, { items: [S, { name: 'J', type: 'jwt', params: { signedWith: 'S', claims: many(value) } }] })
    t.same(problems(response.body), [['#/items/1/params/claims', 'TOO_MANY_ITEMS']], `5000 claims of ${String(value)}: one problem`)
  }
  const unknown = await postSet(app, { items: [S, { name: 'J', type: 'jwt', params: { signedWith: 'S', ...many(1) } }] })
  t.equal(unknown.json().errors.length, 20, '5000 unknown fields: the first 20')
  t.same(problems(unknown.body)[0], ['#/items/1/params/c0', 'UNKNOWN_FIELD'])
})

t.test('claim names are echoed bounded: the answer to any body stays under 16 KiB', async (t) => {
  const app = await build(t)
  const S = { name: 'S', type: 'password' }
  const claims = (name: (index: number) => string, value: unknown) => Object.fromEntries(Array.from({ length: 16 }, (_, index) => [name(index), value]))
  const cut = (name: string) => `#/items/1/params/claims/${name.slice(0, 32)}…`
  const worst: Array<[string, Record<string, unknown>, (index: number) => string]> = [
    // AJV would repeat each name whole in its TYPE error: refused first, each cut short
    ['16 names of 3,000 characters, bad values', claims((index) => `${index}`.padEnd(3000, 'n'), null), (index) => cut(`${index}`.padEnd(3000, 'n'))],
    ['16 names of 600 control characters', claims((index) => `${index}`.padEnd(600, '\u0001'), null), (index) => cut(`${index}`.padEnd(600, '\u0001'))],
    // Names a claim may have: whole, as AJV writes them, at most 64 characters each
    ['16 names of 64 characters to escape, bad values', claims((index) => `${index}`.padEnd(64, '"'), null), (index) => `#/items/1/params/claims/${`${index}`.padEnd(64, '"')}`],
    ['16 names of 64 characters to escape, long values', claims((index) => `${index}`.padEnd(64, '\\'), 'v'.repeat(3000)), (index) => `#/items/1/params/claims/${`${index}`.padEnd(64, '\\')}`]
  ]
  for (const [what, members, pointer] of worst) {
    const response = await postSet(app, { items: [S, { name: 'J', type: 'jwt', params: { signedWith: 'S', claims: members } }] })
    t.equal(response.statusCode, 400, what)
    t.ok(Buffer.byteLength(response.body) <= 16_384, `${what}: ${Buffer.byteLength(response.body)} bytes`)
    t.same(response.json().errors.map(({ pointer }: { pointer: string }) => pointer), Array.from({ length: 16 }, (_, index) => pointer(index)), `${what}: a problem each, at its pointer`)
  }
  // One claim's problems point at one place, whichever check found them
  const name = 'n'.repeat(40)
  const type = await postSet(app, { items: [S, { name: 'J', type: 'jwt', params: { signedWith: 'S', claims: { [name]: null } } }] })
  const long = await postSet(app, { items: [S, { name: 'J', type: 'jwt', params: { signedWith: 'S', claims: { [name]: 'v'.repeat(257) } } }] })
  t.same(problems(type.body), [[`#/items/1/params/claims/${name}`, 'TYPE']], 'AJV: the whole name')
  t.same(problems(long.body), [[`#/items/1/params/claims/${name}`, 'TOO_LONG']], 'the rule: the whole name too')
})

t.test('the new messages are localized: no English left in de, fr, es, ru', async (t) => {
  const app = await build(t)
  const S = { name: 'S', type: 'password' }
  // Words of the English messages that none of the others holds as an identifier (nor as a word
  // of its own: Spanish writes "control")
  const english = /(?<!\p{L})(the|must|takes|place|send|other|names|line|none|only|makes|earlier|with|character|characters|digits|writes|those|but|this|has|pair|public)(?!\p{L})/iu
  const bodies: Array<[string, unknown, string]> = [
    ['RECIPE_WITH_ITEMS', { recipe: 'supabase', items: [{ name: 'A', type: 'uuid' }] }, '#/recipe'],
    ['NO_HASH_LINE', { items: [{ name: 'A', type: 'uuid', hashName: 'B' }] }, '#/items/0/hashName'],
    ['NO_PUBLIC_KEY_LINE', { items: [{ name: 'A', type: 'uuid', publicKeyName: 'B' }] }, '#/items/0/publicKeyName'],
    ['JWT_SIGNED_WITH', { items: [S, { name: 'J', type: 'jwt', params: { signedWith: 'NOPE' } }] }, '#/items/1/params/signedWith'],
    ['JWT_CLAIM_NAME', { items: [S, { name: 'J', type: 'jwt', params: { signedWith: 'S', claims: { iat: 1 } } }] }, '#/items/1/params/claims/iat']
  ]
  for (const [message, body, pointer] of bodies) {
    const en = (await postSet(app, body, { 'x-language': 'en' })).json()
    t.same(problems(JSON.stringify(en)), [[pointer, 'NOT_ALLOWED_VALUE']], `${message}: one problem`)
    t.match(en.errors[0].detail, english, `${message}: the English words are found in English`)
    for (const language of ['de', 'fr', 'es', 'ru']) {
      const response = await postSet(app, body, { 'x-language': language })
      t.equal(response.headers['content-language'], language)
      const { detail, title, errors } = response.json()
      t.same(problems(response.body), [[pointer, 'NOT_ALLOWED_VALUE']], `${message} ${language}: the same problem`)
      t.not(errors[0].detail, en.errors[0].detail, `${message} ${language}: not the English text`)
      t.equal(detail, errors[0].detail)
      t.not(title, en.title, `${message} ${language}: the title too`)
      t.notMatch(errors[0].detail, english, `${message} ${language}: no English sentence in ${errors[0].detail as string}`)
    }
  }
})

t.test('jwtProblems on items AJV has not filled in: the defaults a route would give are assumed', async (t) => {
  // The set route hands it items with their defaults (AJV's useDefaults); a caller that does not
  // gets the same answers: a signing-key is EdDSA in jwk, a uuid standard, claims {}
  const plan = (earlier: Item, params: Item = { signedWith: 'K' }) => jwtProblems(1, params, [{ name: 'K', ...earlier }])
  t.same(plan({ type: 'signing-key', params: {} }), { problems: [], plan: { keyIndex: 0, key: 'jwk', algorithm: 'EdDSA', claims: {} } }, 'a signing key: EdDSA, jwk')
  t.same(plan({ type: 'signing-key', params: { format: 'pem', algorithm: 'ES256' } }, { signedWith: 'K', claims: { a: 1 }, expiresInDays: 2 }),
    { problems: [], plan: { keyIndex: 0, key: 'pem', algorithm: 'ES256', claims: { a: 1 }, expiresInDays: 2 } }, 'a PEM key with claims and an expiry')
  t.same(plan({ type: 'uuid', params: {} }).problems, [{ pointer: '#/items/1/params/signedWith', code: 'NOT_ALLOWED_VALUE', message: 'JWT_SIGNED_WITH' }], 'a uuid: standard, no secret')
  t.same(plan({ type: 'password', params: {} }), { problems: [], plan: { keyIndex: 0, key: 'secret', algorithm: 'HS256', claims: {} } }, 'a password: HS256')
  t.same(plan({ type: 'password' }).problems.map(({ code }) => code), ['NOT_ALLOWED_VALUE'], 'an item without params: nothing to sign with')
  t.same(plan({ type: 5, params: {} }).problems.map(({ code }) => code), ['NOT_ALLOWED_VALUE'], 'an item without a type')
})
