import type { TObject, TSchema } from '@sinclair/typebox'
import { AgeKeyParams, AgeKeyResult } from '../../schemas/age-key.js'
import { HASH_BRANCHES, HASHED_VALUES_MAX, HashParams } from '../../schemas/hash.js'
import { JwtParams } from '../../schemas/jwt.js'
import { NumberParams, NumberResult } from '../../schemas/number.js'
import { PassphraseParams, PassphraseResult } from '../../schemas/passphrase.js'
import { PasswordParams, PasswordResult } from '../../schemas/password.js'
import { PhraseParams, PhraseResult } from '../../schemas/phrase.js'
import { PinParams, PinResult } from '../../schemas/pin.js'
import { PADDING_WHEN_LEFT_OUT, SEQ_ENCODINGS, SeqParams, SeqResult } from '../../schemas/seq.js'
import { RecipeSummary } from '../../schemas/recipes.js'
import { JWT_TYPE, SET_NAME_MAX_LENGTH } from '../../schemas/sets.js'
import { ShortIdParams, ShortIdResult } from '../../schemas/short-id.js'
import { DEFAULT_MODULUS_BITS, SIGNING_ALGORITHMS, SIGNING_KEY_FORMATS, SigningKeyParams, SigningKeyResult } from '../../schemas/signing-key.js'
import { SshKeyParams, SshKeyResult } from '../../schemas/ssh-key.js'
import { TokenParams, TokenResult } from '../../schemas/token.js'
import { TotpParams, TotpResult } from '../../schemas/totp.js'
import { UuidParams, UuidResult } from '../../schemas/uuid.js'
import { VpnParams, VpnResult } from '../../schemas/vpn.js'
import { formatAllowed, isRsaAlgorithm } from '../keys/signing-keys.js'
import type { FieldRules, FieldSpec, FormSpec, GeneratorSpec, HashAlgorithmSpec, ParamSpec, SetFormSpec } from '../../web/form-spec.js'

/** Every generator in the order the page lists them (CONTRACT §1), with the schemas its route validates and answers with. */
export const GENERATOR_PARAMS: ReadonlyArray<readonly [string, TObject, TObject]> = [
  ['password', PasswordParams, PasswordResult],
  ['passphrase', PassphraseParams, PassphraseResult],
  ['number', NumberParams, NumberResult],
  ['vpn', VpnParams, VpnResult],
  ['uuid', UuidParams, UuidResult],
  ['phrase', PhraseParams, PhraseResult],
  ['seq', SeqParams, SeqResult],
  ['short-id', ShortIdParams, ShortIdResult],
  ['pin', PinParams, PinResult],
  ['ssh-key', SshKeyParams, SshKeyResult],
  ['age-key', AgeKeyParams, AgeKeyResult],
  ['token', TokenParams, TokenResult],
  ['totp', TotpParams, TotpResult],
  ['signing-key', SigningKeyParams, SigningKeyResult]
]

/**
 * What routes decide beyond their schemas, by generator and parameter, taken from the functions
 * and constants the route decides with (so the page offers what the route takes, and no more).
 */
const RULES: Readonly<Record<string, Readonly<Record<string, FieldRules & { default?: number }>>>> = {
  // CONTRACT §14.2: padding is not for hex (given: NOT_ALLOWED_VALUE), and where it is left out the
  // generator pads by encoding, so the schema has no default: the control follows the encoding's
  seq: {
    padding: {
      appliesWith: { param: 'encoding', values: SEQ_ENCODINGS.filter((encoding) => PADDING_WHEN_LEFT_OUT[encoding] !== undefined) },
      defaultWith: { param: 'encoding', defaults: PADDING_WHEN_LEFT_OUT }
    }
  },
  // CONTRACT §13: modulusBits is RSA's alone (given with another algorithm: NOT_ALLOWED_VALUE),
  // optional with no default in the schema, so that "given" is told from "left out"
  'signing-key': {
    modulusBits: { default: DEFAULT_MODULUS_BITS, appliesWith: { param: 'algorithm', values: SIGNING_ALGORITHMS.filter(isRsaAlgorithm) } },
    format: {
      choicesWith: {
        param: 'algorithm',
        choices: Object.fromEntries(SIGNING_ALGORITHMS.map((algorithm) => [algorithm, SIGNING_KEY_FORMATS.filter((format) => formatAllowed(algorithm, format))]))
      }
    }
  }
}

/**
 * A parameter's control from its schema. Each kind of schema the generators use has its control;
 * one that fits none stops the page's build, so a new kind of parameter cannot be left out quietly.
 */
export function paramSpec (name: string, schema: TSchema): ParamSpec {
  if (schema.$ref === HashParams.$id) return { name, kind: 'hash', algorithms: HASH_BRANCHES.map(hashAlgorithmSpec), maxValues: HASHED_VALUES_MAX }
  return fieldSpec(name, schema)
}

/** CONTRACT §12: one branch of `hash`, its `algorithm` the literal that picks it, its other fields as controls. */
function hashAlgorithmSpec (branch: TObject): HashAlgorithmSpec {
  const { algorithm, ...fields } = branch.properties
  return { algorithm: (algorithm as TSchema).const, fields: Object.entries(fields).map(([name, schema]) => fieldSpec(name, schema)) }
}

function fieldSpec (name: string, schema: TSchema): FieldSpec {
  if (Array.isArray(schema.enum)) return { name, kind: 'choice', default: schema.default, choices: [...schema.enum] }
  switch (schema.type) {
    case 'integer':
      return { name, kind: 'integer', default: schema.default, minimum: schema.minimum, maximum: schema.maximum }
    case 'boolean':
      return { name, kind: 'boolean', default: schema.default }
    case 'string':
      return { name, kind: 'string', default: schema.default, ...(schema.minLength > 0 ? { minLength: schema.minLength } : {}), maxLength: schema.maxLength }
    case 'array':
      return { name, kind: 'list', default: [...schema.default], maxItems: schema.maxItems }
    default:
      throw new Error(`${name}: no page control for a schema of type ${JSON.stringify(schema.type)}`)
  }
}

/** The page's forms, read from the same TypeBox schemas the routes validate with. */
export function formSpec (): FormSpec {
  return GENERATOR_PARAMS.map(([type, params, result]) => ({
    type,
    params: Object.entries(params.properties).map(([name, schema]) => withRules(paramSpec(name, schema), RULES[type]?.[name])),
    ...(result.properties.hashes === undefined ? {} : { hashes: true as const }),
    ...(result.properties.publicKeys === undefined ? {} : { publicKeys: true as const })
  }))
}

/**
 * CONTRACT §14.2's `jwt` item, from JwtParams. Its parameters have no defaults to show: an empty
 * `signedWith` is not sent (the API says it is required, beside the control), the `algorithm`
 * chooser starts at "the default" (`''`, not sent: HS256 with a secret, a signing key's own),
 * `claims` is JSON text, `expiresInDays` empty is no `exp`.
 */
function jwtSpec (): GeneratorSpec {
  const { signedWith, algorithm, claims, expiresInDays } = JwtParams.properties as Record<string, TSchema>
  const signer = fieldSpec('signedWith', signedWith as TSchema)
  const expiry = fieldSpec('expiresInDays', expiresInDays as TSchema)
  if (signer.kind !== 'string' || expiry.kind !== 'integer' || !Array.isArray(algorithm?.enum) || claims?.type !== 'object') throw new Error('JwtParams: not the shape the page has controls for')
  return {
    type: JWT_TYPE,
    params: [
      { ...signer, default: '' },
      { name: 'algorithm', kind: 'choice', default: '', choices: ['', ...algorithm.enum] },
      { name: 'claims', kind: 'json', default: claims.default },
      { name: expiry.name, kind: 'integer', minimum: expiry.minimum, maximum: expiry.maximum }
    ]
  }
}

/** What the set's rows take beyond the generators, from the set's schemas. */
export function setFormSpec (): SetFormSpec {
  const groups = (RecipeSummary.properties.group as TSchema).anyOf as TSchema[] | undefined
  if (groups === undefined || groups.some((group) => typeof group.const !== 'string')) throw new Error('RecipeSummary.group: not a choice of literals')
  return { nameMaxLength: SET_NAME_MAX_LENGTH, jwt: jwtSpec(), recipeGroups: groups.map((group) => group.const) }
}

/** A parameter's control with its route's rules; a default only where the schema has none (never a second copy). */
function withRules (spec: ParamSpec, rules: FieldRules & { default?: number } | undefined): ParamSpec {
  if (rules === undefined) return spec
  if (spec.kind === 'hash' || ((rules.default !== undefined || rules.defaultWith !== undefined) && spec.default !== undefined)) throw new Error(`${spec.name}: rules for a parameter that has its own default or no single control`)
  return { ...spec, ...rules } as FieldSpec
}
