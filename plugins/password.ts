import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { PasswordParams, PasswordResult } from '../schemas/password.js'
import { Compositions } from '../src/compositions.js'
import { entropyBitsOf } from '../src/entropy.js'
import { ParameterError } from '../src/errors.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomString, shuffle } from '../src/random.js'

type Params = Static<typeof PasswordParams>

export const CHARACTER_SETS = {
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  numbers: '0123456789',
  // ASCII punctuation without space, quotes, backslash and backtick: safe in shells and configs
  symbols: '!#$%&()*+,-./:;<=>?@[]^_{|}~'
} as const
export type CharacterSet = keyof typeof CHARACTER_SETS

/** Every character of a value: the union of the four sets. */
export const PASSWORD_ALPHABET = Object.values(CHARACTER_SETS).join('')

/** The look-alikes `avoidAmbiguous` removes: I O l o 0 1 | (CONTRACT §2). */
export const AMBIGUOUS = 'IOlo01|'

export const SET_NAMES = Object.keys(CHARACTER_SETS) as CharacterSet[]
export const MINIMUM_OF = {
  uppercase: 'minUppercase',
  lowercase: 'minLowercase',
  numbers: 'minNumbers',
  symbols: 'minSymbols'
} as const satisfies Record<CharacterSet, keyof Params>

/** The characters of `set`, without the look-alikes when asked. */
export function alphabetOf (set: CharacterSet, avoidAmbiguous: boolean): string {
  const characters = CHARACTER_SETS[set]
  return avoidAmbiguous ? [...characters].filter((c) => !AMBIGUOUS.includes(c)).join('') : characters
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
  entropyBits: number
}

// Plans by parameters; a few dozen are in use, so the cache is emptied whenever it fills
const PLANS = new Map<string, PasswordPlan>()
const MAX_PLANS = 256

/** The plan for these parameters; rule errors (no set, minimums over the length) are thrown here. */
export function passwordPlan (params: Params): PasswordPlan {
  const sets = SET_NAMES.filter((set) => params[set])
  if (sets.length === 0) throw new ParameterError([{ pointer: '#', code: 'NO_CHARACTER_SET' }])
  const minimums = sets.map((set) => params[MINIMUM_OF[set]])
  const total = minimums.reduce((sum, minimum) => sum + minimum, 0)
  if (total > params.length) {
    throw new ParameterError([{ pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH', args: { total, length: params.length } }])
  }
  const key = `${params.length} ${sets.join(',')} ${minimums.join(',')} ${params.avoidAmbiguous}`
  let plan = PLANS.get(key)
  if (plan === undefined) {
    plan = buildPlan(params.length, sets.map((set) => alphabetOf(set, params.avoidAmbiguous)), minimums)
    if (PLANS.size >= MAX_PLANS) PLANS.clear()
    PLANS.set(key, plan)
  }
  return plan
}

/** log2 of the exact number of valid passwords (counted in src/compositions.ts), rounded down. */
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
    entropyBits: passwordEntropyBits(compositions)
  }
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
    const candidate = randomString(plan.alphabet, plan.length)
    if (meetsMinimums(plan, candidate)) return candidate
  }
}

/**
 * A composition drawn in proportion to its number of passwords, then each set's characters
 * uniformly, then a uniform order (see src/compositions.ts): uniform over the valid passwords,
 * for any minimums, in a bounded number of draws.
 */
export function drawByComposition (plan: PasswordPlan): string {
  const composition = plan.compositions.draw()
  let characters = ''
  plan.alphabets.forEach((alphabet, index) => { characters += randomString(alphabet, composition[index] as number) })
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
  return Array.from({ length: quantity }, () => generatePassword(plan))
}

export function generatePasswords (params: Params): string[] {
  return passwordsOf(passwordPlan(params), params.quantity)
}

export default fp(async function passwordGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'password',
    name: 'Password',
    summary: 'Generate passwords',
    description: 'Passwords of `length` characters over the enabled sets (A-Z, a-z, 0-9 and 28 symbols, less the look-alikes I O l o 0 1 | with `avoidAmbiguous`), with at least the minimum of each enabled set, uniform over all such passwords. `entropyBits` is log2 of their exact number.',
    params: PasswordParams,
    result: PasswordResult,
    alphabet: PASSWORD_ALPHABET,
    // One plan per request: the values and their strength come from the same count
    generate: (params) => {
      const plan = passwordPlan(params)
      return { values: passwordsOf(plan, params.quantity), entropyBits: plan.entropyBits }
    }
  })
}, { name: 'generator-password', dependencies: ['errors'] })
