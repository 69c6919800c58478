import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { sha256 } from '@noble/hashes/sha2.js'
import { entropyToMnemonic } from '@scure/bip39'
import { wordlist as czech } from '@scure/bip39/wordlists/czech.js'
import { wordlist as english } from '@scure/bip39/wordlists/english.js'
import { wordlist as french } from '@scure/bip39/wordlists/french.js'
import { wordlist as italian } from '@scure/bip39/wordlists/italian.js'
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese.js'
import { wordlist as korean } from '@scure/bip39/wordlists/korean.js'
import { wordlist as portuguese } from '@scure/bip39/wordlists/portuguese.js'
import { wordlist as chineseSimplified } from '@scure/bip39/wordlists/simplified-chinese.js'
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js'
import { wordlist as chineseTraditional } from '@scure/bip39/wordlists/traditional-chinese.js'
import { PHRASE_LANGUAGES, PhraseParams, PhraseResult } from '../schemas/phrase.js'
import { ParameterError } from '../src/http/parameter-error.js'
import { lazyTable } from '../src/random/lazy-table.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { randomBytes } from '../src/random/csprng.js'
import { repeat } from '../src/random/repeat.js'
import { holdsUnquotable } from '../src/http/env-file.js'

type Params = Static<typeof PhraseParams>
export type PhraseLanguage = Params['language']

/** @scure/bip39's lists, under the names of the `language` parameter. */
export const SOURCE_WORDLISTS: Readonly<Record<PhraseLanguage, readonly string[]>> = {
  english,
  chinese_simplified: chineseSimplified,
  chinese_traditional: chineseTraditional,
  czech,
  french,
  italian,
  japanese,
  korean,
  portuguese,
  spanish
}

export interface PhraseWordlist {
  words: string[]
  /** What @scure/bip39 puts between words: U+3000 for the Japanese list, a space for the others. */
  joiner: string
  /** Every code point of every word, one per entry, in each of the four Unicode normal forms. */
  characters: ReadonlySet<string>
}

const NORMAL_FORMS = ['NFC', 'NFD', 'NFKC', 'NFKD'] as const
// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/

/** The table entry of `language`, from its list (`source`: another list only to test the checks). */
export function phraseWordlist (language: PhraseLanguage, source: readonly string[] = SOURCE_WORDLISTS[language]): PhraseWordlist {
  // A plain array, the one `mnemonicEncoder` indexes: V8 (Node 20) walks the frozen arrays
  // @scure/bip39 exports two to four times as slowly as a plain one (which cost ~105 vs 27..52 µs
  // per phrase while @scure/bip39 checked the list on each call). Same words, same order; never changed.
  const words = [...source]
  // @scure/bip39 recognises the Japanese list by its first word and joins with the ideographic
  // space, as Japanese wallets do; checked here so a change in the library stops the build
  // (scripts/build.ts builds every list) instead of sending phrases that cannot be split.
  const joiner = language === 'japanese' ? '\u3000' : ' '
  const sample = entropyToMnemonic(new Uint8Array(16), words).split(joiner)
  if (sample.length !== 12 || !sample.every((word) => words.includes(word))) {
    throw new Error(`phrase: @scure/bip39 no longer joins ${language} words as expected`)
  }
  // The lists are NFKD, but people and tools may hold a phrase in any normal form (macOS and
  // browsers often compose it), so a separator must stay apart from the words in all of them.
  const characters = new Set<string>()
  for (const word of words) {
    // Every normal form of an ASCII word is the word itself: six of the ten lists are all ASCII,
    // and skipping their 4 × 2,048 normalisations takes ~40% off this loop, the costliest part
    // of building a list (a CPU profile of start-up, docs/performance.md)
    if (ASCII.test(word)) {
      for (const character of word) characters.add(character)
      continue
    }
    for (const form of NORMAL_FORMS) {
      for (const character of word.normalize(form)) characters.add(character)
    }
  }
  if (characters.has(joiner)) throw new Error(`phrase: a ${language} word holds its own joiner`)
  return { words, joiner, characters }
}

/**
 * Each list built once, on its first use (src/random/lazy-table.ts): no request ever walks a word list
 * to check a separator, and a process asked only for English phrases (the default) never builds
 * the nine others, the costliest part of its start-up until then (issue 26). The build checks
 * all ten (scripts/build.ts), so a change in @scure/bip39 stops the build, not a request.
 */
export const PHRASE_WORDLISTS: Readonly<Record<PhraseLanguage, PhraseWordlist>> = lazyTable(PHRASE_LANGUAGES, (language) => phraseWordlist(language))

// Never in a separator, whatever the list: control characters break text/plain lines and
// terminals; format characters (zero-width spaces and joiners, bidirectional overrides) are
// invisible or reorder what is displayed, so the words a user reads are not the ones sent; line
// and paragraph separators break lines; a lone surrogate cannot be encoded as UTF-8; an
// unassigned code point may become any of these in a later Unicode version.
const NEVER_IN_SEPARATOR = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Cn}]/u
// A first character that joins the one before it would merge with the last letter of the word:
// shown as one character, and composed with it by NFC (n + U+0301 becomes ń; a Hangul syllable
// and a final jamo become one syllable), after which the value no longer splits.
const JOINS_PREVIOUS = /^[\p{M}\u1160-\u11FF\uD7B0-\uD7FF]/u

/**
 * Whether `separator` keeps every value splittable back into its words, in whatever normal form
 * the value or the separator is held: no code point of the separator, in any normal form, occurs
 * in any normal form of a word of the list (é as U+00E9 and as e + U+0301 alike).
 */
export function isAllowedSeparator (separator: string, language: PhraseLanguage): boolean {
  // Tested first: normalising a lone surrogate is not meaningful
  if (NEVER_IN_SEPARATOR.test(separator) || JOINS_PREVIOUS.test(separator)) return false
  const { characters } = PHRASE_WORDLISTS[language]
  for (const form of NORMAL_FORMS) {
    const normalized = separator.normalize(form)
    if (NEVER_IN_SEPARATOR.test(normalized) || JOINS_PREVIOUS.test(normalized)) return false
    for (const character of normalized) {
      if (characters.has(character)) return false
    }
  }
  return true
}

/** BIP-39 words and checksum of 16..32 bytes of entropy (a multiple of 4). */
export type MnemonicEncoder = (entropy: Uint8Array) => string[]

/**
 * The encoder of one list: what @scure/bip39's `entropyToMnemonic` computes (SHA-256 from
 * @noble/hashes for the checksum, 11-bit indexes into the list), without its check of all 2,048
 * words on every call (~85 µs a phrase). `phraseWordlist` has @scure/bip39 check each list once,
 * when it is built; the equality is proven for all ten lists by test/plugins/phrase-encoder.test.ts.
 * Reads the entropy in place and wipes the digest, so the only copy left is the caller's.
 */
export function mnemonicEncoder (words: readonly string[]): MnemonicEncoder {
  // An index is 11 bits: any other length would pick words past the end or never reach some
  if (words.length !== 2048) throw new Error('phrase: a BIP-39 list has 2048 words')
  return (entropy) => {
    const length = entropy.length
    if (length < 16 || length > 32 || length % 4 !== 0) throw new RangeError('phrase: BIP-39 entropy is 16..32 bytes, a multiple of 4')
    // The checksum is the first length × 8 / 32 bits of the digest
    const checksumBits = length / 4
    const digest = sha256(entropy)
    const checksum = (digest[0] as number) >>> (8 - checksumBits)
    digest.fill(0)
    const out: string[] = []
    let carry = 0 // fewer than 19 bits: up to 10 left over and the next 8
    let bits = 0
    for (let i = 0; i < length; i++) {
      carry = (carry << 8) | (entropy[i] as number)
      bits += 8
      if (bits >= 11) {
        bits -= 11
        out.push(words[(carry >>> bits) & 0x7ff] as string)
        carry &= (1 << bits) - 1
      }
    }
    // length × 8 + checksumBits is a multiple of 11: the checksum completes the last word exactly
    out.push(words[((carry << checksumBits) | checksum) & 0x7ff] as string)
    return out
  }
}

/** Built once, on first use like its list: no request checks a word list. */
const ENCODERS: Readonly<Record<PhraseLanguage, MnemonicEncoder>> = lazyTable(PHRASE_LANGUAGES, (language) => mnemonicEncoder(PHRASE_WORDLISTS[language].words))

/** `entropy` as BIP-39 words and checksum, joined as @scure/bip39 joins them (also the micro-benchmark's limit). */
export function mnemonicOf (entropy: Uint8Array, language: PhraseLanguage = 'english'): string {
  return ENCODERS[language](entropy).join(PHRASE_WORDLISTS[language].joiner)
}

/**
 * The words of a BIP-39 mnemonic of `words` words: words × 32 / 3 bits of entropy from node:crypto
 * (so 16..32 bytes), turned into words and checksum as @scure/bip39 does.
 */
export function generateMnemonic (words: Params['words'], language: PhraseLanguage): string[] {
  const entropy = randomBytes(words * 4 / 3)
  try {
    return ENCODERS[language](entropy)
  } finally {
    // The words are the secret the caller keeps; the bytes they came from need not outlive them
    entropy.fill(0)
  }
}

/** The separator rule: throws the problem when `separator` may not join words of `language`. */
export function checkPhraseSeparator ({ language, separator }: Pick<Params, 'language' | 'separator'>): void {
  if (!isAllowedSeparator(separator, language)) {
    throw new ParameterError([{ pointer: '#/separator', code: 'NOT_ALLOWED_VALUE', message: 'SEPARATOR_HAS_WORD_CHARACTER', args: { language } }])
  }
}

export function generatePhrases ({ words, language, separator, quantity }: Params): string[] {
  checkPhraseSeparator({ language, separator })
  // Joined once, with the separator: the same text as @scure/bip39's joiner replaced by it, since
  // no word holds the joiner (checked when the list is built)
  return repeat(quantity, () => generateMnemonic(words, language).join(separator))
}

/** The entropy bytes are uniform; the checksum words are computed from them and add nothing. */
export function phraseEntropyBits ({ words }: Params): number {
  return words * 32 / 3
}

export default fp(async function phraseGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'phrase',
    name: 'Phrase',
    summary: 'Generate BIP-39 mnemonic phrases',
    description: 'Valid BIP-39 mnemonics (checksum included) of 12 to 24 words from words × 32 / 3 bits of CSPRNG entropy, encoded as BIP-39 specifies (SHA-256 checksum, 11-bit word indexes; proven equal to @scure/bip39) with the word list of @scure/bip39 for `language` ' +
      '(english by default; chinese_simplified, chinese_traditional, czech, french, italian, japanese, korean, portuguese, spanish). ' +
      'Words are exactly as in the list (NFKD, as BIP-39 specifies), joined with `separator`, which may hold no character of the list\'s words (in any normal form) ' +
      'and no control or invisible character, so splitting a value on it gives the words back for any BIP-39 implementation. ' +
      'Japanese wallets join words with U+3000, the ideographic space: send it as `separator`. `entropyBits` is words × 32 / 3.',
    params: PhraseParams,
    result: PhraseResult,
    generate: (params) => ({ values: generatePhrases(params), entropyBits: phraseEntropyBits(params) }),
    check: checkPhraseSeparator,
    // The words are letters; the separator is the client's (control characters already refused)
    notRepresentable: ({ separator }) => holdsUnquotable(separator) ? ['params/separator'] : []
  })
}, { name: 'generator-phrase', dependencies: ['errors'] })
