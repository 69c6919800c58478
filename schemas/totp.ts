import { Type } from '@sinclair/typebox'
import { GenerationResult, IntegerEnum, Params, Quantity, StringEnum } from './common.js'

export const TOTP_ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const
export const TOTP_DIGITS = [6, 8] as const

/** The most code points of `issuer` and of `account`. */
export const TOTP_NAME_MAX_LENGTH = 64
/** The most random bytes of a secret. */
export const TOTP_BYTES_MAX = 64

/**
 * What `issuer` and `account` may hold (their lengths are the schema's): no control character,
 * no `:` (it separates them in the label) and no lone surrogate (not text, so not UTF-8).
 */
export const TOTP_NAME_PATTERN = '^[^\\p{Cc}\\p{Cs}:]*$'

// The longest URI: both names of 64 code points of 4 UTF-8 bytes each, every byte as %XX, the
// issuer twice (label and parameter), the longest secret and the longest parameter values
const NAME_ENCODED_MAX = TOTP_NAME_MAX_LENGTH * 4 * 3
/** The longest value: what the OpenAPI document and its text/plain bound say. */
export const TOTP_URI_MAX_LENGTH = 'otpauth://totp/'.length + NAME_ENCODED_MAX + ':'.length + NAME_ENCODED_MAX +
  '?secret='.length + Math.ceil(TOTP_BYTES_MAX * 8 / 5) + '&issuer='.length + NAME_ENCODED_MAX +
  '&algorithm=SHA256'.length + '&digits=8'.length + '&period=300'.length

const NAME_RULE = 'no control character, no `:` and no unpaired surrogate (else NOT_ALLOWED_VALUE). Request data: never logged.'

export const TotpParams = Params('TotpParams', {
  issuer: Type.String({
    maxLength: TOTP_NAME_MAX_LENGTH,
    default: '',
    description: `Who issued the secret, as the authenticator app shows it (\`Example Co\`): 0..${TOTP_NAME_MAX_LENGTH} characters (Unicode code points), ${NAME_RULE} ` +
      'Empty: the label is the account alone and the URI has no `issuer=`.',
    examples: ['Example Co']
  }),
  account: Type.String({
    minLength: 1,
    maxLength: TOTP_NAME_MAX_LENGTH,
    default: 'user',
    description: `The user's account, as the app shows it (\`alice@example.com\`): 1..${TOTP_NAME_MAX_LENGTH} characters (Unicode code points), ${NAME_RULE}`,
    examples: ['alice@example.com']
  }),
  algorithm: StringEnum(TOTP_ALGORITHMS, { default: 'SHA1', description: 'The HMAC hash: SHA1 (what every app takes), SHA256 or SHA512.' }),
  digits: IntegerEnum(TOTP_DIGITS, { default: 6, description: 'Digits per code: 6 or 8.' }),
  period: Type.Integer({ minimum: 15, maximum: 300, default: 30, description: 'Seconds each code is valid (15..300).' }),
  byteLength: Type.Integer({ minimum: 16, maximum: TOTP_BYTES_MAX, default: 20, description: `Random bytes of the secret (16..${TOTP_BYTES_MAX}; 20 is RFC 4226's recommendation for SHA1).` }),
  quantity: Quantity
}, {
  description: 'TOTP secret parameters: the values are otpauth:// Key URIs for authenticator apps.',
  examples: [{ issuer: 'Example Co', account: 'alice@example.com' }, { account: 'bob', algorithm: 'SHA256', digits: 8 }]
})

export const TotpResult = GenerationResult('TotpResult', 'totp', { closedAlphabet: true, valueMaxLength: TOTP_URI_MAX_LENGTH })
