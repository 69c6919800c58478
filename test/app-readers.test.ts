// The harness of test/app-readers/ checked on its own, before any recipe leans on it: each app's
// reader takes a value made by the app's own generator or by a tool of its own (openssl, jose,
// node:crypto, web-push), and refuses a bad one in its own words, so a recipe's test that passes
// through it could have failed. The traps each reader has (a form it takes that the app's
// generator never writes) are shown too: that is why the *_FORM patterns exist.
import t from 'tap'
import { execFileSync, spawnSync } from 'node:child_process'
import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { SignJWT, jwtVerify } from 'jose'
import webpush from 'web-push'
import {
  ACTIVE_SUPPORT, ARGON2_CFFI, DJANGO, FERNET, FERNET_KEY_FORM, GITEA_DECODER, GITEA_JWT_SECRET_FORM, GOLANG_JWT,
  LARAVEL, LARAVEL_APP_KEY_FORM, SIGNEDJSON, SYNAPSE_SIGNING_KEY_FORM, activeSupportRoundTrip, airflowMultiFernet,
  argon2Reads, djangoCheckSecretKey, djangoRandomSecretKey, fernetGenerateKey, fernetRoundTrip, giteaDecodeJwtSecret,
  giteaNewJwtSecret, golangJwtVerify, hasReader, laravelEncrypter, laravelGenerateAppKey, railsSecret, signedjsonReads,
  synapseGenerateSigningKey, webPushVapid
} from './app-readers/index.js'
import { DEBIAN_PYTHON } from './hash-readers.js'
import { hasTool } from './tools.js'

/** `count` bytes from `openssl rand`: a drawing no code here made. */
const opensslRand = (count: number): Buffer => execFileSync('openssl', ['rand', String(count)])

/** The token with another payload, its header and signature kept. */
function tampered (jwt: string): string {
  const [header, , signature] = jwt.split('.')
  return [header, Buffer.from(JSON.stringify({ role: 'service_role', iss: 'supabase' })).toString('base64url'), signature].join('.')
}

t.test('golang-jwt verifies HS256/384/512 tokens jose signed with a secret\'s UTF-8 bytes, and refuses the rest', async (t) => {
  if (!hasReader(t, GOLANG_JWT) || !hasTool(t, 'openssl', 'openssl')) return
  const secret = opensslRand(30).toString('base64')
  const other = opensslRand(30).toString('base64')
  for (const algorithm of ['HS256', 'HS384', 'HS512']) {
    const jwt = await new SignJWT({ role: 'anon', iss: 'supabase' }).setProtectedHeader({ alg: algorithm, typ: 'JWT' })
      .setIssuedAt().setExpirationTime('1826d').sign(new TextEncoder().encode(secret))
    const read = golangJwtVerify(jwt, { secret }, algorithm)
    t.match(read, { ok: true, header: { alg: algorithm, typ: 'JWT' }, claims: { role: 'anon', iss: 'supabase' } }, `${algorithm}: verified, its claims read`)
    if (read.ok) t.equal((read.claims.exp as number) - (read.claims.iat as number), 1826 * 86400, `${algorithm}: exp five years after iat`)
    t.match(golangJwtVerify(tampered(jwt), { secret }, algorithm), { ok: false, error: 'signature is invalid' }, `${algorithm}: tampered, refused`)
    t.match(golangJwtVerify(jwt, { secret: other }, algorithm), { ok: false, error: 'signature is invalid' }, `${algorithm}: another secret, refused`)
    t.match(golangJwtVerify(jwt, { secretBytes: Buffer.from(secret, 'base64') }, algorithm), { ok: false, error: 'signature is invalid' }, `${algorithm}: the secret's decoded bytes are not its UTF-8 bytes`)
    t.match(golangJwtVerify(jwt, { secret }, algorithm === 'HS256' ? 'HS512' : 'HS256'), { ok: false, error: /signing method .* is invalid/ }, `${algorithm}: not the one valid method, refused`)
  }
  const expired = await new SignJWT({ role: 'anon' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(1_000_000_000).setExpirationTime(1_000_000_060).sign(new TextEncoder().encode(secret))
  t.match(golangJwtVerify(expired, { secret }, 'HS256'), { ok: false, error: 'Token is expired' }, 'an exp passed, refused')
  // jose reads a padded signature segment; golang-jwt (and so GoTrue) does not
  const jwt = await new SignJWT({ role: 'anon' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret))
  const padded = `${jwt}=`
  t.match(golangJwtVerify(jwt, { secret }, 'HS256'), { ok: true }, 'unpadded: verified')
  t.match(golangJwtVerify(padded, { secret }, 'HS256'), { ok: false, error: /illegal base64/ }, 'a padded segment, refused')
  await t.resolves(jwtVerify(padded, new TextEncoder().encode(secret)), 'where jose verifies it: check the compact form too')
})

t.test('golang-jwt verifies EdDSA, ES256 and RS256 tokens with the public key as PEM or JWK, and refuses another key', async (t) => {
  if (!hasReader(t, GOLANG_JWT)) return
  const pairs: Record<string, () => { publicKey: KeyObject, privateKey: KeyObject }> = {
    EdDSA: () => generateKeyPairSync('ed25519'),
    ES256: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    RS256: () => generateKeyPairSync('rsa', { modulusLength: 2048 })
  }
  for (const [algorithm, pair] of Object.entries(pairs)) {
    const { publicKey, privateKey } = pair()
    const jwt = await new SignJWT({ sub: 'service' }).setProtectedHeader({ alg: algorithm, typ: 'JWT' }).setIssuedAt().sign(privateKey)
    const pem = publicKey.export({ type: 'spki', format: 'pem' }) as string
    t.match(golangJwtVerify(jwt, { publicKey: pem }, algorithm), { ok: true, claims: { sub: 'service' } }, `${algorithm}: verified with the PEM`)
    t.match(golangJwtVerify(jwt, { publicKey: JSON.stringify(publicKey.export({ format: 'jwk' })) }, algorithm), { ok: true }, `${algorithm}: verified with the JWK`)
    const another = pair().publicKey.export({ type: 'spki', format: 'pem' }) as string
    t.match(golangJwtVerify(jwt, { publicKey: another }, algorithm), { ok: false, error: /verification error/ }, `${algorithm}: another public key, refused`)
    t.match(golangJwtVerify(tampered(jwt), { publicKey: pem }, algorithm), { ok: false, error: /verification error/ }, `${algorithm}: tampered, refused`)
  }
})

t.test('Gitea\'s decoding takes `gitea generate secret`\'s form and openssl\'s 32 bytes; refuses padded, 31 and 33 bytes', async (t) => {
  if (!hasReader(t, GITEA_DECODER) || !hasTool(t, 'openssl', 'openssl')) return
  const generated = giteaNewJwtSecret()
  t.match(generated, GITEA_JWT_SECRET_FORM, 'Gitea\'s generator writes the form')
  t.match(giteaDecodeJwtSecret(generated), { ok: true, hex: Buffer.from(generated, 'base64url').toString('hex') }, 'decoded to its 32 bytes')
  const bytes = opensslRand(32)
  t.match(giteaDecodeJwtSecret(bytes.toString('base64url')), { ok: true, hex: bytes.toString('hex') }, 'openssl\'s 32 bytes, in Base64url: those bytes')
  t.match(giteaDecodeJwtSecret(`${bytes.toString('base64url')}=`), { ok: false, error: /illegal base64 data/ }, 'padded, refused')
  // 0xfb 0xff in every position: Base64url `-_`, standard Base64 `+/`
  const standard = Buffer.from('fbff'.repeat(16), 'hex').toString('base64').replace(/=+$/, '')
  t.match(giteaDecodeJwtSecret(standard), { ok: false, error: /illegal base64 data/ }, 'standard Base64\'s + and /, refused')
  t.match(giteaDecodeJwtSecret(opensslRand(31).toString('base64url')), { ok: false, error: 'invalid base64 decoded length: 31, expects: 32' }, '31 bytes, refused')
  t.match(giteaDecodeJwtSecret(opensslRand(33).toString('base64url')), { ok: false, error: 'invalid base64 decoded length: 33, expects: 32' }, '33 bytes, refused')
  // Go's decoder skips line breaks and takes a last character with bits set past the 32 bytes
  const broken = `${generated.slice(0, 20)}\n${generated.slice(20)}`
  t.match(giteaDecodeJwtSecret(broken), { ok: true }, 'the trap: a line break inside is read')
  t.notMatch(broken, GITEA_JWT_SECRET_FORM, 'which the form refuses')
})

t.test('Laravel\'s Encrypter takes key:generate\'s APP_KEY and openssl\'s, and refuses a 31-byte key', async (t) => {
  if (!hasReader(t, LARAVEL) || !hasTool(t, 'openssl', 'openssl')) return
  const generated = laravelGenerateAppKey()
  t.match(generated, LARAVEL_APP_KEY_FORM, 'key:generate writes the form')
  t.match(laravelEncrypter(generated, 'un secret: é'), { ok: true, keyBytes: 32, decrypted: 'un secret: é' }, 'encrypted and decrypted')
  t.match(laravelEncrypter(`base64:${opensslRand(32).toString('base64')}`), { ok: true, keyBytes: 32, decrypted: 'randgen' }, 'openssl\'s 32 bytes')
  const unsupported = /^Unsupported cipher or incorrect key length/
  t.match(laravelEncrypter(`base64:${opensslRand(31).toString('base64')}`), { ok: false, error: unsupported }, '31 bytes, refused')
  t.match(laravelEncrypter(`base64:${opensslRand(33).toString('base64')}`), { ok: false, error: unsupported }, '33 bytes, refused')
  t.match(laravelEncrypter(generated.slice('base64:'.length)), { ok: false, error: unsupported }, 'without `base64:` the 44 characters are the key, refused')
  t.match(laravelEncrypter(''), { ok: false, error: /No application encryption key/ }, 'empty, refused')
  const unpadded = generated.replace(/=$/, '')
  t.match(laravelEncrypter(unpadded), { ok: true, keyBytes: 32 }, 'the trap: base64_decode takes it unpadded')
  t.notMatch(unpadded, LARAVEL_APP_KEY_FORM, 'which the form refuses')
})

t.test('Django\'s check_secret_key passes get_random_secret_key\'s keys and warns W009 on weak ones', async (t) => {
  if (!hasReader(t, DJANGO)) return
  const generated = djangoRandomSecretKey()
  t.equal(generated.length, 50)
  t.same(djangoCheckSecretKey(generated), [], 'get_random_secret_key: no warning')
  t.same(djangoCheckSecretKey(opensslRand(48).toString('base64')), [], 'openssl\'s 48 bytes in Base64: no warning')
  t.same(djangoCheckSecretKey(`django-insecure-${generated}`), ['security.W009'], 'startproject\'s prefix: W009')
  t.same(djangoCheckSecretKey(generated.slice(0, 49)), ['security.W009'], '49 characters: W009')
  t.same(djangoCheckSecretKey('abcd'.repeat(13)), ['security.W009'], '52 characters, 4 distinct: W009')
})

t.test('Fernet and Airflow\'s MultiFernet take generate_key\'s keys and openssl\'s; refuse unpadded and 31 bytes', async (t) => {
  if (!hasReader(t, FERNET) || !hasTool(t, 'openssl', 'openssl')) return
  const generated = fernetGenerateKey()
  t.match(generated, FERNET_KEY_FORM, 'generate_key writes the form')
  t.match(fernetRoundTrip(generated, 'ünïcode'), { ok: true, decrypted: 'ünïcode' }, 'encrypted and decrypted')
  const drawn = opensslRand(32).toString('base64url')
  t.match(fernetRoundTrip(`${drawn}=`), { ok: true }, 'openssl\'s 32 bytes, Base64url padded')
  const refused = { ok: false, error: 'ValueError: Fernet key must be 32 url-safe base64-encoded bytes.' }
  t.match(fernetRoundTrip(drawn), refused, 'unpadded, refused')
  t.match(fernetRoundTrip(opensslRand(31).toString('base64url')), refused, '31 bytes, refused')
  t.match(fernetRoundTrip(''), refused, 'empty, refused')
  const second = fernetGenerateKey()
  t.match(airflowMultiFernet(`${generated},${second}`), { ok: true, keys: 2, decrypted: 'randgen', firstKeyEncrypts: true, eachKeyDecrypts: true }, 'a comma list: the first encrypts, each decrypts')
  t.match(airflowMultiFernet(generated), { ok: true, keys: 1 }, 'one key')
  t.match(airflowMultiFernet(`${generated},${drawn}`), refused, 'a list with an unpadded key, refused')
  // 0xfb 0xff in every position: Base64url `-_`, standard Base64 `+/`
  const standard = Buffer.from('fbff'.repeat(16), 'hex').toString('base64')
  t.match(fernetRoundTrip(standard), { ok: true }, 'the trap: standard Base64\'s + and / are read too')
  t.notMatch(standard, FERNET_KEY_FORM, 'which the form refuses')
})

t.test('signedjson reads Synapse\'s line and node:crypto\'s seed, signs, verifies with the public key; refuses tampering', async (t) => {
  if (!hasReader(t, SIGNEDJSON)) return
  const { line, publicKey } = synapseGenerateSigningKey()
  t.match(line, SYNAPSE_SIGNING_KEY_FORM, 'Synapse\'s writer writes the form')
  const keyId = `ed25519:${line.split(' ')[1] as string}`
  t.match(signedjsonReads(line, publicKey), { ok: true, keys: 1, keyId, publicKeyId: keyId, verified: true, tamperedVerified: false }, 'read, signed, verified; tampered, refused')
  // An Ed25519 pair of node:crypto's, written as randgen's §14.2 form: seed and public key, standard Base64 unpadded
  const { privateKey, publicKey: ownPublic } = generateKeyPairSync('ed25519')
  const unpadded = (base64url: string) => Buffer.from(base64url, 'base64url').toString('base64').replace(/=+$/, '')
  const jwk = privateKey.export({ format: 'jwk' }) as { d: string, x: string }
  const ownLine = `ed25519 a_Zz09 ${unpadded(jwk.d)}`
  const ownPublicKey = `ed25519:a_Zz09 ${unpadded((ownPublic.export({ format: 'jwk' }) as { x: string }).x)}`
  t.match(ownLine, SYNAPSE_SIGNING_KEY_FORM)
  t.match(signedjsonReads(ownLine, ownPublicKey, { origin: 'randgen.example', ts: 1 }), { ok: true, keyId: 'ed25519:a_Zz09', verified: true, tamperedVerified: false }, 'node:crypto\'s pair: verified')
  t.match(signedjsonReads(ownLine, publicKey.replace(/^ed25519:a_\w{4}/, 'ed25519:a_Zz09')), { ok: true, verified: false }, 'another key\'s public key, refused')
  t.match(signedjsonReads(line, ownPublicKey), { ok: true, verified: false }, 'a public key under another key id, refused')
  const seed31 = Buffer.from(jwk.d, 'base64url').subarray(0, 31).toString('base64').replace(/=+$/, '')
  t.match(signedjsonReads(`ed25519 a_Zz09 ${seed31}`, ownPublicKey), { ok: false, error: /ValueError/ }, 'a 31-byte seed, refused')
  t.match(signedjsonReads('ed25519 a_Zz09', ownPublicKey), { ok: false, error: /ValueError/ }, 'no seed, refused')
  const padded = `${line}=`
  t.match(signedjsonReads(padded, publicKey), { ok: true, verified: true }, 'the trap: a padded seed is read too')
  t.notMatch(padded, SYNAPSE_SIGNING_KEY_FORM, 'which the form refuses')
})

t.test('ActiveSupport derives Rails\' cookie key from `rails secret`\'s value and openssl\'s; another value cannot decrypt', async (t) => {
  if (!hasReader(t, ACTIVE_SUPPORT) || !hasTool(t, 'openssl', 'openssl')) return
  const generated = railsSecret()
  t.match(generated, /^[0-9a-f]{128}$/, 'rails secret: 64 bytes in hex')
  t.match(activeSupportRoundTrip(generated, 'session: ü'), { ok: true, keyBytes: 32, decrypted: 'session: ü' }, 'encrypted and decrypted')
  const drawn = opensslRand(64).toString('hex')
  t.match(activeSupportRoundTrip(drawn), { ok: true, keyBytes: 32, decrypted: 'randgen' }, 'openssl\'s 64 bytes in hex')
  t.match(activeSupportRoundTrip(drawn, 'randgen', generated), { ok: false, error: /InvalidMessage/ }, 'decrypted with another SECRET_KEY_BASE: refused')
})

t.test('argon2-cffi reads the parameters of its own Argon2id string and verifies; refuses another value and a broken string', async (t) => {
  if (!hasReader(t, ARGON2_CFFI)) return
  const hashed = spawnSync(DEBIAN_PYTHON, ['-c', 'import argon2, sys; print(argon2.PasswordHasher(time_cost=3, memory_cost=65536, parallelism=4, hash_len=32, salt_len=16).hash(sys.stdin.read()))'], { input: 'correct horse', encoding: 'utf8' })
  t.equal(hashed.status, 0, hashed.stderr)
  const hash = hashed.stdout.trim()
  t.same(argon2Reads('correct horse', hash), { ok: true, verified: true, type: 'ID', version: 19, memoryKiB: 65536, iterations: 3, parallelism: 4, saltLength: 16, hashLength: 32 }, 'Authelia\'s defaults (m=65536, t=3, p=4, 32-byte key, 16-byte salt) read back, verified')
  t.match(argon2Reads('correct horsf', hash), { ok: true, verified: false }, 'another value: not verified')
  t.match(argon2Reads('correct horse', hash.replace('$argon2id$', '$argon2x$')), { ok: false, error: /InvalidHash/ }, 'a broken string, refused')
})

t.test('web-push takes its own VAPID pair, and refuses a 31-byte scalar; jose refuses halves of two pairs', async (t) => {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys()
  t.match(await webPushVapid(publicKey, privateKey), { ok: true, k: publicKey, payload: { aud: 'https://push.example.com', sub: 'mailto:a@example.com' } }, 'signed and verified')
  const other = webpush.generateVAPIDKeys()
  t.match(await webPushVapid(other.publicKey, privateKey), { ok: false, error: /^jose: / }, 'another pair\'s public key: the JWT does not verify')
  const short = Buffer.from(privateKey, 'base64url').subarray(1).toString('base64url')
  t.match(await webPushVapid(publicKey, short), { ok: false, error: /32 bytes/ }, '31 bytes, refused')
})
