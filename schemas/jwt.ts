// CONTRACT §14.2: the `jwt` set item, a token signed with an earlier item's secret or signing key.
// Sets only: it needs the key beside it. The claims' own rules (names, count, values) are checked
// by plugins/sets.ts with the codes §14.2 gives them; the schema says their shape.
import { Type } from '@sinclair/typebox'
import { StringEnum } from './common.js'

export const JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512', 'RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const
export const JWT_CLAIMS_MAX = 16
export const JWT_CLAIM_NAME_MAX_LENGTH = 64
export const JWT_CLAIM_VALUE_MAX_LENGTH = 256
export const JWT_EXPIRES_IN_DAYS_MAX = 36_500
/** Claims randgen writes itself. */
export const JWT_RESERVED_CLAIMS = ['iat', 'exp', 'nbf'] as const
/** The longest token: a header with a kid, 16 claims at their longest (each character escaped), a signature of RSA 4096. */
export const JWT_MAX_LENGTH = 32_768

export const JwtParams = Type.Object({
  signedWith: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The `name` of an earlier item of the set with quantity 1: a password, passphrase, seq, uuid (numeric, alpha, alphanumeric, urlsafe) or token, whose value\'s UTF-8 bytes are the HMAC key ' +
      '(as GoTrue, PostgREST and Realtime read JWT_SECRET); or a signing-key in jwk or pem format, signed with its private key (an HS* key with its decoded `k`).',
    examples: ['JWT_SECRET']
  }),
  algorithm: Type.Optional(StringEnum(JWT_ALGORITHMS, {
    description: 'HS256 (the default), HS384 or HS512 with a secret; with a signing-key its own algorithm (the default).'
  })),
  claims: Type.Unsafe<Record<string, string | number | boolean>>({
    type: 'object',
    default: {},
    description: `At most ${JWT_CLAIMS_MAX} claims, in their order, before \`iat\` (the set's generatedAt in whole seconds) and \`exp\`. Each name 1..${JWT_CLAIM_NAME_MAX_LENGTH} characters, no control character, ` +
      `not all decimal digits, not ${JWT_RESERVED_CLAIMS.join(', ')}; each value a string of at most ${JWT_CLAIM_VALUE_MAX_LENGTH} characters, an integer (a safe one: ±(2^53 − 1)) or a boolean.`,
    additionalProperties: { type: ['string', 'integer', 'boolean'] },
    examples: [{ role: 'anon', iss: 'supabase' }]
  }),
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: JWT_EXPIRES_IN_DAYS_MAX, description: '`exp` = `iat` + days × 86,400; absent: no `exp`.' }))
}, {
  $id: 'JwtParams',
  additionalProperties: false,
  description: 'A JWS compact serialization signed with an earlier item\'s key (sets only). Its item answers one token and entropyBits 0: a token adds no randomness of its own.',
  examples: [{ signedWith: 'JWT_SECRET', claims: { role: 'anon', iss: 'supabase' }, expiresInDays: 1826 }]
})
