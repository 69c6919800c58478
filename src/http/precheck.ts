// Checks that run before AJV, so that the work AJV would do for a hostile body is never done.
// With `allErrors`, AJV walks every item of an array it already knows is too long and builds an
// error object (with its message) for each bad item and each unknown field: a 64 KiB body of
// 21,000 items `{}` cost ~250 ms of CPU, and 5,000 unknown fields still ~6 ms once only 20 errors
// were translated (CONTRACT §5: under 10 ms for any body). Everything here is read from the
// route's parameters schema.
import type { TObject } from '@sinclair/typebox'
import type { FieldProblem } from './parameter-error.js'
import { HASH_FIELDS, HASH_PARAMS_ID } from '../../schemas/hash.js'
import { escapePointerToken, MAX_FIELD_PROBLEMS, unknownFieldToken } from './validation-errors.js'

/** The problems that refuse `parameters` before validation, or undefined to let AJV decide. */
export type Precheck = (parameters: Record<string, unknown>) => FieldProblem[] | undefined

interface ArrayLimit {
  name: string
  pointer: string
  max: number
}

/**
 * The precheck of a parameters schema. Parameters objects are flat (CONTRACT §2): only their own
 * properties are looked at, which is where every array parameter and every unknown field sits.
 */
export function precheckOf (params: TObject): Precheck {
  const known = params.additionalProperties === false ? new Set(Object.keys(params.properties)) : undefined
  const limits: ArrayLimit[] = []
  // CONTRACT §12: `hash` is the one nested object; its fields are those of its five choices
  const nested: Array<{ name: string, known: ReadonlySet<string> }> = []
  for (const [name, schema] of Object.entries(params.properties)) {
    if (schema.$ref === HASH_PARAMS_ID) nested.push({ name, known: HASH_FIELDS })
    if (schema.type === 'array' && typeof schema.maxItems === 'number') {
      limits.push({ name, pointer: '#/' + escapePointerToken(name), max: schema.maxItems })
    }
  }

  return (parameters) => {
    let problems: FieldProblem[] | undefined
    // AJV reports additionalProperties before any property's errors, one per key in for-in
    // order (test/src/http/precheck.test.ts holds it to that): once MAX_FIELD_PROBLEMS unknown keys
    // are found they are exactly the first entries AJV's answer would keep, and the rest of the
    // object need not be read at all
    if (known !== undefined) {
      for (const key in parameters) {
        if (known.has(key)) continue
        (problems ??= []).push({ pointer: '#/' + unknownFieldToken(key), code: 'UNKNOWN_FIELD', args: {} })
        if (problems.length === MAX_FIELD_PROBLEMS) return problems
      }
    }
    // A nested object with MAX_FIELD_PROBLEMS unknown fields is refused with them, as the top's
    // are: AJV would build an error for each of thousands (the first found are these, in for-in order)
    for (const { name, known: fields } of nested) {
      const value = parameters[name]
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue
      const unknown: FieldProblem[] = []
      for (const key in value) {
        if (!fields.has(key)) unknown.push({ pointer: `#/${escapePointerToken(name)}/${unknownFieldToken(key)}`, code: 'UNKNOWN_FIELD', args: {} })
        if (unknown.length === MAX_FIELD_PROBLEMS) return [...(problems ?? []), ...unknown].slice(0, MAX_FIELD_PROBLEMS)
      }
    }
    // An array over its limit is refused on its length alone: its items and the other parameters
    // are not validated (the fewer unknown fields found above still come first, as in AJV's order)
    let oversized = false
    for (const { name, pointer, max } of limits) {
      const value = parameters[name]
      if (Array.isArray(value) && value.length > max) {
        (problems ??= []).push({ pointer, code: 'TOO_MANY_ITEMS', args: { max } })
        oversized = true
      }
    }
    return oversized ? problems : undefined
  }
}
