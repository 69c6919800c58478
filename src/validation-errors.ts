// AJV's errors turned into our field problems: stable codes, pointers into the parameters
// object and the bounds the messages need. AJV's own English text is never shown.
import type { FieldCode, JsonType, MessageArgs } from './i18n/catalog.js'
import type { FieldProblem } from './errors.js'

/** The parts of an AJV error (with `verbose: true`) that we read. */
export interface AjvError {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  parentSchema?: Record<string, unknown>
}

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
  // The only pattern in our schemas is the base-10 integer of number.exclusions
  pattern: 'NOT_AN_INTEGER'
}

function escapePointerToken (token: string): string {
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
    default:
      return {}
  }
}

/**
 * One problem per parameter: a wrong type hides the other complaints about the same value
 * (`"words": "12"` is a TYPE error, not also NOT_ALLOWED_VALUE). Order follows AJV's.
 */
export function fieldErrorsFromAjv (errors: AjvError[]): FieldProblem[] {
  const byPointer = new Map<string, FieldProblem>()
  for (const error of errors) {
    const code = KEYWORD_CODES[error.keyword] ?? 'NOT_ALLOWED_VALUE'
    const pointer = '#' + error.instancePath +
      (error.keyword === 'additionalProperties' ? '/' + escapePointerToken(String(error.params.additionalProperty)) : '')
    const existing = byPointer.get(pointer)
    if (existing !== undefined && !(code === 'TYPE' && existing.code !== 'TYPE')) continue
    byPointer.set(pointer, { pointer, code, args: argsFor(error) })
  }
  return [...byPointer.values()]
}

/** The `expected` argument is stored as `integer|string`; catalogs localize each part. */
export function expectedTypes (expected: string): JsonType[] {
  return expected.split('|') as JsonType[]
}
