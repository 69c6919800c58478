import { Type, type TObject, type TSchema, type SchemaOptions } from '@sinclair/typebox'

/** Every generator's `quantity`: how many values one response holds. */
export const Quantity = Type.Integer({
  minimum: 1,
  maximum: 50,
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
 * handler sees) has every field. Generated clients then accept `{}` as a complete request.
 */
export function Params<T extends Record<string, TSchema>> ($id: string, properties: T, options: SchemaOptions = {}) {
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.default === undefined) throw new Error(`${$id}.${name} needs a default: every parameter is optional`)
  }
  const { required: _required, ...schema } = Type.Object(properties, { ...options, $id, additionalProperties: false })
  return schema as TObject<T>
}

const PublicKeys = Type.Array(Type.String(), {
  description: 'Key pairs only (vpn `wireguard` and `reality`): the public key of each value, in the same order and encoding.'
})

/** The 200 body of generator `type` (CONTRACT §1.2); `publicKeys` where the generator makes key pairs. */
export function GenerationResult<const T extends string> ($id: string, type: T, { keyPairs = false } = {}) {
  return Type.Object({
    type: Type.Literal(type, { description: 'The generator that made the values.' }),
    values: Type.Array(Type.String(), { description: 'Exactly `quantity` generated values.' }),
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
    ...(keyPairs ? { publicKeys: Type.Optional(PublicKeys) } : {})
  }, { $id, additionalProperties: false, description: `The values made by the ${type} generator.` })
}

export const FieldError = Type.Object({
  pointer: Type.String({ description: 'JSON pointer into the parameters object, as a URI fragment (`#/length`).', examples: ['#/length'] }),
  code: Type.String({ description: 'Stable machine-readable field code, such as OUT_OF_RANGE.', examples: ['OUT_OF_RANGE'] }),
  detail: Type.String({ description: 'Localized explanation for people.' })
}, { $id: 'FieldError', additionalProperties: false })

/** RFC 9457 problem document: the body of every error. */
export const Problem = Type.Object({
  title: Type.String({ description: 'Localized summary of the problem type.' }),
  status: Type.Integer({ description: 'The HTTP status code.' }),
  code: Type.String({ description: 'Stable machine-readable problem code, such as VALIDATION_FAILED.' }),
  detail: Type.String({ description: 'Localized explanation of this occurrence.' }),
  errors: Type.Optional(Type.Array(Type.Ref(FieldError), { description: 'Every parameter problem (VALIDATION_FAILED only).' }))
}, { $id: 'Problem', additionalProperties: false })
