import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { PassphraseParams, PassphraseResult } from '../schemas/passphrase.js'
import { entropyBitsOf } from '../src/entropy.js'
import { ParameterError } from '../src/errors.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomBelow, randomString } from '../src/random.js'
import { EFF_LARGE_WORDLIST } from '../src/wordlists/eff-large.js'

type Params = Static<typeof PassphraseParams>

/** The EFF large word list: 7,776 distinct lower-case words (src/wordlists/). */
export const WORDLIST = EFF_LARGE_WORDLIST
// Made once at start-up, so a capitalized passphrase costs no more than a lower-case one
const CAPITALIZED = WORDLIST.map((word) => word.charAt(0).toUpperCase() + word.slice(1))

// A word is five rolls of a fair die, the way the list is meant to be used: five independent
// uniform base-6 digits make a uniform number below 6^5 = 7,776, the list's length (pinned by
// test/plugins/passphrase.test.ts), so every word is equally likely with no modulo bias
// (randomString makes each digit uniform by rejection).
const DIE = '012345'
const ROLLS_PER_WORD = 5
const FACE_ZERO = DIE.charCodeAt(0)

// A letter or digit would run into the words and the digit, so a value could not be read back
// into them; a control character would break text/plain lines and terminals (CONTRACT §2). An
// invisible one (format characters such as a zero-width space or a right-to-left override, line
// and paragraph separators, lone surrogates, unassigned code points) would make a secret nobody
// can read or type back, and a leading combining mark would merge with the word before it.
const NOT_IN_SEPARATOR = /[\p{L}\p{Nd}\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Cn}]|^\p{M}/u

/** `count` indexes into WORDLIST, each uniform and independent of the others. */
export function drawWordIndexes (count: number): number[] {
  const rolls = randomString(DIE, count * ROLLS_PER_WORD)
  const indexes = new Array<number>(count)
  for (let word = 0, roll = 0; word < count; word++) {
    let index = 0
    for (const end = roll + ROLLS_PER_WORD; roll < end; roll++) index = index * DIE.length + rolls.charCodeAt(roll) - FACE_ZERO
    indexes[word] = index
  }
  return indexes
}

/**
 * `quantity` passphrases of `words` words, each word uniform over the list and independent of the
 * others; with `includeNumber`, one digit (uniform over 0-9) is appended to one word (uniform over
 * the passphrase's words), independently of the words.
 */
export function generatePassphrases ({ words, separator, capitalize, includeNumber, quantity }: Params): string[] {
  if (NOT_IN_SEPARATOR.test(separator)) {
    throw new ParameterError([{ pointer: '#/separator', code: 'NOT_ALLOWED_VALUE', message: 'SEPARATOR_HAS_LETTER_OR_DIGIT' }])
  }
  const list = capitalize ? CAPITALIZED : WORDLIST
  const indexes = drawWordIndexes(words * quantity)
  const values: string[] = []
  for (let start = 0; start < indexes.length; start += words) {
    const chosen = indexes.slice(start, start + words).map((index) => list[index] as string)
    if (includeNumber) {
      const position = Number(randomBelow(BigInt(words)))
      chosen[position] += String(randomBelow(10n))
    }
    values.push(chosen.join(separator))
  }
  return values
}

// 36 parameter combinations at most; each is worked out with BigInt once
const ENTROPY = new Map<number, number>()

/**
 * log2 of the number of equally likely draws, rounded down: 7,776^words word sequences, times
 * 10 × words (digit and word) with `includeNumber`. Separator and capitals add nothing.
 */
export function passphraseEntropyBits ({ words, includeNumber }: Params): number {
  const key = includeNumber ? -words : words
  let bits = ENTROPY.get(key)
  if (bits === undefined) {
    const sequences = BigInt(WORDLIST.length) ** BigInt(words)
    bits = entropyBitsOf(includeNumber ? sequences * 10n * BigInt(words) : sequences)
    ENTROPY.set(key, bits)
  }
  return bits
}

export default fp(async function passphraseGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'passphrase',
    name: 'Passphrase',
    summary: 'Generate passphrases',
    description: 'Passphrases of `words` words (3..20) from the EFF large word list (7,776 words), each chosen independently and uniformly, joined with `separator` (0..4 characters, no letters, digits, control or invisible characters, not starting with a combining mark); with `capitalize` every word starts with a capital, and with `includeNumber` one digit 0-9, chosen uniformly, is appended to one word, chosen uniformly. `entropyBits` is words × log2(7776), plus log2(10 × words) with `includeNumber`.',
    params: PassphraseParams,
    result: PassphraseResult,
    generate: (params) => ({ values: generatePassphrases(params), entropyBits: passphraseEntropyBits(params) })
  })
}, { name: 'generator-passphrase', dependencies: ['errors'] })
