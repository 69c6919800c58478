// The supabase recipe (CONTRACT §14.3): ANON_KEY and SERVICE_ROLE_KEY verified with JWT_SECRET's
// bytes by golang-jwt (what GoTrue verifies them with) and by jose (npm); a tampered token and a
// token checked with another secret refused by both; the compact form checked here too, since
// jose takes segments padded with `=`. The other lines' lengths by Python's decoders.
import t from 'tap'
import { errors, jwtVerify } from 'jose'
import { GOLANG_JWT, golangJwtVerify, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['POSTGRES_PASSWORD', 'JWT_SECRET', 'ANON_KEY', 'SERVICE_ROLE_KEY', 'DASHBOARD_PASSWORD', 'SECRET_KEY_BASE', 'VAULT_ENC_KEY', 'PG_META_CRYPTO_KEY',
  'LOGFLARE_PUBLIC_ACCESS_TOKEN', 'LOGFLARE_PRIVATE_ACCESS_TOKEN', 'S3_PROTOCOL_ACCESS_KEY_ID', 'S3_PROTOCOL_ACCESS_KEY_SECRET']
/** JWS compact serialization: three unpadded Base64url segments, an HS256 signature of 32 bytes. */
const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/
const ALNUM = (length: number) => new RegExp(`^[A-Za-z0-9]{${length}}$`)
const FORMS = {
  POSTGRES_PASSWORD: ALNUM(32),
  JWT_SECRET: ALNUM(40),
  ANON_KEY: COMPACT,
  SERVICE_ROLE_KEY: COMPACT,
  DASHBOARD_PASSWORD: ALNUM(32),
  SECRET_KEY_BASE: /^[A-Za-z0-9+/]{64}$/,
  VAULT_ENC_KEY: /^[0-9a-f]{32}$/,
  PG_META_CRYPTO_KEY: /^[A-Za-z0-9+/]{32}$/,
  LOGFLARE_PUBLIC_ACCESS_TOKEN: /^[A-Za-z0-9+/]{32}$/,
  LOGFLARE_PRIVATE_ACCESS_TOKEN: /^[A-Za-z0-9+/]{32}$/,
  S3_PROTOCOL_ACCESS_KEY_ID: /^[0-9a-f]{32}$/,
  S3_PROTOCOL_ACCESS_KEY_SECRET: /^[0-9a-f]{64}$/
}
const FIVE_YEARS = 1826 * 86_400

const segment = (token: string, index: number) => JSON.parse(Buffer.from(token.split('.')[index] as string, 'base64url').toString('utf8'))

t.test('supabase: every line in its form; the keys signed with JWT_SECRET, read by golang-jwt and jose', async (t) => {
  const app = await build(t)
  const before = Math.floor(Date.now() / 1000)
  const answers = await recipeAnswers(t, app, 'supabase', NAMES)
  const after = Math.ceil(Date.now() / 1000)
  checkForms(t, answers, FORMS)
  const generatedAt = Math.floor(Date.parse(answers.generatedAt) / 1000)

  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const secret = valueOf(values, 'JWT_SECRET')
    const key = new TextEncoder().encode(secret)
    for (const [name, role] of [['ANON_KEY', 'anon'], ['SERVICE_ROLE_KEY', 'service_role']] as const) {
      const token = valueOf(values, name)
      t.same(segment(token, 0), { alg: 'HS256', typ: 'JWT' }, `${label} ${name}: the header`)
      t.same(Object.keys(segment(token, 1)), ['role', 'iss', 'iat', 'exp'], `${label} ${name}: the claims in the recipe's order, then iat and exp`)

      const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: 'supabase' })
      t.equal(protectedHeader.alg, 'HS256')
      t.equal(payload.role, role, `jose: ${label} ${name} has role ${role}`)
      t.ok((payload.iat as number) >= before && (payload.iat as number) <= after, `jose: ${label} ${name}'s iat is when it was made`)
      if (label === 'JSON') t.equal(payload.iat, generatedAt, 'iat is the set\'s generatedAt, in whole seconds')
      t.equal((payload.exp as number) - (payload.iat as number), FIVE_YEARS, `jose: ${label} ${name} expires 1826 days on`)

      // A payload changed under the same signature, and the right token with another secret
      const [header, , signature] = token.split('.')
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...segment(token, 1), role: 'service_role', exp: (payload.exp as number) + 1 })).toString('base64url')}.${signature}`
      await t.rejects(jwtVerify(forged, key), errors.JWSSignatureVerificationFailed, `jose refuses a tampered ${name}`)
      await t.rejects(jwtVerify(token, new TextEncoder().encode(`${secret}x`)), errors.JWSSignatureVerificationFailed, `jose refuses ${name} with another secret`)

      if (!hasReader(t, GOLANG_JWT)) continue
      const read = golangJwtVerify(token, { secret }, 'HS256')
      t.ok(read.ok, `golang-jwt verifies ${label} ${name}${read.ok ? '' : `: ${read.error}`}`)
      if (read.ok) {
        t.same(read.header, { alg: 'HS256', typ: 'JWT' })
        t.same({ role: read.claims.role, iss: read.claims.iss }, { role, iss: 'supabase' }, `golang-jwt: ${label} ${name}'s claims`)
        t.equal((read.claims.exp as number) - (read.claims.iat as number), FIVE_YEARS, `golang-jwt: ${label} ${name}'s exp`)
      }
      t.notOk(golangJwtVerify(forged, { secret }, 'HS256').ok, `golang-jwt refuses a tampered ${name}`)
      t.notOk(golangJwtVerify(token, { secret: `${secret}x` }, 'HS256').ok, `golang-jwt refuses ${name} with another secret`)
    }
  }

  const env = answers.env
  checkDecoded(t, {
    SECRET_KEY_BASE: [valueOf(env, 'SECRET_KEY_BASE'), 'base64', 48],
    VAULT_ENC_KEY: [valueOf(env, 'VAULT_ENC_KEY'), 'hex', 16],
    PG_META_CRYPTO_KEY: [valueOf(env, 'PG_META_CRYPTO_KEY'), 'base64', 24],
    LOGFLARE_PUBLIC_ACCESS_TOKEN: [valueOf(env, 'LOGFLARE_PUBLIC_ACCESS_TOKEN'), 'base64', 24],
    LOGFLARE_PRIVATE_ACCESS_TOKEN: [valueOf(env, 'LOGFLARE_PRIVATE_ACCESS_TOKEN'), 'base64', 24],
    S3_PROTOCOL_ACCESS_KEY_ID: [valueOf(env, 'S3_PROTOCOL_ACCESS_KEY_ID'), 'hex', 16],
    S3_PROTOCOL_ACCESS_KEY_SECRET: [valueOf(env, 'S3_PROTOCOL_ACCESS_KEY_SECRET'), 'hex', 32]
  })
  t.ok(/[A-Za-z]/.test(valueOf(env, 'DASHBOARD_PASSWORD')), 'DASHBOARD_PASSWORD holds a letter (Kong\'s rule: not digits only)')
})
