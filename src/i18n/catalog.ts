// The shape every language's catalog has. TypeScript rejects a catalog with a missing key,
// and test/src/i18n/catalog.test.ts checks the same at run time.

/** Top-level problem codes (CONTRACT §4). Stable API. */
export const PROBLEM_CODES = [
  'VALIDATION_FAILED',
  'X_DATA_INVALID',
  'BODY_INVALID',
  // CONTRACT §9: access keys are required and the request has none, or an unknown one
  'UNAUTHORIZED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  // Raised by Node's HTTP parser before a request exists (see src/http/errors.ts clientErrorHandler)
  'BAD_REQUEST',
  'REQUEST_HEADER_FIELDS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  // CONTRACT §12.1: the hashing queue is full; Retry-After set, nothing drawn
  'BUSY',
  // CONTRACT §13: Accept asks only for a JWK Set of HMAC keys, which have no public key
  'NOT_ACCEPTABLE'
] as const
export type ProblemCode = typeof PROBLEM_CODES[number]

/** Field codes in `errors[].code` (CONTRACT §4). Stable API. */
export const FIELD_CODES = [
  'TYPE',
  'OUT_OF_RANGE',
  'NOT_ALLOWED_VALUE',
  'TOO_SHORT',
  'TOO_LONG',
  'TOO_MANY_ITEMS',
  'UNKNOWN_FIELD',
  'NOT_AN_INTEGER',
  'NO_CHARACTER_SET',
  'MIN_GREATER_THAN_MAX',
  'NO_VALUES_LEFT',
  'NOT_ENOUGH_UNIQUE_VALUES',
  'MINIMUMS_EXCEED_LENGTH',
  'EMPTY_SET',
  // CONTRACT §10 sets
  'DUPLICATE_NAME',
  'TOO_MANY_VALUES',
  'NOT_REPRESENTABLE',
  'REQUIRED',
  // CONTRACT §12: bcrypt reads 72 bytes at most, and these parameters allow longer values
  'TOO_LONG_FOR_HASH'
] as const
export type FieldCode = typeof FIELD_CODES[number]

/**
 * Field messages: one per field code, plus messages for a code used with a rule of its own
 * (the SEPARATOR_* messages, the character rules of password's symbolSet and exclude,
 * NOT_PRINTABLE_ASCII, PREFIX_NOT_ALLOWED, TOTP_NAME_NOT_ALLOWED, SET_NAME_NOT_ALLOWED, and seq's
 * SEQ_PREFIX_CHARACTERS and PADDING_NOT_FOR_HEX are reported under NOT_ALLOWED_VALUE; TOO_FEW_ITEMS under TOO_SHORT; ENV_ONE_VALUE and ENV_MULTILINE under NOT_REPRESENTABLE).
 */
export const FIELD_MESSAGES = [
  ...FIELD_CODES,
  'SEPARATOR_HAS_LETTER', 'SEPARATOR_HAS_LETTER_OR_DIGIT', 'SEPARATOR_HAS_WORD_CHARACTER',
  'SYMBOL_SET_CHARACTERS', 'EXCLUDE_CHARACTERS', 'NOT_PRINTABLE_ASCII',
  'PREFIX_NOT_ALLOWED',
  'TOTP_NAME_NOT_ALLOWED',
  // CONTRACT §14.2 seq: the characters of `prefix`, and `padding` given with hex
  'SEQ_PREFIX_CHARACTERS', 'PADDING_NOT_FOR_HEX',
  // Sets (CONTRACT §10): an empty `items` (TOO_SHORT), an item's name (NOT_ALLOWED_VALUE), and why
  // the .env form refuses an item (NOT_REPRESENTABLE: more than one value, a key file of several lines)
  'TOO_FEW_ITEMS', 'SET_NAME_NOT_ALLOWED', 'ENV_ONE_VALUE', 'ENV_MULTILINE',
  // CONTRACT §12: more values hashed than one request (TOO_MANY_HASHES) or one set (TOO_MANY_HASHES_IN_SET) may ask, under TOO_MANY_VALUES
  'TOO_MANY_HASHES', 'TOO_MANY_HASHES_IN_SET',
  // CONTRACT §13: more RSA keys than a request (TOO_MANY_RSA_KEYS) or a set may ask (under TOO_MANY_VALUES);
  // modulusBits without RSA and a format the algorithm has not (under NOT_ALLOWED_VALUE); a PEM in a .env (NOT_REPRESENTABLE)
  'TOO_MANY_RSA_KEYS', 'TOO_MANY_RSA_KEYS_IN_SET', 'RSA_ONLY', 'FORMAT_NOT_FOR_ALGORITHM', 'ENV_PEM',
  // CONTRACT §14 (under NOT_ALLOWED_VALUE): `recipe` beside `items`; a hashName or publicKeyName where
  // the item has no such line; a jwt's signedWith that names no key to sign with; a claim's name
  'RECIPE_WITH_ITEMS', 'NO_HASH_LINE', 'NO_PUBLIC_KEY_LINE', 'JWT_SIGNED_WITH', 'JWT_CLAIM_NAME'
] as const
export type FieldMessage = typeof FIELD_MESSAGES[number]

/** Details of top-level problems that are not field errors. */
export const PROBLEM_MESSAGES = [
  'X_DATA_NOT_BASE64',
  'X_DATA_NOT_UTF8',
  'X_DATA_NOT_JSON',
  'X_DATA_NOT_OBJECT',
  'X_DATA_TOO_LONG',
  'BODY_NOT_UTF8',
  'BODY_NOT_JSON',
  'BODY_NOT_OBJECT',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'BAD_REQUEST',
  'REQUEST_HEADER_FIELDS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'KEY_MISSING',
  'KEY_INVALID',
  'BUSY',
  'NOT_ACCEPTABLE'
] as const
export type ProblemMessage = typeof PROBLEM_MESSAGES[number]

/** JSON types named in TYPE messages. */
export const JSON_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object', 'null'] as const
export type JsonType = typeof JSON_TYPES[number]

/**
 * Arguments a message may use. `field` is the parameter as the user wrote it (`length`,
 * `exclusions[3]`), already quoted the language's way; `expected` is already localized.
 */
export interface MessageArgs {
  field?: string
  min?: string | number
  max?: string | number
  allowed?: string
  expected?: string
  limit?: number
  method?: string
  path?: string
  available?: string
  quantity?: number
  /** The BIP-39 word list a phrase is made from (SEPARATOR_HAS_WORD_CHARACTER). */
  language?: string
  /** The enabled sets' minimums added up (MINIMUMS_EXCEED_LENGTH). */
  total?: number
  length?: number
}

export type Message = (args: MessageArgs) => string

export interface Catalog {
  /** Quotes a parameter name the way the language does (“length”, „length“, «length», « length »). */
  quote: (name: string) => string
  /** Joins alternatives: "a string or an integer". */
  or: (items: string[]) => string
  titles: Record<ProblemCode, string>
  problems: Record<ProblemMessage, Message>
  fields: Record<FieldMessage, Message>
  /** A value of this JSON type, as the complement of "must be": "an integer". */
  types: Record<JsonType, string>
}
