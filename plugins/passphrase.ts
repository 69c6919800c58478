import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { PASSPHRASE_WORD_LISTS as PASSPHRASE_LIST_NAMES, PassphraseParams, PassphraseResult } from '../schemas/passphrase.js'
import { rememberedEntropyBits } from '../src/random/entropy.js'
import { ParameterError } from '../src/http/parameter-error.js'
import { lazyTable } from '../src/random/lazy-table.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { holdsUnquotable } from '../src/http/env-file.js'
import { checkWith, hashProblems } from '../src/http/hashed-values.js'
import { randomBelow, randomBytes, randomString } from '../src/random/csprng.js'
import { EFF_LARGE_WORDLIST } from '../src/random/wordlists/eff-large.js'
import { PHRASE_WORDLISTS, isAllowedSeparator, type PhraseLanguage } from './phrase.js'

type Params = Static<typeof PassphraseParams>
export type WordListName = Params['wordList']

/** The EFF large word list: 7,776 distinct lower-case words (src/random/wordlists/). */
export const WORDLIST = EFF_LARGE_WORDLIST

/** A word as `capitalize` writes it: its first character in upper case, where the script has case (CJK and Hangul stay as they are). */
export function capitalized (word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}

export interface PassphraseWordList {
  words: readonly string[]
  /** `count` indexes into `words`, each uniform and independent of the others. */
  draw: (count: number) => number[]
  /** The BIP-39 language, whose separator rule applies too; undefined for the EFF list. */
  language?: PhraseLanguage
}

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

/** `count` indexes into WORDLIST (7,776 words), each uniform and independent of the others. */
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

// 2,048 = 2^11 words: the low 11 bits of two uniform bytes are uniform over them (65,536 is
// 32 × 2,048, so every index comes from exactly 32 byte pairs)
const BIP39_MASK = 0x7ff

/** `count` indexes below 2,048, each from its own two pool bytes, wiped once read. */
export function drawBip39Indexes (count: number): number[] {
  const bytes = randomBytes(2 * count)
  const indexes = new Array<number>(count)
  for (let i = 0; i < count; i++) indexes[i] = ((bytes[2 * i] as number) << 8 | (bytes[2 * i + 1] as number)) & BIP39_MASK
  bytes.fill(0)
  return indexes
}

const EFF_LARGE: PassphraseWordList = { words: WORDLIST, draw: drawWordIndexes }

/**
 * Every list by its `wordList` name. The BIP-39 lists are the phrase generator's own arrays
 * (plugins/phrase.ts), so the process holds one copy of each, NFKD as BIP-39 writes them; like
 * them, each is taken on its first use, not at start-up (src/random/lazy-table.ts).
 */
export const PASSPHRASE_WORD_LISTS: Readonly<Record<WordListName, PassphraseWordList>> = lazyTable(
  PASSPHRASE_LIST_NAMES,
  (name) => {
    if (name === 'eff-large') return EFF_LARGE
    const language = name.slice('bip39-'.length) as PhraseLanguage
    return { words: PHRASE_WORDLISTS[language].words, draw: drawBip39Indexes, language }
  }
)

// Each list's words as `capitalize` writes them, made on first use (once per list in the
// process), so a capitalized passphrase costs no more than a lower-case one
const CAPITALIZED = new Map<WordListName, readonly string[]>()

function capitalizedWords (name: WordListName): readonly string[] {
  let words = CAPITALIZED.get(name)
  if (words === undefined) {
    words = PASSPHRASE_WORD_LISTS[name].words.map(capitalized)
    CAPITALIZED.set(name, words)
  }
  return words
}

/**
 * The separator rule: never a letter, digit, control or invisible character, nor a leading
 * combining mark; with a BIP-39 list the phrase generator's rule too: 1..4 characters (in the
 * English and Spanish lists some words begin others, so words run together would not read back),
 * none that occurs in a word of the list in any normal form.
 */
export function checkSeparator (separator: string, { language }: PassphraseWordList, wordList: WordListName): void {
  if (NOT_IN_SEPARATOR.test(separator)) {
    throw new ParameterError([{ pointer: '#/separator', code: 'NOT_ALLOWED_VALUE', message: 'SEPARATOR_HAS_LETTER_OR_DIGIT' }])
  }
  if (language === undefined) return
  if (separator === '') throw new ParameterError([{ pointer: '#/separator', code: 'TOO_SHORT', args: { min: 1 } }])
  if (!isAllowedSeparator(separator, language)) {
    throw new ParameterError([{ pointer: '#/separator', code: 'NOT_ALLOWED_VALUE', message: 'SEPARATOR_HAS_WORD_CHARACTER', args: { language: wordList } }])
  }
}

// The most UTF-8 bytes a word of each list has, as written and capitalized (once per list and case)
const LONGEST_WORD = new Map<string, number>()

function longestWordBytes (wordList: WordListName, capitalize: boolean): number {
  const key = `${wordList} ${capitalize}`
  let longest = LONGEST_WORD.get(key)
  if (longest === undefined) {
    const list = capitalize ? capitalizedWords(wordList) : PASSPHRASE_WORD_LISTS[wordList].words
    longest = Math.max(...list.map((word) => Buffer.byteLength(word)))
    LONGEST_WORD.set(key, longest)
  }
  return longest
}

/**
 * The most UTF-8 bytes a passphrase of these parameters can have: every word the list's longest,
 * the separators, and the digit of `includeNumber`. What bcrypt's 72 bytes are held to (CONTRACT §12).
 */
export function longestPassphraseBytes ({ words, wordList, separator, capitalize, includeNumber }: Params): number {
  return words * longestWordBytes(wordList, capitalize) + (words - 1) * Buffer.byteLength(separator) + (includeNumber ? 1 : 0)
}

/**
 * `quantity` passphrases of `words` words, each word uniform over the list and independent of the
 * others; with `includeNumber`, one digit (uniform over 0-9) is appended to one word (uniform over
 * the passphrase's words), independently of the words.
 */
export function generatePassphrases ({ words, wordList, separator, capitalize, includeNumber, quantity }: Params): string[] {
  const source = PASSPHRASE_WORD_LISTS[wordList]
  checkSeparator(separator, source, wordList)
  const list = capitalize ? capitalizedWords(wordList) : source.words
  const indexes = source.draw(words * quantity)
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

/**
 * log2 of the number of equally likely draws, rounded down: N^words word sequences (N = 7,776 or
 * 2,048), times 10 × words (digit and word) with `includeNumber`. Separator and capitals add nothing.
 * 11 lists × 18 word counts × 2 at most, each counted once.
 */
export const passphraseEntropyBits = rememberedEntropyBits<Pick<Params, 'words' | 'wordList' | 'includeNumber'>>(
  ({ words, wordList, includeNumber }) => `${wordList} ${words} ${includeNumber}`,
  ({ words, wordList, includeNumber }) => {
    const sequences = BigInt(PASSPHRASE_WORD_LISTS[wordList].words.length) ** BigInt(words)
    return includeNumber ? sequences * 10n * BigInt(words) : sequences
  })

export default fp(async function passphraseGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'passphrase',
    name: 'Passphrase',
    summary: 'Generate passphrases',
    description: 'Passphrases of `words` words (3..20) from `wordList`: the EFF large word list (7,776 words, the default) or one of the ten BIP-39 lists (2,048 words each, NFKD), each word chosen independently and uniformly, joined with `separator` ' +
      '(0..4 characters, no letters, digits, control or invisible characters, not starting with a combining mark; with a BIP-39 list also 1..4 characters and none that occurs in the list\'s words); ' +
      'with `capitalize` every word starts with a capital where the script has case, and with `includeNumber` one digit 0-9, chosen uniformly, is appended to one word, chosen uniformly. ' +
      '`entropyBits` is words × log2(7776 or 2048), plus log2(10 × words) with `includeNumber`.',
    params: PassphraseParams,
    result: PassphraseResult,
    generate: (params) => ({ values: generatePassphrases(params), entropyBits: passphraseEntropyBits(params) }),
    check: (params) => {
      const { separator, wordList } = params
      checkWith(() => checkSeparator(separator, PASSPHRASE_WORD_LISTS[wordList], wordList), hashProblems(params.hash, params.quantity, () => longestPassphraseBytes(params), '#/words'))
    },
    // The words are letters (and four EFF words' hyphens); the separator is the client's, and the
    // rule leaves out control characters but not `'` or `\\`
    notRepresentable: ({ separator }) => holdsUnquotable(separator) ? ['params/separator'] : [],
    hashOf: (params) => params.hash
  })
}, { name: 'generator-passphrase', dependencies: ['errors'] })
