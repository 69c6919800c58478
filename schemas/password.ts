import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'
import { HashParameter } from './hash.js'

/** CONTRACT §2: the 28 default symbols, ASCII punctuation without space, quotes, backslash and backtick. */
export const DEFAULT_SYMBOLS = '!#$%&()*+,-./:;<=>?@[]^_{|}~'
/** The 32 ASCII punctuation characters, one regular-expression class (u flag: `/` and `[` escaped, `]` and `\\` inside the range `[`..backtick). */
const PUNCTUATION = '[!-\\/:-@\\[-`{-~]'
/** A string as a regular expression (u flag) that matches it alone: its syntax characters escaped. */
const literal = (text: string): string => text.replace(/[$()*+./?[\\\]^{|}]/g, '\\$&')
/**
 * symbolSet: 1..32 characters of PUNCTUATION, none repeated, said whole in the pattern so the
 * document states exactly what is accepted. The first lookahead bounds the work: a string over 32
 * characters or with anything else fails it within 33 steps, so the search for a repeat (each
 * character looked for in the rest) only ever walks 32 characters, however long the string sent.
 * That search still costs ~3 µs for 28 characters, and AJV checks the default it fills in on every
 * request that leaves symbolSet out: the default comes first, as itself, matched in ~40 ns. It is
 * one of the strings the rest accepts, so the pattern accepts exactly the same strings.
 */
export const SYMBOL_SET_PATTERN = `^(?:${literal(DEFAULT_SYMBOLS)}$|(?=${PUNCTUATION}{1,32}$)(?:(${PUNCTUATION})(?!.*\\1))+$)`
/** exclude: printable ASCII, space excluded (`!` to `~`); repeats harmless. */
export const EXCLUDE_PATTERN = '^[!-~]*$'

const Minimum = (set: string) => Type.Integer({
  minimum: 0,
  maximum: 128,
  default: 1,
  description: `The fewest ${set} characters (0..128); counts only while that set is enabled. The enabled sets' minimums must add up to at most \`length\`.`
})

export const PasswordParams = Params('PasswordParams', {
  length: Type.Integer({ minimum: 6, maximum: 128, default: 20, description: 'Characters per password (6..128).' }),
  uppercase: Type.Boolean({ default: true, description: 'Include A-Z.' }),
  lowercase: Type.Boolean({ default: true, description: 'Include a-z.' }),
  numbers: Type.Boolean({ default: true, description: 'Include 0-9.' }),
  symbols: Type.Boolean({ default: true, description: 'Include the symbols: the 28 characters !#$%&()*+,-./:;<=>?@[]^_{|}~, or `symbolSet`.' }),
  minUppercase: Minimum('A-Z'),
  minLowercase: Minimum('a-z'),
  minNumbers: Minimum('0-9'),
  minSymbols: Minimum('symbol'),
  avoidAmbiguous: Type.Boolean({ default: false, description: 'Leave out the look-alikes I O l o 0 1 | (24 upper case, 24 lower case, 8 digits and 27 symbols remain).' }),
  symbolSet: Type.String({
    minLength: 1,
    maxLength: 32,
    pattern: SYMBOL_SET_PATTERN,
    default: DEFAULT_SYMBOLS,
    description: 'The symbols to use instead of the 28 default ones (a site\'s rule such as `!@#$%^&*`): 1..32 distinct characters, each one of the 32 ASCII punctuation characters !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~. ' +
      'A repeated character or any other character is NOT_ALLOWED_VALUE; checked even while `symbols` is false, and then unused. ' +
      'With `"` or `\\` the values hold characters JSON escapes: the JSON answer carries them escaped, text/plain as they are.',
    examples: ['!@#$%^&*']
  }),
  exclude: Type.String({
    minLength: 0,
    maxLength: 128,
    pattern: EXCLUDE_PATTERN,
    default: '',
    description: 'Characters removed from every set (a site that refuses some): 0..128 printable ASCII characters (`!` to `~`, repeats harmless). ' +
      'The sets are the set (or `symbolSet`), less `exclude`, less the look-alikes with `avoidAmbiguous`; an enabled set left with no character is EMPTY_SET at its flag (`#/symbols`, ...).',
    examples: ['<>&\'"']
  }),
  quantity: Quantity,
  hash: HashParameter
}, {
  description: 'Password parameters. Every password is uniform over all passwords of `length` characters from the enabled sets that hold at least each enabled set\'s minimum; at least one set must be enabled.',
  examples: [{ length: 24, symbols: false, quantity: 2 }, { length: 16, minNumbers: 2, minSymbols: 2, avoidAmbiguous: true }, { length: 16, symbolSet: '!@#$%^&*', exclude: 'lIO0' }, { length: 32, hash: { algorithm: 'argon2id' } }]
})

export const PasswordResult = GenerationResult('PasswordResult', 'password', { closedAlphabet: true, passwordHashes: true })
