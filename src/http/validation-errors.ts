// AJV's errors turned into our field problems: stable codes, pointers into the parameters
// object and the bounds the messages need. AJV's own English text is never shown.
import type { FieldCode, FieldMessage, JsonType, MessageArgs } from '../i18n/catalog.js'
import type { FieldProblem } from './parameter-error.js'
import { EXCLUDE_PATTERN, SYMBOL_SET_PATTERN } from '../../schemas/password.js'
import { SET_NAME_PATTERN } from '../../schemas/sets.js'
import { SEQ_PREFIX_PATTERN } from '../../schemas/seq.js'

/** The parts of an AJV error (with `verbose: true`) that we read. */
export interface AjvError {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  parentSchema?: Record<string, unknown>
}

/** A compiled validator as AJV gives it: true, or false with its errors. */
export type Validator = ((value: unknown) => boolean) & { errors?: AjvError[] | null }

/** Every keyword our parameter schemas use that can fail, with its field code. */
export const KEYWORD_CODES: Record<string, FieldCode> = {
  type: 'TYPE',
  minimum: 'OUT_OF_RANGE',
  maximum: 'OUT_OF_RANGE',
  enum: 'NOT_ALLOWED_VALUE',
  minLength: 'TOO_SHORT',
  maxLength: 'TOO_LONG',
  maxItems: 'TOO_MANY_ITEMS',
  additionalProperties: 'UNKNOWN_FIELD',
  // Sets (CONTRACT §10): a missing `items`, `name` or `type`; an empty `items`
  required: 'REQUIRED',
  minItems: 'TOO_SHORT',
  // The base-10 integer of number.exclusions; the other patterns are in PATTERN_PROBLEMS
  pattern: 'NOT_AN_INTEGER'
}

/** Patterns that stand for a set of allowed characters: their code and the message that names the set. */
export const PATTERN_PROBLEMS: Record<string, { code: FieldCode, message: FieldMessage }> = {
  [SYMBOL_SET_PATTERN]: { code: 'NOT_ALLOWED_VALUE', message: 'SYMBOL_SET_CHARACTERS' },
  [EXCLUDE_PATTERN]: { code: 'NOT_ALLOWED_VALUE', message: 'EXCLUDE_CHARACTERS' },
  [SET_NAME_PATTERN]: { code: 'NOT_ALLOWED_VALUE', message: 'SET_NAME_NOT_ALLOWED' },
  [SEQ_PREFIX_PATTERN]: { code: 'NOT_ALLOWED_VALUE', message: 'SEQ_PREFIX_CHARACTERS' }
}

/** The code of an error, and the message when it is not the one named like the code. */
function problemOf (error: AjvError): { code: FieldCode, message?: FieldMessage } {
  if (error.keyword === 'pattern') {
    const known = PATTERN_PROBLEMS[String(error.params.pattern)]
    if (known !== undefined) return known
  }
  if (error.keyword === 'minItems') return { code: 'TOO_SHORT', message: 'TOO_FEW_ITEMS' }
  // A set item's `type` (the tag AJV's discriminator reads): absent, not a string, or no generator.
  // The item's own `required`, `type` and `enum` say the same at the same pointer, first found wins
  if (error.keyword === 'discriminator') {
    if (error.params.error === 'mapping') return { code: 'NOT_ALLOWED_VALUE' }
    return { code: error.params.tagValue === undefined ? 'REQUIRED' : 'TYPE' }
  }
  return { code: KEYWORD_CODES[error.keyword] ?? 'NOT_ALLOWED_VALUE' }
}

/** One reference token of a JSON pointer (RFC 6901): `~` and `/` escaped. */
export function escapePointerToken (token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

function argsFor (error: AjvError): MessageArgs {
  const schema = error.parentSchema ?? {}
  switch (error.keyword) {
    case 'type': {
      const expected = error.params.type
      return { expected: (Array.isArray(expected) ? expected : [expected]).join('|') }
    }
    case 'minimum':
    case 'maximum':
      return { min: schema.minimum as number, max: schema.maximum as number }
    case 'enum':
      return { allowed: (error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ') }
    case 'minLength':
      return { min: schema.minLength as number }
    case 'maxLength':
      return { max: schema.maxLength as number }
    case 'maxItems':
      return { max: schema.maxItems as number }
    case 'minItems':
      return { min: schema.minItems as number }
    case 'discriminator': {
      if (error.params.error === 'tag' && error.params.tagValue !== undefined) return { expected: 'string' }
      const allowed = ((schema.properties as Record<string, { enum?: unknown[] }> | undefined)?.[String(error.params.tag)]?.enum ?? [])
      return error.params.error === 'mapping' ? { allowed: allowed.map((value) => JSON.stringify(value)).join(', ') } : {}
    }
    default:
      return {}
  }
}

/** CONTRACT §4: `errors` holds at most this many entries, the first found. */
export const MAX_FIELD_PROBLEMS = 20

/**
 * The most UTF-16 code units of an unknown field's name an answer repeats. The name is the
 * client's: echoed whole in the pointer and twice in details, 20 names of 3,000 characters made a
 * 64 KiB body answer 130 KB. 32 units, even at 6 bytes each once JSON-escaped, keep 20 entries
 * under CONTRACT §5's 16 KiB; every parameter name and most typos of one are shorter.
 */
export const MAX_ECHOED_NAME = 32

/** The pointer token that names unknown field `name`: cut short, with `…`, past MAX_ECHOED_NAME. */
export function unknownFieldToken (name: string): string {
  if (name.length <= MAX_ECHOED_NAME) return escapePointerToken(name)
  const last = name.charCodeAt(MAX_ECHOED_NAME - 1)
  // Never half of a surrogate pair
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_ECHOED_NAME - 1 : MAX_ECHOED_NAME
  return escapePointerToken(name.slice(0, end)) + '…'
}

/** Where an error is: the whole name of an unknown field, so two long names stay two problems. */
function locationOf (error: AjvError): string {
  return '#' + error.instancePath + childOf(error)
}

/** The member an error of an object is about: an unknown field, a missing one, a set item's `type`. */
function childOf (error: AjvError): string {
  switch (error.keyword) {
    case 'additionalProperties': return '/' + escapePointerToken(String(error.params.additionalProperty))
    case 'required': return '/' + escapePointerToken(String(error.params.missingProperty))
    case 'discriminator': return '/' + escapePointerToken(String(error.params.tag))
    default: return ''
  }
}

/** The pointer an answer shows for an error at `location`. */
function pointerOf (error: AjvError, location: string): string {
  return error.keyword === 'additionalProperties'
    ? '#' + error.instancePath + '/' + unknownFieldToken(String(error.params.additionalProperty))
    : location
}

/**
 * One problem per parameter: a wrong type hides the other complaints about the same value
 * (`"words": "12"` is a TYPE error, not also NOT_ALLOWED_VALUE). Order follows AJV's, and only
 * the first `limit` parameters are kept: a body can make AJV report thousands of errors, and
 * building pointers and arguments for ones never sent would be work an attacker chooses.
 */
export function fieldErrorsFromAjv (errors: AjvError[], limit = MAX_FIELD_PROBLEMS): FieldProblem[] {
  const byLocation = new Map<string, FieldProblem>()
  let index = 0
  for (; index < errors.length && byLocation.size < limit; index++) {
    const error = errors[index] as AjvError
    const { code, message } = problemOf(error)
    const location = locationOf(error)
    const existing = byLocation.get(location)
    if (existing !== undefined && !(code === 'TYPE' && existing.code !== 'TYPE')) continue
    byLocation.set(location, { pointer: pointerOf(error, location), code, ...(message === undefined ? {} : { message }), args: argsFor(error) })
  }
  // Which parameters are kept is settled (a Map keeps first insertion order), but AJV may report
  // a value's TYPE after its other errors (its untyped keywords, such as enum, run before the type
  // check), and that TYPE must still win. Only a TYPE can change a kept entry, so the rest of the
  // list is scanned for those alone: no pointer or arguments for anything else.
  for (; index < errors.length; index++) {
    const error = errors[index] as AjvError
    if (KEYWORD_CODES[error.keyword] !== 'TYPE') continue
    const location = locationOf(error)
    const existing = byLocation.get(location)
    if (existing !== undefined && existing.code !== 'TYPE') byLocation.set(location, { pointer: pointerOf(error, location), code: 'TYPE', args: argsFor(error) })
  }
  return [...byLocation.values()]
}

/** The `expected` argument is stored as `integer|string`; catalogs localize each part. */
export function expectedTypes (expected: string): JsonType[] {
  return expected.split('|') as JsonType[]
}
