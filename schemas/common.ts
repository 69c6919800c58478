import { OptionalKind, Type, type TObject, type TSchema, type SchemaOptions } from '@sinclair/typebox'

/** CONTRACT §5: the most values one response holds. */
export const QUANTITY_MAX = 50

/** Every generator's `quantity`: how many values one response holds. */
export const Quantity = Type.Integer({
  minimum: 1,
  maximum: QUANTITY_MAX,
  default: 1,
  description: 'How many values to generate (1..50).',
  examples: [1]
})

/** A string enum as a plain JSON Schema `enum` (one error code, NOT_ALLOWED_VALUE, when it fails). */
export function StringEnum<const T extends readonly string[]> (values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] })
}

/** An integer enum, e.g. the BIP-39 word counts. */
export function IntegerEnum<const T extends readonly number[]> (values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ ...options, type: 'integer', enum: [...values] })
}

/**
 * The parameters object of a generator: unknown fields are errors, never silently ignored.
 * Every parameter is optional for the client (CONTRACT §2) and has a default that AJV fills in
 * before the handler runs, so the schema lists no `required` while the static type (what the
 * handler sees) has every field. Generated clients then accept `{}` as a complete request. A
 * parameter marked Optional has no default: absent means "not asked" (password's `hash`).
 */
export function Params<T extends Record<string, TSchema>> ($id: string, properties: T, options: SchemaOptions = {}) {
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.default === undefined && !(OptionalKind in schema)) throw new Error(`${$id}.${name} needs a default or Optional: every parameter is optional`)
  }
  const { required: _required, ...schema } = Type.Object(properties, { ...options, $id, additionalProperties: false })
  return schema as TObject<T>
}

/**
 * The longest value any generator makes but a prefixed seq: seq's 256 bytes as hex (SeqResult
 * adds its longest prefix). Responses are serialised, never validated, so these bounds document
 * what the service sends without costing a request anything.
 */
export const VALUE_MAX_LENGTH = 512
/** The longest public key any generator makes: ML-DSA-65's 1,952 bytes as unpadded base64url (vpn `mldsa65`). */
export const PUBLIC_KEY_MAX_LENGTH = 2603
/** CONTRACT §4: `errors` holds at most this many entries. */
export const FIELD_ERRORS_MAX_ITEMS = 20
/**
 * A detail or pointer can quote what the client sent (an unknown field's name, a path), so it is
 * bounded by the request, not by the catalog: twice the larger of the body limit and the header
 * limit (src/server-options.ts; a pointer escapes each `~` and `/` as two characters), plus room
 * for the message around it.
 */
export const ECHOED_TEXT_MAX_LENGTH = 2 * (65_536 + 16_384) + 1024

/**
 * fast-json-stringify's `format: 'unsafe'`: the string is written between its quotes as it is,
 * without the scan for characters JSON escapes (a third of the CPU of a 26 KB answer). Only for
 * values drawn from a closed alphabet in which JSON escapes nothing: registerGenerator
 * (src/http/generator-route.ts) refuses to start otherwise, and test/src/http/unescaped-values.test.ts walks
 * every such alphabet. Values with characters a client chose (separators) keep the scan. The
 * document leaves it out (plugins/docs.ts): it says how we serialise, not what clients receive.
 */
export const UNESCAPED_FORMAT = 'unsafe'

const valueString = (maxLength: number, unescaped: boolean) =>
  Type.String({ maxLength, ...(unescaped ? { format: UNESCAPED_FORMAT } : {}) })

/** A SHA-256 digest as lowercase hex. */
export const SHA256_HEX_LENGTH = 64

// Lowercase hex whatever the values hold, so never in need of JSON's escape scan
const valueHashes = Type.Array(
  Type.String({ minLength: SHA256_HEX_LENGTH, maxLength: SHA256_HEX_LENGTH, pattern: `^[0-9a-f]{${SHA256_HEX_LENGTH}}$`, format: UNESCAPED_FORMAT }),
  { maxItems: QUANTITY_MAX, description: 'The SHA-256 of each value (its UTF-8 bytes) as 64 lowercase hex characters, in the same order: what a server stores instead of the value.' }
)

/** The longest password hash (CONTRACT §12): a SCRAM-SHA-256 verifier at 100000 iterations is 135 characters. */
export const PASSWORD_HASH_MAX_LENGTH = 160

// Base64, bcrypt's and crypt's alphabets, `$`, `,`, `:` and `=`: nothing JSON escapes
const passwordHashes = Type.Array(
  Type.String({ maxLength: PASSWORD_HASH_MAX_LENGTH, format: UNESCAPED_FORMAT }),
  { maxItems: 5, description: 'With `hash` only (CONTRACT §12): the hash of each value in the asked format, in the same order: what a configuration file stores instead of the value.' }
)

/**
 * The 200 body of generator `type` (CONTRACT §1.2); `publicKeys` where the generator makes key
 * pairs (`publicKeyMaxLength`: the longest it makes); `hashes` where a server stores a hash of
 * each value instead of the value (tokens), and `passwordHashes` where a request may ask for one
 * (password, passphrase: present exactly when asked); `closedAlphabet` where every value (and public key) is
 * drawn from a fixed alphabet that JSON writes verbatim (see UNESCAPED_FORMAT); `valueMaxLength`
 * where a value can be longer than VALUE_MAX_LENGTH.
 */
export function GenerationResult<const T extends string> ($id: string, type: T, { keyPairs = false, hashes = false, passwordHashes: hashesOnRequest = false, closedAlphabet = false, publicKeyMaxLength = PUBLIC_KEY_MAX_LENGTH, valueMaxLength = VALUE_MAX_LENGTH } = {}) {
  const publicKeys = Type.Array(valueString(publicKeyMaxLength, closedAlphabet), {
    maxItems: QUANTITY_MAX,
    description: 'Key pairs only (vpn `wireguard`, `reality`, `mlkem768`, `mldsa65`; ssh-key; age-key): the public key of each value, in the same order.'
  })
  return Type.Object({
    type: Type.Literal(type, { description: 'The generator that made the values.' }),
    values: Type.Array(valueString(valueMaxLength, closedAlphabet), { maxItems: QUANTITY_MAX, description: 'Exactly `quantity` generated values.' }),
    entropyBits: Type.Number({
      minimum: 0,
      description: 'The randomness in each value: log2 of the number of equally likely outcomes it is drawn from, for these parameters, rounded down to two decimals. Fixed parts (version bits, timestamps, clamped bits) count nothing.',
      examples: [129.68]
    }),
    generatedAt: Type.String({
      format: 'date-time',
      description: 'Generation time, UTC, ISO 8601 with milliseconds.',
      examples: ['2026-11-22T10:15:30.123Z']
    }),
    ...(keyPairs ? { publicKeys: Type.Optional(publicKeys) } : {}),
    // Always there when the generator makes them, so clients need not test for it
    ...(hashes ? { hashes: valueHashes } : {}),
    ...(hashesOnRequest ? { hashes: Type.Optional(passwordHashes) } : {})
  }, { $id, additionalProperties: false, description: `The values made by the ${type} generator.` })
}

// Codes are stable API in upper snake case; a pattern, not an enum, so a new code is not a breaking change for clients
const CODE_PATTERN = '^[A-Z][A-Z0-9_]*$'
const CODE_MAX_LENGTH = 64
/** Titles are short catalog texts, with nothing from the request in them. */
export const TITLE_MAX_LENGTH = 128

export const FieldError = Type.Object({
  pointer: Type.String({
    // RFC 6901 as a URI fragment: every `~` and `/` inside a name is escaped
    pattern: '^#(/([^~/]|~[01])*)*$',
    maxLength: ECHOED_TEXT_MAX_LENGTH,
    description: 'JSON pointer into the parameters object, as a URI fragment (`#/length`).',
    examples: ['#/length']
  }),
  code: Type.String({ pattern: CODE_PATTERN, maxLength: CODE_MAX_LENGTH, description: 'Stable machine-readable field code, such as OUT_OF_RANGE.', examples: ['OUT_OF_RANGE'] }),
  detail: Type.String({ maxLength: ECHOED_TEXT_MAX_LENGTH, description: 'Localized explanation for people.' })
}, { $id: 'FieldError', additionalProperties: false })

/** RFC 9457 problem document: the body of every error. */
export const Problem = Type.Object({
  title: Type.String({ maxLength: TITLE_MAX_LENGTH, description: 'Localized summary of the problem type.' }),
  // Problem documents answer errors only: client errors and server errors
  status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status code.' }),
  code: Type.String({ pattern: CODE_PATTERN, maxLength: CODE_MAX_LENGTH, description: 'Stable machine-readable problem code, such as VALIDATION_FAILED.' }),
  detail: Type.String({ maxLength: ECHOED_TEXT_MAX_LENGTH, description: 'Localized explanation of this occurrence.' }),
  errors: Type.Optional(Type.Array(Type.Ref(FieldError), {
    maxItems: FIELD_ERRORS_MAX_ITEMS,
    description: `The parameter problems (VALIDATION_FAILED only): at most ${FIELD_ERRORS_MAX_ITEMS}, the first found.`
  }))
}, { $id: 'Problem', additionalProperties: false })
