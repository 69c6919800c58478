// CONTRACT §13 "proven by readers that no one here wrote": a JWT signed with each private key
// verifies with its public key in jose (npm) and in python jwcrypto, and a tampered one does not;
// jwcrypto's and jose's thumbprints are the `kid`; openssl reads every PEM and derives the same
// public key from the private one.
import t from 'tap'
import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  createLocalJWKSet, decodeProtectedHeader, importJWK, importPKCS8, importSPKI, jwtVerify, SignJWT,
  type CryptoKey, type JWK, type KeyObject
} from 'jose'
import { jwkSet, rsaSigningKey, signingKeys, type SigningAlgorithm } from '../../../src/keys/signing-keys.js'
import { hasTool, temporaryDirectory } from '../../tools.js'

interface Key { algorithm: SigningAlgorithm, format: 'jwk' | 'pem', label: string, value: string, publicKey?: string }

const keys: Key[] = []
for (const algorithm of ['EdDSA', 'ES256', 'ES384', 'HS256', 'HS384', 'HS512'] as const) {
  const { values, publicKeys } = signingKeys({ algorithm, format: 'jwk', quantity: 2 })
  values.forEach((value, index) => keys.push({ algorithm, format: 'jwk', label: `${algorithm} jwk`, value, publicKey: publicKeys?.[index] }))
}
for (const algorithm of ['EdDSA', 'ES256', 'ES384'] as const) {
  const { values, publicKeys } = signingKeys({ algorithm, format: 'pem', quantity: 2 })
  values.forEach((value, index) => keys.push({ algorithm, format: 'pem', label: `${algorithm} pem`, value, publicKey: publicKeys?.[index] }))
}
// Every RSA algorithm and format at 2048 bits; 3072 and 4096 once each way (their DER lengths differ)
for (const [bits, algorithm, format] of [
  [2048, 'RS256', 'jwk'], [2048, 'PS256', 'jwk'], [2048, 'RS256', 'pem'], [2048, 'PS256', 'pem'],
  [3072, 'RS256', 'jwk'], [3072, 'PS256', 'pem'], [4096, 'PS256', 'jwk'], [4096, 'RS256', 'pem']
] as const) {
  keys.push({ algorithm, format, label: `${algorithm} ${bits} ${format}`, ...rsaSigningKey(bits, algorithm, format) })
}

const CLAIMS = { sub: 'randgen', aud: 'readers' }

/** The JWT with its payload swapped for other claims, its signature kept. */
function tampered (jwt: string): string {
  const [header, , signature] = jwt.split('.')
  return [header, Buffer.from(JSON.stringify({ ...CLAIMS, sub: 'mallory' })).toString('base64url'), signature].join('.')
}

/** The private and public keys in jose's hands: from the JWKs, or from PKCS#8 and SPKI. */
async function joseKeys ({ algorithm, format, value, publicKey }: Key): Promise<{ signing: CryptoKey | KeyObject | Uint8Array, verifying: CryptoKey | KeyObject | Uint8Array }> {
  if (format === 'pem') return { signing: await importPKCS8(value, algorithm), verifying: await importSPKI(publicKey as string, algorithm) }
  const signing = await importJWK(JSON.parse(value) as JWK, algorithm)
  return { signing, verifying: publicKey === undefined ? signing : await importJWK(JSON.parse(publicKey) as JWK, algorithm) }
}

const kidOf = (key: Key): string | undefined => key.format === 'jwk' ? (JSON.parse(key.value) as { kid: string }).kid : undefined
const joseTokens = new Map<Key, string>()

t.test('jose: each private key signs a JWT its public key verifies; a tampered JWT is refused', async (t) => {
  for (const key of keys) {
    const { signing, verifying } = await joseKeys(key)
    const jwt = await new SignJWT(CLAIMS).setProtectedHeader({ alg: key.algorithm, kid: kidOf(key) }).sign(signing)
    joseTokens.set(key, jwt)
    const { payload } = await jwtVerify(jwt, verifying, { algorithms: [key.algorithm] })
    t.match(payload, CLAIMS, `${key.label}: verifies`)
    await t.rejects(jwtVerify(tampered(jwt), verifying, { algorithms: [key.algorithm] }), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' }, `${key.label}: tampered, refused`)
  }
})

t.test('jose: a JWK Set of the public keys finds each key by its kid and verifies', async (t) => {
  const pairs = keys.filter((key) => key.format === 'jwk' && key.publicKey !== undefined)
  const set = createLocalJWKSet(JSON.parse(jwkSet(pairs.map((key) => key.publicKey as string))))
  for (const key of pairs) {
    const jwt = joseTokens.get(key) as string
    t.equal(decodeProtectedHeader(jwt).kid, kidOf(key))
    t.match((await jwtVerify(jwt, set, { algorithms: [key.algorithm] })).payload, CLAIMS, `${key.label}: found by kid in the set`)
  }
})

// jwcrypto (Debian's python3-jwcrypto, for /usr/bin/python3): reads each key as JSON or PEM, signs
// a JWT and verifies it with the public key, refuses it tampered, verifies jose's JWT, and gives
// the thumbprints (RFC 7638, SHA-256) of the private and public key
const JWCRYPTO = String.raw`
import base64, json, sys
from jwcrypto import jwk, jwt

def load(text, fmt):
    if fmt == 'pem':
        return jwk.JWK.from_pem(text.encode())
    return jwk.JWK(**json.loads(text))

def verifies(token, key, alg):
    try:
        jwt.JWT(jwt=token, key=key, algs=[alg])
        return 'verified'
    except Exception as error:
        return type(error).__name__

answers = []
for item in json.load(sys.stdin):
    alg = item['alg']
    private = load(item['value'], item['format'])
    public = load(item['publicKey'], item['format']) if item.get('publicKey') else private
    token = jwt.JWT(header={'alg': alg}, claims={'sub': 'randgen', 'aud': 'readers'})
    token.make_signed_token(private)
    signed = token.serialize()
    head, _, signature = signed.split('.')
    forged = base64.urlsafe_b64encode(json.dumps({'sub': 'mallory', 'aud': 'readers'}).encode()).decode().rstrip('=')
    answers.append({
        'token': signed,
        'verified': verifies(signed, public, alg),
        'tampered': verifies('.'.join([head, forged, signature]), public, alg),
        'jose': verifies(item['joseToken'], public, alg),
        'thumbprint': private.thumbprint(),
        'publicThumbprint': public.thumbprint(),
        'hasPrivate': private.has_private,
        'publicHasPrivate': public.has_private,
    })
json.dump(answers, sys.stdout)
`

t.test('jwcrypto: signs and verifies with each key, refuses a tampered JWT, verifies jose\'s; thumbprint = kid', async (t) => {
  if (!hasTool(t, '/usr/bin/python3', 'python3-jwcrypto')) return
  const input = keys.map((key) => ({ alg: key.algorithm, format: key.format, value: key.value, publicKey: key.publicKey, joseToken: joseTokens.get(key) }))
  const run = spawnSync('/usr/bin/python3', ['-c', JWCRYPTO], { input: JSON.stringify(input), encoding: 'utf8' })
  if (run.status !== 0 && process.env.CI !== 'true' && /No module named 'jwcrypto'/.test(run.stderr)) {
    t.pass('jwcrypto checks', { skip: 'jwcrypto is not installed: apt-get install python3-jwcrypto' })
    return
  }
  t.equal(run.status, 0, run.stderr)
  const answers = JSON.parse(run.stdout) as Array<{ token: string, verified: string, tampered: string, jose: string, thumbprint: string, publicThumbprint: string, hasPrivate: boolean, publicHasPrivate: boolean }>
  t.equal(answers.length, keys.length)
  for (const [index, key] of keys.entries()) {
    const answer = answers[index] as typeof answers[number]
    t.equal(answer.verified, 'verified', `${key.label}: jwcrypto verifies its JWT with the public key`)
    t.equal(answer.tampered, 'InvalidJWSSignature', `${key.label}: jwcrypto refuses it tampered, for its signature`)
    t.equal(answer.jose, 'verified', `${key.label}: jwcrypto verifies jose's JWT`)
    if (key.publicKey !== undefined) {
      // (jwcrypto says has_private only of key pairs: an oct key is neither)
      t.ok(answer.hasPrivate, `${key.label}: jwcrypto reads a private key`)
      t.notOk(answer.publicHasPrivate, `${key.label}: and a public key without private members`)
    }
    const { verifying } = await joseKeys(key)
    t.match((await jwtVerify(answer.token, verifying, { algorithms: [key.algorithm] })).payload, CLAIMS, `${key.label}: jose verifies jwcrypto's JWT`)
    if (key.format === 'jwk') {
      t.equal(answer.thumbprint, kidOf(key), `${key.label}: jwcrypto's thumbprint is the kid`)
      if (key.publicKey !== undefined) t.equal(answer.publicThumbprint, kidOf(key), `${key.label}: and the public key's too`)
    }
  }
})

t.test('openssl pkey: reads every PEM and derives exactly our public key from the private key', async (t) => {
  if (!hasTool(t, 'openssl', 'openssl')) return
  const directory = temporaryDirectory(t)
  for (const [index, key] of keys.filter((key) => key.format === 'pem').entries()) {
    const privatePath = join(directory, `private-${index}.pem`)
    const publicPath = join(directory, `public-${index}.pem`)
    writeFileSync(privatePath, key.value, { mode: 0o600 })
    writeFileSync(publicPath, key.publicKey as string)
    t.equal(execFileSync('openssl', ['pkey', '-in', privatePath, '-pubout'], { encoding: 'utf8' }), key.publicKey, `${key.label}: openssl derives our public PEM`)
    t.equal(spawnSync('openssl', ['pkey', '-in', publicPath, '-pubin', '-noout']).status, 0, `${key.label}: openssl reads the public PEM`)
    t.match(execFileSync('openssl', ['pkey', '-in', privatePath, '-check', '-noout'], { encoding: 'utf8' }), /Key is valid/, `${key.label}: openssl checks the private key`)
    if (key.algorithm === 'RS256' || key.algorithm === 'PS256') {
      t.match(execFileSync('openssl', ['asn1parse', '-in', privatePath], { encoding: 'utf8' }), /OBJECT\s+:rsaEncryption/, `${key.label}: rsaEncryption`)
    }
  }
})
