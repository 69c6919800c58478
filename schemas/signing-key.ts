import { Type } from '@sinclair/typebox'
import { GenerationResult, IntegerEnum, Params, StringEnum } from './common.js'

export const SIGNING_ALGORITHMS = ['EdDSA', 'ES256', 'ES384', 'RS256', 'PS256', 'HS256', 'HS384', 'HS512'] as const
export const SIGNING_KEY_FORMATS = ['jwk', 'pem', 'vapid', 'synapse'] as const
export const MODULUS_BITS = [2048, 3072, 4096] as const
/** The modulus an RSA key gets when `modulusBits` is not given. */
export const DEFAULT_MODULUS_BITS = 2048
/** CONTRACT §13: RSA keys one request (or one set) makes at most: each costs up to seconds of CPU. */
export const RSA_KEYS_MAX = 5
/** The longest private key: an RSA 4096 key as a JWK (~3,200 characters) or PKCS#8 PEM (~3,300). */
export const SIGNING_KEY_MAX_LENGTH = 4096

export const SigningKeyParams = Params('SigningKeyParams', {
  algorithm: StringEnum(SIGNING_ALGORITHMS, {
    default: 'EdDSA',
    description: 'The JWS algorithm the key is for: `EdDSA` (Ed25519), `ES256` (P-256), `ES384` (P-384), `RS256` and `PS256` (RSA, `modulusBits`), `HS256`, `HS384`, `HS512` (a shared secret of 32, 48 or 64 bytes).'
  }),
  // Optional with no default: "given with another algorithm" must be told from "left out"
  modulusBits: Type.Optional(IntegerEnum(MODULUS_BITS, {
    description: `RSA only (\`RS256\`, \`PS256\`): 2048, 3072 or 4096 bits; ${DEFAULT_MODULUS_BITS} when left out. Given with another algorithm: NOT_ALLOWED_VALUE.`
  })),
  format: StringEnum(SIGNING_KEY_FORMATS, {
    default: 'jwk',
    description: '`jwk`: each value a private JWK on one line (`kty`, the key\'s members, `alg`, `use: "sig"`, `kid` = its RFC 7638 thumbprint), its public JWK in `publicKeys`; ' +
      '`pem`: PKCS#8 (`rsaEncryption` for RS256 and PS256 alike), the public key as SPKI; `vapid`: ES256 only, the 32-byte private scalar and the 65-byte uncompressed public point, Base64url without padding (web push); ' +
      '`synapse`: EdDSA only, a Matrix Synapse signing key line `ed25519 a_XXXX <seed>` (key id `a_` and 4 random characters of A-Z a-z 0-9, the 32-byte seed in standard Base64 without padding), its public key `ed25519:a_XXXX <public key, unpadded Base64>`. ' +
      '`pem` and `vapid` have no HMAC form, `vapid` is ES256\'s alone and `synapse` EdDSA\'s: another combination is NOT_ALLOWED_VALUE.'
  }),
  quantity: Type.Integer({ minimum: 1, maximum: 50, default: 1, description: `How many keys (1..50; RSA 1..${RSA_KEYS_MAX}: TOO_MANY_VALUES beyond).`, examples: [1] })
}, {
  description: 'Signing-key parameters (CONTRACT §13). With `Accept: application/jwk-set+json` the answer is the public keys as a JWK Set, whatever `format` (406 for HMAC keys, which have none).',
  examples: [{ algorithm: 'ES256' }, { algorithm: 'RS256', modulusBits: 3072 }, { algorithm: 'ES256', format: 'vapid' }, { algorithm: 'EdDSA', format: 'synapse' }, { algorithm: 'HS256' }]
})

export const SigningKeyResult = GenerationResult('SigningKeyResult', 'signing-key', { keyPairs: true, valueMaxLength: SIGNING_KEY_MAX_LENGTH })

/** RFC 7517 §5: the public keys as a JWK Set, answered for `Accept: application/jwk-set+json`. */
export const JwkSetResult = Type.Object({
  keys: Type.Array(Type.Object({
    kty: Type.String({ enum: ['OKP', 'EC', 'RSA'], description: 'The key type.' }),
    alg: Type.String({ enum: ['EdDSA', 'ES256', 'ES384', 'RS256', 'PS256'], description: 'The JWS algorithm the key is for.' }),
    use: Type.Literal('sig'),
    kid: Type.String({ minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]{43}$', description: 'The RFC 7638 thumbprint (SHA-256, Base64url) of the public key.' })
  }, { additionalProperties: true, description: 'A public JWK: `kty`, the key\'s public members (`crv`, `x`, `y`; `n`, `e`), `alg`, `use`, `kid`.' }), { maxItems: 50 })
}, { additionalProperties: false, description: 'The public keys of the answer as a JWK Set (RFC 7517 §5), in the values\' order, whatever `format`; 406 for HMAC keys, which have none.' })
