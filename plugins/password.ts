import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { PasswordParams, PasswordResult } from '../schemas/password.js'
import { ParameterError } from '../src/errors.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomString } from '../src/random.js'

type Params = Static<typeof PasswordParams>

export const CHARACTER_SETS = {
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  numbers: '0123456789',
  // ASCII punctuation without space, quotes, backslash and backtick: safe in shells and configs
  symbols: '!#$%&()*+,-./:;<=>?@[]^_{|}~'
} as const
export type CharacterSet = keyof typeof CHARACTER_SETS

const SET_NAMES = Object.keys(CHARACTER_SETS) as CharacterSet[]
const SET_BITS = Object.fromEntries(SET_NAMES.map((set, index) => [set, 1 << index])) as Record<CharacterSet, number>
// The bit of the set each character belongs to, by character code (the sets are disjoint ASCII)
const SET_BIT_OF = new Uint8Array(128)
for (const set of SET_NAMES) for (const character of CHARACTER_SETS[set]) SET_BIT_OF[character.charCodeAt(0)] = SET_BITS[set]
// The union of the enabled sets for each combination of set bits, built once
const ALPHABETS = Array.from({ length: 1 << SET_NAMES.length }, (_, bits) =>
  SET_NAMES.filter((set) => (bits & SET_BITS[set]) !== 0).map((set) => CHARACTER_SETS[set]).join(''))

/**
 * One password: uniform over all strings of `length` characters from the union of the enabled
 * sets that contain at least one character of each enabled set. Drawing uniformly and redrawing
 * the strings that miss a set gives exactly that distribution ("one of each, then shuffle" does
 * not). The worst case, 6 characters and all four sets, accepts 28% of draws.
 */
export function generatePassword (length: number, sets: readonly CharacterSet[]): string {
  let wanted = 0
  for (const set of sets) wanted |= SET_BITS[set]
  const alphabet = ALPHABETS[wanted] as string
  for (;;) {
    const candidate = randomString(alphabet, length)
    let seen = 0
    for (let i = 0; i < candidate.length && seen !== wanted; i++) seen |= SET_BIT_OF[candidate.charCodeAt(i)] as number
    if (seen === wanted) return candidate
  }
}

export function generatePasswords (params: Params): string[] {
  const sets = SET_NAMES.filter((set) => params[set])
  if (sets.length === 0) throw new ParameterError([{ pointer: '#', code: 'NO_CHARACTER_SET' }])
  return Array.from({ length: params.quantity }, () => generatePassword(params.length, sets))
}

export default fp(async function passwordGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'password',
    name: 'Password',
    summary: 'Generate passwords',
    description: 'Passwords of `length` characters over the enabled sets (A-Z, a-z, 0-9 and 28 symbols), each enabled set present at least once, uniform over all such passwords.',
    params: PasswordParams,
    result: PasswordResult,
    generate: generatePasswords
  })
}, { name: 'generator-password', dependencies: ['errors'] })
