import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { DEFAULT_SYMBOLS, PasswordParams, PasswordResult } from '../schemas/password.js'
import { Compositions } from '../src/random/compositions.js'
import { entropyBitsOf } from '../src/random/entropy.js'
import { ParameterError, type FieldProblem } from '../src/http/parameter-error.js'
import { isJsonVerbatim, registerGenerator } from '../src/http/generator-route.js'
import { randomString, shuffle } from '../src/random/csprng.js'
import { repeat } from '../src/random/repeat.js'
import { holdsUnquotable } from '../src/http/env-file.js'
import { checkWith, hashProblems } from '../src/http/hashed-values.js'

type Params = Static<typeof PasswordParams>

export const CHARACTER_SETS = {
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  numbers: '0123456789',
  // ASCII punctuation without space, quotes, backslash and backtick: safe in shells and configs
  symbols: DEFAULT_SYMBOLS
} as const
export type CharacterSet = keyof typeof CHARACTER_SETS

/** The 32 ASCII punctuation characters `symbolSet` may choose from (CONTRACT §2). */
export const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'

/**
 * Every character a value written without escape scan can hold: letters, digits and the
 * punctuation less the two JSON escapes (`"` and `\\`). A request whose sets hold one of those
 * two is answered through the escaping path (PasswordPlan.verbatim).
 */
export const PASSWORD_ALPHABET = CHARACTER_SETS.uppercase + CHARACTER_SETS.lowercase + CHARACTER_SETS.numbers +
  [...PUNCTUATION].filter((character) => isJsonVerbatim(character)).join('')

/** The look-alikes `avoidAmbiguous` removes: I O l o 0 1 | (CONTRACT §2). */
export const AMBIGUOUS = 'IOlo01|'

export const SET_NAMES = Object.keys(CHARACTER_SETS) as CharacterSet[]
export const MINIMUM_OF = {
  uppercase: 'minUppercase',
  lowercase: 'minLowercase',
  numbers: 'minNumbers',
  symbols: 'minSymbols'
} as const satisfies Record<CharacterSet, keyof Params>

/** The parameters that shape the sets; the defaults of the schema where absent. */
export interface SetOptions {
  avoidAmbiguous: boolean
  symbolSet?: string
  exclude?: string
}

/**
 * The characters of `set` in the contract's order: the set (or `symbolSet`), less `exclude`, less
 * the look-alikes with `avoidAmbiguous`; in the set's own order, so equal sets give equal strings.
 */
export function alphabetOf (set: CharacterSet, { avoidAmbiguous, symbolSet = DEFAULT_SYMBOLS, exclude = '' }: SetOptions): string {
  const characters = set === 'symbols' ? symbolSet : CHARACTER_SETS[set]
  if (exclude === '' && !avoidAmbiguous) return characters
  let kept = ''
  for (const character of characters) {
    if (!exclude.includes(character) && !(avoidAmbiguous && AMBIGUOUS.includes(character))) kept += character
  }
  return kept
}

/** Everything about one parameter set that is the same for every password it makes. */
export interface PasswordPlan {
  length: number
  /** The enabled sets' characters, in SET_NAMES order, and their minimums. */
  alphabets: string[]
  minimums: number[]
  /** Their union: what a uniform candidate is drawn from. */
  alphabet: string
  /** By character code: the index in `alphabets` of the set the character belongs to. */
  setIndex: Uint8Array
  compositions: Compositions
  /** Whether plain rejection (draw, redraw when a minimum is missed) accepts at least 1 in 4 draws. */
  rejectionIsCheap: boolean
  /** Whether JSON writes every character of `alphabet` as it is (no `"` or `\\`): the fast path. */
  verbatim: boolean
  entropyBits: number
}

// Plans by the sets they are drawn from. The defaults and a few site rules are what is asked
// again and again; but `symbolSet` and `exclude` are the client's, and a client may send millions
// of distinct ones, so the cache holds at most MAX_PLANS and is emptied whenever it fills: its
// memory is bounded by MAX_PLANS plans whatever arrives (test/plugins/password-plan-cache.test.ts measures it)
const PLANS = new Map<string, PasswordPlan>()
export const MAX_PLANS = 256

/** How many plans are cached now (for the test of the bound). */
export function cachedPlans (): number {
  return PLANS.size
}

/** The plan for these parameters; rule errors (no set, a set left empty, minimums over the length) are thrown here. */
export function passwordPlan (params: Params): PasswordPlan {
  // Keyed by the parameters as sent, a disabled set's minimum left out (neither symbolSet nor
  // exclude holds a space): one string built, so a request whose plan is cached builds no set and
  // no array at all; only valid parameters are ever cached
  const { length, uppercase, lowercase, numbers, symbols } = params
  const key = `${length} ${uppercase ? params.minUppercase : '-'} ${lowercase ? params.minLowercase : '-'} ${numbers ? params.minNumbers : '-'} ${symbols ? params.minSymbols : '-'} ${params.avoidAmbiguous} ${symbols ? params.symbolSet : ''} ${params.exclude}`
  let plan = PLANS.get(key)
  if (plan === undefined) {
    const sets = SET_NAMES.filter((set) => params[set])
    if (sets.length === 0) throw new ParameterError([{ pointer: '#', code: 'NO_CHARACTER_SET' }])
    const minimums = sets.map((set) => params[MINIMUM_OF[set]])
    const alphabets = sets.map((set) => alphabetOf(set, params))
    const total = minimums.reduce((sum, minimum) => sum + minimum, 0)
    const problems: FieldProblem[] = []
    sets.forEach((set, index) => { if (alphabets[index] === '') problems.push({ pointer: `#/${set}`, code: 'EMPTY_SET' }) })
    if (total > length) problems.push({ pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH', args: { total, length } })
    if (problems.length > 0) throw new ParameterError(problems)
    plan = buildPlan(length, alphabets, minimums)
    if (PLANS.size >= MAX_PLANS) PLANS.clear()
    PLANS.set(key, plan)
  }
  return plan
}

/** log2 of the exact number of valid passwords (counted in src/random/compositions.ts), rounded down. */
export function passwordEntropyBits (compositions: Compositions): number {
  return entropyBitsOf(compositions.count)
}

function buildPlan (length: number, alphabets: string[], minimums: number[]): PasswordPlan {
  const alphabet = alphabets.join('')
  const setIndex = new Uint8Array(128)
  alphabets.forEach((characters, index) => { for (const c of characters) setIndex[c.charCodeAt(0)] = index })
  const compositions = new Compositions(length, alphabets.map((characters, index) => ({ size: characters.length, minimum: minimums[index] as number })))
  return {
    length,
    alphabets,
    minimums,
    alphabet,
    setIndex,
    compositions,
    rejectionIsCheap: compositions.count * 4n >= BigInt(alphabet.length) ** BigInt(length),
    verbatim: isJsonVerbatim(alphabet),
    entropyBits: passwordEntropyBits(compositions)
  }
}

/** `length` characters, each uniform over `alphabet`; a one-character set has one way to do it. */
function uniformString (alphabet: string, length: number): string {
  return alphabet.length === 1 ? alphabet.repeat(length) : randomString(alphabet, length)
}

const counts = new Int32Array(SET_NAMES.length)

/** Whether `candidate` has at least the minimum of every set. */
function meetsMinimums (plan: PasswordPlan, candidate: string): boolean {
  counts.fill(0)
  for (let i = 0; i < candidate.length; i++) (counts[plan.setIndex[candidate.charCodeAt(i)] as number] as number)++
  return plan.minimums.every((minimum, index) => (counts[index] as number) >= minimum)
}

/**
 * A uniform string over the union, redrawn until it meets every minimum: uniform over the valid
 * passwords. Used only where at least a quarter of the draws are accepted.
 */
export function drawByRejection (plan: PasswordPlan): string {
  for (;;) {
    const candidate = uniformString(plan.alphabet, plan.length)
    if (meetsMinimums(plan, candidate)) return candidate
  }
}

/**
 * A composition drawn in proportion to its number of passwords, then each set's characters
 * uniformly, then a uniform order (see src/random/compositions.ts): uniform over the valid passwords,
 * for any minimums, in a bounded number of draws.
 */
export function drawByComposition (plan: PasswordPlan): string {
  const composition = plan.compositions.draw()
  let characters = ''
  plan.alphabets.forEach((alphabet, index) => { characters += uniformString(alphabet, composition[index] as number) })
  return shuffle(characters)
}

/**
 * One password, uniform over all strings of `length` characters from the enabled sets (less the
 * look-alikes when asked) that hold at least each enabled set's minimum. Both ways of drawing give
 * exactly that distribution; rejection is the cheaper one where it rarely redraws.
 */
export function generatePassword (plan: PasswordPlan): string {
  return plan.rejectionIsCheap ? drawByRejection(plan) : drawByComposition(plan)
}

/** `quantity` passwords of one plan. */
function passwordsOf (plan: PasswordPlan, quantity: number): string[] {
  return repeat(quantity, () => generatePassword(plan))
}

export function generatePasswords (params: Params): string[] {
  return passwordsOf(passwordPlan(params), params.quantity)
}

export default fp(async function passwordGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'password',
    name: 'Password',
    summary: 'Generate passwords',
    description: 'Passwords of `length` characters over the enabled sets (A-Z, a-z, 0-9 and 28 symbols or `symbolSet`, less `exclude`, less the look-alikes I O l o 0 1 | with `avoidAmbiguous`), with at least the minimum of each enabled set, uniform over all such passwords. `entropyBits` is log2 of their exact number.',
    params: PasswordParams,
    result: PasswordResult,
    alphabet: PASSWORD_ALPHABET,
    // One plan per request: the values and their strength come from the same count
    generate: (params) => {
      const plan = passwordPlan(params)
      return { values: passwordsOf(plan, params.quantity), entropyBits: plan.entropyBits, ...(plan.verbatim ? {} : { escaped: true }) }
    },
    // A password is `length` ASCII characters: `length` bytes, what bcrypt's 72 are held to
    check: (params) => { checkWith(() => passwordPlan(params), hashProblems(params.hash, params.quantity, () => params.length, '#/length')) },
    // Only `symbolSet` can bring `'` or `\\` (the other sets are letters and digits); unused while
    // `symbols` is false, and harmless once `exclude` has removed them
    notRepresentable: (params) => params.symbols && holdsUnquotable(alphabetOf('symbols', params)) ? ['params/symbolSet'] : [],
    hashOf: (params) => params.hash
  })
}, { name: 'generator-password', dependencies: ['errors'] })
