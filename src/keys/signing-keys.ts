// CONTRACT §13: signing keys for JWS (JWT, OpenID Connect), web push (VAPID) and Matrix Synapse
// (§14.2). node:crypto
// (OpenSSL) makes every key pair and writes every PKCS#8 and SPKI encoding; a JWK's members are
// read out of that DER (src/keys/der.ts says why not Node's own JWK export); an HMAC secret is
// bytes from src/random/csprng.ts, as a Synapse key id's characters. Nothing here computes on a
// curve or a modulus.
import { generateKeyPairSync, type ED25519KeyPairOptions } from 'node:crypto'
import { ecScalar, ed25519Seed, pkcs8PrivateKey, rsaIntegers, spkiPublicKey, uncompressedPoint } from './der.js'
import { jwkPair, type JwkPair } from './jwk.js'
import { BASE62 } from '../random/alphabets.js'
import { randomChunks, randomStrings } from '../random/csprng.js'
import { entropyBitsOf } from '../random/entropy.js'

export { jwkSet } from './jwk.js'

export type RsaAlgorithm = 'RS256' | 'PS256'
export type FastAlgorithm = 'EdDSA' | 'ES256' | 'ES384' | 'HS256' | 'HS384' | 'HS512'
export type SigningAlgorithm = FastAlgorithm | RsaAlgorithm
export type SigningKeyFormat = 'jwk' | 'pem' | 'vapid' | 'synapse'
export type ModulusBits = 2048 | 3072 | 4096

export interface SigningKeys { values: string[], publicKeys?: string[], entropyBits: number }
/** One key: the private key (JWK line or PKCS#8 PEM) and its public key (JWK line or SPKI PEM). */
export interface SigningKeyPair { value: string, publicKey: string }

/**
 * The curves' orders n (SEC 2 v2 §2.4.2 and §2.5.1, as FIPS 186-5 names them P-256 and P-384): a
 * private scalar is uniform in 1..n−1, so there are n−1 equally likely keys. `bytes` is the
 * length of a coordinate and of the scalar in a JWK (RFC 7518 §6.2.1.2, §6.2.2.1).
 */
const CURVES = {
  ES256: { crv: 'P-256', bytes: 32, order: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n },
  ES384: { crv: 'P-384', bytes: 48, order: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n }
} as const

/** RFC 7518 §3.2: an HMAC key as long as the hash's output. */
const SECRET_BYTES = { HS256: 32, HS384: 48, HS512: 64 } as const

/**
 * RSA's strength is not its count of keys (CONTRACT §13's one exception to §1.2): NIST SP 800-57
 * Part 1 Table 2 gives 112 and 128 bits to 2048 and 3072; 4096 is not in that table, and 152 is
 * the estimate of SP 800-56B Rev. 2 Appendix D (the same table has 112 and 128 for the others).
 */
const RSA_SECURITY_STRENGTH: Record<ModulusBits, number> = { 2048: 112, 3072: 128, 4096: 152 }

const ENTROPY_BITS: Record<FastAlgorithm, number> = {
  // The 32-byte seed (RFC 8032 §5.1.5) is the private key, as for ssh-key
  EdDSA: 256,
  ES256: entropyBitsOf(CURVES.ES256.order - 1n),
  ES384: entropyBitsOf(CURVES.ES384.order - 1n),
  HS256: 8 * SECRET_BYTES.HS256,
  HS384: 8 * SECRET_BYTES.HS384,
  HS512: 8 * SECRET_BYTES.HS512
}

/** `entropyBits` of a key that is not RSA's (CONTRACT §13). */
export function signingKeyEntropyBits (algorithm: FastAlgorithm): number {
  return ENTROPY_BITS[algorithm]
}

export function isRsaAlgorithm (algorithm: SigningAlgorithm): algorithm is RsaAlgorithm {
  return algorithm === 'RS256' || algorithm === 'PS256'
}

/** CONTRACT §13: `pem` has no HMAC form, `vapid` is a P-256 key pair and nothing else, `synapse` (§14.2) an Ed25519 one. */
export function formatAllowed (algorithm: SigningAlgorithm, format: SigningKeyFormat): boolean {
  if (format === 'vapid') return algorithm === 'ES256'
  if (format === 'synapse') return algorithm === 'EdDSA'
  return format === 'jwk' || !(algorithm in SECRET_BYTES)
}

export function rsaEntropyBits (modulusBits: ModulusBits): number {
  return RSA_SECURITY_STRENGTH[modulusBits]
}

/** PKCS#8 and SPKI, for every key type: as PEM to hand out, as DER to read a JWK's members from. */
const PEM: ED25519KeyPairOptions<'pem', 'pem'> = { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }
const DER: ED25519KeyPairOptions<'der', 'der'> = { privateKeyEncoding: { type: 'pkcs8', format: 'der' }, publicKeyEncoding: { type: 'spki', format: 'der' } }

const b64url = (bytes: Buffer): string => bytes.toString('base64url')
/** Standard Base64 without its `=`, as Synapse writes keys (signedjson's unpaddedbase64). */
const unpaddedBase64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '')

/** The random characters of a Synapse key id after `a_`: as many as synapse.config.key draws, from the same 62. */
export const SYNAPSE_KEY_ID_LENGTH = 4
export const SYNAPSE_KEY_ID_ALPHABET = BASE62

/**
 * `quantity` Synapse key ids, `a_` and SYNAPSE_KEY_ID_LENGTH characters each uniform over A-Z a-z
 * 0-9 (src/random/csprng.ts rejects the bytes that would bias them). An id names a key among a
 * server's keys, it hides nothing: entropyBits counts the seed alone (CONTRACT §14.2).
 */
export function synapseKeyIds (quantity: number): string[] {
  return randomStrings(SYNAPSE_KEY_ID_ALPHABET, SYNAPSE_KEY_ID_LENGTH, quantity).map((random) => `a_${random}`)
}

type DerPair = { privateKey: Buffer, publicKey: Buffer }

/** Builds the JWKs from the DER pair, then wipes the private DER (the JWK line is all that is kept). */
function fromDer (der: DerPair, build: (privateKey: Buffer, publicKey: Buffer) => JwkPair): SigningKeyPair {
  try {
    const { value, publicKey } = build(pkcs8PrivateKey(der.privateKey), spkiPublicKey(der.publicKey))
    return { value, publicKey: publicKey as string }
  } finally {
    der.privateKey.fill(0)
  }
}

/** An Ed25519 key; `keyId` names a `synapse` one. */
function ed25519 (format: 'jwk' | 'pem' | 'synapse', keyId = ''): SigningKeyPair {
  if (format === 'pem') return pemPair(generateKeyPairSync('ed25519', PEM))
  return fromDer(generateKeyPairSync('ed25519', DER), (privateKey, publicKey) => {
    const seed = ed25519Seed(privateKey)
    // CONTRACT §14.2: the line synapse.config.key writes and signedjson's read_signing_keys reads
    // (algorithm, key id, seed), and the verify key as Synapse publishes it (`ed25519:<key id>`)
    if (format === 'synapse') return { value: `ed25519 ${keyId} ${unpaddedBase64(seed)}`, publicKey: `ed25519:${keyId} ${unpaddedBase64(publicKey)}` }
    // RFC 8037 §2: `x` is the 32-byte public key, `d` the seed
    return jwkPair('OKP', 'EdDSA', { crv: 'Ed25519', x: b64url(publicKey) }, { d: b64url(seed) })
  })
}

/** The scalar is read from the DER at full length, never by ECDH.getPrivateKey(), which drops leading zero bytes (1 key in 256). */
function ec (algorithm: keyof typeof CURVES, format: SigningKeyFormat): SigningKeyPair {
  const { crv, bytes } = CURVES[algorithm]
  if (format === 'pem') return pemPair(generateKeyPairSync('ec', { namedCurve: crv, ...PEM }))
  return fromDer(generateKeyPairSync('ec', { namedCurve: crv, ...DER }), (privateKey, publicKey) => {
    const { x, y } = uncompressedPoint(publicKey, bytes)
    const d = b64url(ecScalar(privateKey, bytes))
    // VAPID (RFC 8292 §3.2, and what web-push libraries read): the padded scalar, the whole point
    if (format === 'vapid') return { value: d, publicKey: b64url(publicKey) }
    return jwkPair('EC', algorithm, { crv, x: b64url(x), y: b64url(y) }, { d })
  })
}

/** OpenSSL's PEM: 64-character lines, each ending in a line feed, the last one included. */
function pemPair ({ privateKey, publicKey }: { privateKey: string, publicKey: string }): SigningKeyPair {
  return { value: privateKey, publicKey }
}

/**
 * `quantity` keys for an algorithm that costs microseconds (everything but RSA), in `format`
 * (which `formatAllowed` must accept). `modulusBits` is RSA's alone and is ignored here.
 */
export function signingKeys ({ algorithm, format, quantity }: { algorithm: FastAlgorithm, modulusBits?: number, format: SigningKeyFormat, quantity: number }): SigningKeys {
  if (!formatAllowed(algorithm, format)) throw new RangeError(`signingKeys: no ${format} form for ${algorithm}`)
  const entropyBits = ENTROPY_BITS[algorithm]
  if (algorithm === 'HS256' || algorithm === 'HS384' || algorithm === 'HS512') {
    // One draw for all the secrets, wiped once encoded (randomChunks)
    const values = randomChunks(SECRET_BYTES[algorithm], quantity, (bytes, start, end) =>
      jwkPair('oct', algorithm, {}, { k: b64url(bytes.subarray(start, end)) }).value)
    return { values, entropyBits }
  }
  const values: string[] = []
  const publicKeys: string[] = []
  const keyIds = format === 'synapse' ? synapseKeyIds(quantity) : []
  for (let index = 0; index < quantity; index++) {
    const pair = algorithm === 'EdDSA' ? ed25519(format as 'jwk' | 'pem' | 'synapse', keyIds[index]) : ec(algorithm, format)
    values.push(pair.value)
    publicKeys.push(pair.publicKey)
  }
  return { values, publicKeys, entropyBits }
}

/**
 * One RSA key (e = 65537) for RS256 or PS256. SYNCHRONOUS on purpose, and seconds of CPU at 4096
 * bits: it runs on the pool's low-priority worker thread (src/work-pool/pool.ts, CONTRACT §12.1),
 * never on the event loop. The PKCS#8 carries `rsaEncryption` for PS256 too: jose refuses the
 * RSASSA-PSS identifier, and the JWS algorithm, not the key, chooses the padding.
 */
export function rsaSigningKey (modulusBits: ModulusBits, algorithm: RsaAlgorithm, format: 'jwk' | 'pem'): SigningKeyPair {
  // Its arguments cross a thread as untyped data: a wrong one must not become a wrong key
  if (!(modulusBits in RSA_SECURITY_STRENGTH) || !isRsaAlgorithm(algorithm) || !formatAllowed(algorithm, format)) {
    throw new RangeError(`rsaSigningKey: no ${String(format)} key of ${String(modulusBits)} bits for ${String(algorithm)}`)
  }
  const options = { modulusLength: modulusBits, publicExponent: 0x10001 }
  if (format === 'pem') return pemPair(generateKeyPairSync('rsa', { ...options, ...PEM }))
  return fromDer(generateKeyPairSync('rsa', { ...options, ...DER }), (privateKey) => {
    const [n, e, d, p, q, dp, dq, qi] = rsaIntegers(privateKey).map(b64url) as [string, string, string, string, string, string, string, string]
    return jwkPair('RSA', algorithm, { n, e }, { d, p, q, dp, dq, qi })
  })
}
