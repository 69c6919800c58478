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

/**
 * One password: uniform over all strings of `length` characters from the union of the enabled
 * sets that contain at least one character of each enabled set. Drawing uniformly and redrawing
 * the strings that miss a set gives exactly that distribution ("one of each, then shuffle" does
 * not). The worst case, 6 characters and all four sets, accepts 28% of draws.
 */
export function generatePassword (length: number, sets: readonly CharacterSet[]): string {
  const alphabet = sets.map((set) => CHARACTER_SETS[set]).join('')
  for (;;) {
    const candidate = randomString(alphabet, length)
    if (sets.every((set) => hasAny(candidate, CHARACTER_SETS[set]))) return candidate
  }
}

function hasAny (text: string, characters: string): boolean {
  for (const character of text) if (characters.includes(character)) return true
  return false
}

export function generatePasswords (params: Params): string[] {
  const sets = (Object.keys(CHARACTER_SETS) as CharacterSet[]).filter((set) => params[set])
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
