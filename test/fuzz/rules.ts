// The generators' own rules, for the fuzz (CONTRACT §2): where the fuzzer sent parameters the
// schema accepts, the answer must be the one the rules call for. A 200 where a rule refuses (or a
// refusal where none applies, or another field error) is a violation, and so is a value that
// breaks its parameters: a password under an enabled set's minimum or with a look-alike asked
// away, a passphrase that does not read back as list words with the capitals and digit asked.
// The schema is applied with AJV and the route's options (defaults filled in, no coercion), so the
// rules see the parameters the generator saw.
import { Ajv, type ValidateFunction } from 'ajv'
import { CHARACTER_SETS } from '../../plugins/password.js'
import { WORDLIST } from '../../plugins/passphrase.js'
import { PassphraseParams } from '../../schemas/passphrase.js'
import { PasswordParams } from '../../schemas/password.js'
import { readPassphrase } from '../passphrase-reader.js'

interface FieldError { pointer: string, code: string }

interface Rules {
  schema: ValidateFunction
  /** The field error the rules call for, if any (the schema already accepted the parameters). */
  refusal: (params: any) => FieldError | undefined
  /** What is wrong with one generated value, if anything. */
  valueProblem: (params: any, value: string) => string | undefined
}

const ajv = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: true, allowUnionTypes: true, strict: false })

// CONTRACT §2, written out here rather than taken from the plugin
const LOOK_ALIKES = 'IOlo01|'
const SETS = [
  { name: 'uppercase', minimum: 'minUppercase', characters: CHARACTER_SETS.uppercase },
  { name: 'lowercase', minimum: 'minLowercase', characters: CHARACTER_SETS.lowercase },
  { name: 'numbers', minimum: 'minNumbers', characters: CHARACTER_SETS.numbers },
  { name: 'symbols', minimum: 'minSymbols', characters: CHARACTER_SETS.symbols }
] as const

const password: Rules = {
  schema: ajv.compile(PasswordParams),
  refusal: (params) => {
    const enabled = SETS.filter((set) => params[set.name] === true)
    if (enabled.length === 0) return { pointer: '#', code: 'NO_CHARACTER_SET' }
    const total = enabled.reduce((sum, set) => sum + (params[set.minimum] as number), 0)
    return total > params.length ? { pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH' } : undefined
  },
  valueProblem: (params, value) => {
    if (value.length !== params.length) return `${value.length} characters for length ${String(params.length)}`
    const enabled = SETS.filter((set) => params[set.name] === true)
    const counts = enabled.map(() => 0)
    for (const character of value) {
      const set = enabled.findIndex(({ characters }) => characters.includes(character))
      if (set < 0) return `a character from no enabled set: ${JSON.stringify(character)}`
      if (params.avoidAmbiguous === true && LOOK_ALIKES.includes(character)) return `the look-alike ${JSON.stringify(character)} with avoidAmbiguous`
      counts[set] = (counts[set] as number) + 1
    }
    const short = enabled.findIndex((set, index) => (counts[index] as number) < params[set.minimum])
    const set = enabled[short]
    return set === undefined ? undefined : `${String(counts[short])} ${set.name} for ${set.minimum} ${String(params[set.minimum])}`
  }
}

const LIST = new Set(WORDLIST)
const SEPARATOR_REFUSED = /[\p{L}\p{Nd}\p{Cc}]/u

const passphrase: Rules = {
  schema: ajv.compile(PassphraseParams),
  refusal: (params) => SEPARATOR_REFUSED.test(params.separator) ? { pointer: '#/separator', code: 'NOT_ALLOWED_VALUE' } : undefined,
  valueProblem: (params, value) => {
    const { first, count } = readPassphrase(value, params, LIST)
    if (first === undefined) return `does not read back as ${String(params.words)} list words as asked`
    if (count > 1) return 'reads back in more than one way'
    const digits = value.match(/[0-9]/g)?.length ?? 0
    if (digits !== (params.includeNumber === true ? 1 : 0)) return `${digits} digits with includeNumber ${String(params.includeNumber)}`
    return undefined
  }
}

const RULES: Record<string, Rules | undefined> = { password, passphrase }

function isObject (value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The violations of the rules of `generator` in one answer to `params`. Answers other than 200 and
 * 400 VALIDATION_FAILED (413, a body error, ...) and parameters the schema refuses are judged by
 * the general invariants alone.
 */
export function ruleViolations (generator: string, params: Record<string, unknown>, status: number, body: unknown): string[] {
  const rules = RULES[generator]
  if (rules === undefined || !isObject(body)) return []
  // Every parameter of these generators is a scalar: anything nested (even thousands deep) is the
  // schema's to refuse. A copy, since the schema fills in the defaults
  if (Object.values(params).some((value) => typeof value === 'object' && value !== null)) return []
  const effective = { ...params }
  if (!rules.schema(effective)) return []
  const refusal = rules.refusal(effective)
  const violations: string[] = []
  if (status === 200) {
    if (refusal !== undefined) violations.push(`200 where ${refusal.code} at ${refusal.pointer} was due`)
    else if (Array.isArray(body.values)) {
      for (const value of body.values) {
        const problem = typeof value === 'string' ? rules.valueProblem(effective, value) : 'not a string'
        if (problem !== undefined) violations.push(`${generator} value: ${problem}`)
      }
    }
  } else if (status === 400 && body.code === 'VALIDATION_FAILED' && Array.isArray(body.errors)) {
    const answered = body.errors.map((error: FieldError) => `${error.code} at ${error.pointer}`).join(', ')
    const due = refusal === undefined ? 'no error' : `${refusal.code} at ${refusal.pointer}`
    if (answered !== due) violations.push(`valid parameters answered ${answered}, where ${due} was due`)
  }
  return violations
}
