import t, { type Test } from 'tap'
import fc from 'fast-check'
// bip39 (bitcoinjs) is a BIP-39 implementation independent of @scure/bip39, with its own copy of
// the lists: every phrase is checked by it, not by the library that made it
import * as bip39 from 'bip39'
import { entropyToMnemonic } from '@scure/bip39'
import {
  PHRASE_WORDLISTS, SOURCE_WORDLISTS, generateMnemonic, generatePhrases, isAllowedSeparator, mnemonicOf, phraseEntropyBits, phraseWordlist,
  type PhraseLanguage
} from '../../plugins/phrase.js'
import { PHRASE_LANGUAGES, PHRASE_WORD_COUNTS } from '../../schemas/phrase.js'
import type { ParameterError } from '../../src/http/parameter-error.js'
import { build, get, post } from '../helper.js'

const LATIN: PhraseLanguage[] = ['english', 'czech', 'french', 'italian', 'portuguese', 'spanish']
const NON_LATIN: PhraseLanguage[] = ['chinese_simplified', 'chinese_traditional', 'japanese', 'korean']
const UI_LANGUAGES = ['en', 'ru', 'de', 'fr', 'es'] as const

/** bip39's list: its names are ours (the BIP-39 repository's file names). */
function independentList (language: PhraseLanguage): string[] {
  const list = bip39.wordlists[language]
  if (list === undefined) throw new Error(`bip39 has no ${language} list`)
  return list
}

/**
 * `words` as bip39 takes a mnemonic: it normalises to NFKD and splits on U+0020, and its own
 * Japanese phrases are joined with U+3000 (which NFKD makes a space), so Japanese is given that way.
 */
function asIndependentMnemonic (words: string[], language: PhraseLanguage): string {
  return words.join(language === 'japanese' ? '\u3000' : ' ')
}

/** Valid for bip39, with words × 32 / 3 bits of entropy, from which bip39 makes the same phrase. */
function independentlyValid (words: string[], language: PhraseLanguage): boolean {
  const list = independentList(language)
  const mnemonic = asIndependentMnemonic(words, language)
  if (!bip39.validateMnemonic(mnemonic, list)) return false
  const entropy = bip39.mnemonicToEntropy(mnemonic, list)
  return entropy.length * 4 === words.length * 32 / 3 && bip39.entropyToMnemonic(entropy, list) === mnemonic
}

function checkValue (t: Test, value: string, separator: string, language: PhraseLanguage, count: number): void {
  const words = value.split(separator)
  t.equal(words.length, count, `${language}: ${count} words`)
  t.ok(words.every((word) => PHRASE_WORDLISTS[language].words.includes(word)), `${language}: every word from the list`)
  t.ok(independentlyValid(words, language), `${language}: a valid BIP-39 mnemonic for bip39, ${count * 32 / 3} bits of entropy`)
}

function refusal (language: PhraseLanguage) {
  return [{ pointer: '#/separator', code: 'NOT_ALLOWED_VALUE', message: 'SEPARATOR_HAS_WORD_CHARACTER', args: { language } }]
}

/** Each code point of `text`, as strings. */
function codePoints (text: string): string[] {
  return [...text]
}

t.test('word lists: the ten of @scure/bip39, as plain arrays, the same as bip39\'s', async (t) => {
  t.same([...PHRASE_LANGUAGES].sort(), Object.keys(SOURCE_WORDLISTS).sort(), 'one list per language of the schema')
  for (const language of PHRASE_LANGUAGES) {
    const { words, joiner, characters } = PHRASE_WORDLISTS[language]
    const source = SOURCE_WORDLISTS[language]
    t.same(words, source, `${language}: @scure/bip39's words, same order`)
    t.not(words, source, `${language}: a copy`)
    t.notOk(Object.isFrozen(words), `${language}: a plain array (the library's is frozen: slower to walk)`)
    t.equal(new Set(words).size, 2048, `${language}: 2048 distinct words`)
    t.same(words, independentList(language), `${language}: word for word bip39's list`)
    t.ok(words.every((word) => word === word.normalize('NFKD')), `${language}: NFKD, as BIP-39 specifies`)

    // How @scure/bip39 joins: U+3000 for Japanese, a space for the others
    t.equal(joiner, language === 'japanese' ? '\u3000' : ' ', `${language}: joiner`)
    const joined = entropyToMnemonic(new Uint8Array(32).fill(0x5a), [...source])
    t.equal(joined.split(joiner).length, 24, `${language}: @scure/bip39 joins 24 words with ${JSON.stringify(joiner)}`)

    // Recomputed here from the words in each normal form
    const expected = new Set<string>()
    for (const word of source) for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD']) for (const c of word.normalize(form)) expected.add(c)
    t.same([...characters].sort(), [...expected].sort(), `${language}: ${expected.size} characters`)
    t.notOk(characters.has(' ') || characters.has('\u3000'), `${language}: no word holds a space or U+3000`)
    t.ok(isAllowedSeparator(' ', language), `${language}: the default separator is allowed`)
  }
  // What the lists hold, as checked when this was written: the rule's examples rely on it
  t.same([...PHRASE_WORDLISTS.english.characters].sort().join(''), 'abcdefghijklmnopqrstuvwxyz')
  for (const language of ['czech', 'italian', 'portuguese'] as const) {
    t.ok([...PHRASE_WORDLISTS[language].characters].every((c) => c >= 'a' && c <= 'z'), `${language}: a-z only, no accents`)
  }
  t.ok(PHRASE_WORDLISTS.french.words.includes('e\u0301le\u0300ve'), 'french: accents stored decomposed (élève)')
  t.ok(PHRASE_WORDLISTS.spanish.words.includes('an\u0303o'), 'spanish: tilde stored decomposed (año)')
  for (const c of ['\u00e9', '\u00e8', '\u0301', '\u0300']) t.ok(PHRASE_WORDLISTS.french.characters.has(c), `french: U+${c.codePointAt(0)?.toString(16)} in either form`)
})

t.test('start-up checks: a list @scure/bip39 would join otherwise, or a word holding the joiner, stops the start', async (t) => {
  t.same(phraseWordlist('french'), PHRASE_WORDLISTS.french, 'the table is what the function makes')
  // @scure/bip39 recognises the Japanese list by its first word: without it, it joins with spaces
  const japanese = [...SOURCE_WORDLISTS.japanese]
  japanese[0] = 'あ'
  t.throws(() => phraseWordlist('japanese', japanese), { message: 'phrase: @scure/bip39 no longer joins japanese words as expected' })
  // A word that is not in the check's sample phrase (zero entropy: abandon × 11, about)
  const english = [...SOURCE_WORDLISTS.english]
  english[2047] = 'zoo zoo'
  t.throws(() => phraseWordlist('english', english), { message: 'phrase: a english word holds its own joiner' })
})

t.test('the character sets are computed once per list, not per request', async (t) => {
  t.ok(Object.isFrozen(PHRASE_WORDLISTS), 'the table cannot be swapped')
  const before = PHRASE_LANGUAGES.map((language) => PHRASE_WORDLISTS[language].characters)
  // Building a set normalises each of 2048 words four times; a request may normalise only its
  // separator (four forms), however many values it makes
  const normalizations = t.capture(String.prototype, 'normalize', String.prototype.normalize)
  for (const language of PHRASE_LANGUAGES) {
    normalizations()
    generatePhrases({ words: 24, language, separator: '-', quantity: 50 })
    const calls = normalizations().length
    t.ok(calls <= 4, `${language}: ${calls} normalisations for 50 phrases`)
  }
  normalizations.restore()
  const app = await build(t)
  for (const language of PHRASE_LANGUAGES) await post(app, 'phrase', { language, separator: '-' })
  t.ok(PHRASE_LANGUAGES.every((language, i) => PHRASE_WORDLISTS[language].characters === before[i]), 'the same sets after requests')
})

t.test('generateMnemonic: every language and word count, valid for bip39 with words × 32 / 3 bits', async (t) => {
  for (const language of PHRASE_LANGUAGES) {
    for (const words of PHRASE_WORD_COUNTS) {
      for (let i = 0; i < 4; i++) {
        const list = generateMnemonic(words, language)
        t.equal(list.length, words)
        t.ok(independentlyValid(list, language), `${language}, ${words} words`)
        t.equal(bip39.mnemonicToEntropy(asIndependentMnemonic(list, language), independentList(language)).length, words * 32 / 3 / 4, 'entropy hex digits')
      }
    }
  }
})

t.test('mnemonicOf: what bip39 makes from the same entropy, every language', async (t) => {
  const entropy = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex')
  for (const language of PHRASE_LANGUAGES) {
    for (const words of PHRASE_WORD_COUNTS) {
      const bytes = entropy.subarray(0, words * 4 / 3)
      t.equal(mnemonicOf(bytes, language), bip39.entropyToMnemonic(bytes, independentList(language)), `${language}, ${words} words`)
    }
  }
  t.equal(mnemonicOf(entropy.subarray(0, 16)), bip39.entropyToMnemonic(entropy.subarray(0, 16), independentList('english')), 'english by default')
})

t.test('phraseEntropyBits: words × 32 / 3 whatever the language', async (t) => {
  for (const language of PHRASE_LANGUAGES) {
    for (const words of PHRASE_WORD_COUNTS) t.equal(phraseEntropyBits({ words, language, separator: ' ', quantity: 1 }), words * 32 / 3)
  }
})

// Code points of many kinds: ASCII, Latin-1 and Latin Extended (accents, precomposed and
// combining), kana, Hangul jamo and syllables, CJK ideographs, emoji
const codePoint = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0xa0, max: 0x24f }),
  fc.integer({ min: 0x300, max: 0x36f }),
  fc.integer({ min: 0x3000, max: 0x30ff }),
  fc.integer({ min: 0x1100, max: 0x11ff }),
  fc.integer({ min: 0xac00, max: 0xd7a3 }),
  fc.integer({ min: 0x4e00, max: 0x9fff }),
  fc.integer({ min: 0x1f600, max: 0x1f64f })
).map((c) => String.fromCodePoint(c))
const separatorText = fc.array(codePoint, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''))
const language = fc.constantFrom(...PHRASE_LANGUAGES)

t.test('property: with any separator the rule allows, values split back into valid mnemonics', async (t) => {
  let runs = 0
  fc.assert(fc.property(language, fc.constantFrom(...PHRASE_WORD_COUNTS), separatorText, fc.integer({ min: 1, max: 3 }), (language, words, separator, quantity) => {
    fc.pre(isAllowedSeparator(separator, language))
    runs++
    const values = generatePhrases({ words, language, separator, quantity })
    return values.length === quantity && values.every((value) => {
      const list = value.split(separator)
      return list.length === words && list.every((word) => PHRASE_WORDLISTS[language].words.includes(word)) && independentlyValid(list, language)
    })
  }), { numRuns: 400 })
  t.ok(runs >= 400, `${runs} allowed separators tried`)
})

t.test('property: the rule gives canonically equivalent separators the same answer', async (t) => {
  fc.assert(fc.property(language, separatorText, (language, separator) => {
    const answer = isAllowedSeparator(separator, language)
    return isAllowedSeparator(separator.normalize('NFC'), language) === answer && isAllowedSeparator(separator.normalize('NFD'), language) === answer
  }), { numRuns: 2000 })
  t.pass('2000 runs')
})

t.test('generatePhrases: separators of 1..4 code points, astral ones included, split back', async (t) => {
  for (const language of PHRASE_LANGUAGES) {
    for (const separator of [' ', '-', '\u3000', '🙂', '🙂🙂🙂🙂', ' | ', '::', '$&', '❤️']) {
      const [value] = generatePhrases({ words: 18, language, separator, quantity: 1 })
      checkValue(t, value as string, separator, language, 18)
    }
  }
})

t.test('generatePhrases: the separator rule', async (t) => {
  const refused = (separator: string, language: PhraseLanguage) => {
    const error = t.throws(() => generatePhrases({ words: 12, language, separator, quantity: 1 }), `${language}: ${JSON.stringify(separator)} refused`)
    t.same((error as ParameterError).problems, refusal(language))
  }

  t.test('a character of the chosen list, in either normal form, alone or among others', async (t) => {
    for (const language of PHRASE_LANGUAGES) {
      const { words } = PHRASE_WORDLISTS[language]
      const samples = new Set<string>()
      for (let i = 0; i < words.length; i += 97) {
        const word = words[i] as string
        for (const c of codePoints(word.normalize('NFC'))) samples.add(c)
        for (const c of codePoints(word)) samples.add(c)
      }
      for (const c of samples) {
        t.notOk(isAllowedSeparator(c, language), `${language}: ${JSON.stringify(c)}`)
        t.notOk(isAllowedSeparator(`-${c}-`, language), `${language}: -${c}-`)
      }
      refused(words[0]?.normalize('NFC').slice(0, 1) as string, language)
    }
  })

  t.test('control, format and other invisible characters, for every list', async (t) => {
    const invisible = [
      '\t', '\n', '\r', '\u0000', '\u001b', '\u007f', '\u0085', // Cc
      '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u202e', '\u2066', // Cf: soft hyphen, zero-width, bidi
      '\u2028', '\u2029', // line and paragraph separators
      '\ud800', '\udc00', // lone surrogates
      '\u0378', '\uffff' // unassigned, noncharacter
    ]
    for (const language of PHRASE_LANGUAGES) {
      for (const c of invisible) {
        t.notOk(isAllowedSeparator(c, language), `${language}: U+${c.codePointAt(0)?.toString(16).padStart(4, '0')}`)
        t.notOk(isAllowedSeparator(`-${c}-`, language), `${language}: U+${c.codePointAt(0)?.toString(16).padStart(4, '0')} inside`)
      }
      refused('\t', language)
    }
  })

  t.test('a first character that would join the last letter of the word before', async (t) => {
    for (const language of PHRASE_LANGUAGES) {
      // combining acute, variation selector, Hangul final jamo not used by the Korean list
      for (const separator of ['\u0301', '\u0301-', '\ufe0f', '\u11aa', '\u11aa-']) t.notOk(isAllowedSeparator(separator, language), `${language}: ${JSON.stringify(separator)}`)
      t.ok(isAllowedSeparator('❤️', language), `${language}: a variation selector after a symbol is part of it`)
    }
    t.notOk(PHRASE_WORDLISTS.korean.characters.has('\u11aa'), 'U+11AA is in no Korean word: refused as a joiner, not as a word character')
    // Not joining as sent, but NFKD (which every BIP-39 implementation applies) makes them a
    // combining voicing mark and a Hangul vowel jamo
    for (const language of PHRASE_LANGUAGES) {
      for (const separator of ['\uff9e', '\uffc2-']) t.notOk(isAllowedSeparator(separator, language), `${language}: ${JSON.stringify(separator)}`)
    }
  })

  t.test('accepted for every list', async (t) => {
    for (const language of PHRASE_LANGUAGES) {
      for (const separator of [' ', '-', '\u3000', '🙂', '🙂🙂🙂🙂', ' | ', '\u00a0', '—', '$&']) t.ok(isAllowedSeparator(separator, language), `${language}: ${JSON.stringify(separator)}`)
    }
  })

  t.test('Latin letters: refused for the Latin lists, allowed for the others', async (t) => {
    for (const language of LATIN) for (const c of ['a', 'e', 'o']) refused(c, language)
    for (const language of NON_LATIN) for (const c of ['a', 'e', 'Z', '-x-']) t.ok(isAllowedSeparator(c, language), `${language}: ${c}`)
    // Upper case occurs in no list
    for (const language of PHRASE_LANGUAGES) t.ok(isAllowedSeparator('ZZ', language), `${language}: ZZ`)
    t.ok(isAllowedSeparator('-', 'english'), 'english: -')
  })

  t.test('accented letters: the same answer as U+00E9 and as e + U+0301', async (t) => {
    const forms = (nfc: string) => [nfc, nfc.normalize('NFD')]
    // é: in French and Spanish words; in the other Latin lists its decomposition holds e, a word letter
    for (const separator of forms('\u00e9')) {
      for (const language of LATIN) refused(separator, language)
      for (const language of NON_LATIN) t.ok(isAllowedSeparator(separator, language), `${language}: ${JSON.stringify(separator)}`)
    }
    // Upper case letters occur in no list, so these show the accent itself being compared:
    // É carries the acute of French and Spanish words, È the grave of French ones, Ñ the tilde of Spanish ones
    const cases: Array<[string, PhraseLanguage[]]> = [['\u00c9', ['french', 'spanish']], ['\u00c8', ['french']], ['\u00d1', ['spanish']]]
    for (const [letter, lists] of cases) {
      for (const separator of forms(letter)) {
        t.equal(separator.normalize('NFC'), letter)
        for (const language of PHRASE_LANGUAGES) {
          if (lists.includes(language)) refused(separator, language)
          else t.ok(isAllowedSeparator(separator, language), `${language}: ${JSON.stringify(separator)} allowed`)
        }
      }
    }
    // ñ, ç, ü, à: refused for every Latin list (n, c, u, a are word letters of each)
    for (const letter of ['\u00f1', '\u00e7', '\u00fc', '\u00e0']) {
      for (const separator of forms(letter)) for (const language of LATIN) refused(separator, language)
    }
    // Kana and Hangul the same way: が as one code point and as か + U+3099; 가 as a syllable and as jamo
    for (const separator of forms('\u304c')) refused(separator, 'japanese')
    for (const separator of forms('\u30ac')) refused(separator, 'japanese') // ガ: katakana, but its voicing mark is a word character
    t.ok(isAllowedSeparator('\u30a2', 'japanese'), 'japanese: katakana ア is in no word')
    for (const separator of forms('\uac00')) refused(separator, 'korean')
    refused('\u3131', 'korean') // compatibility jamo ㄱ: NFKD makes it the leading ㄱ of the words
  })
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: 12 English words joined by one space, 128 bits', async (t) => {
    const response = await post(app, 'phrase', {})
    t.equal(response.statusCode, 200)
    t.equal(response.json().entropyBits, 128)
    checkValue(t, response.json().values[0], ' ', 'english', 12)
  })

  t.test('every language and word count, POST and GET', async (t) => {
    for (const language of PHRASE_LANGUAGES) {
      const separator = language === 'japanese' ? '\u3000' : ' '
      for (const words of PHRASE_WORD_COUNTS) {
        for (const send of [post, get]) {
          const response = await send(app, 'phrase', { words, language, separator, quantity: 2 })
          t.equal(response.statusCode, 200, `${language}, ${words} words`)
          const body = response.json()
          t.equal(body.entropyBits, words * 32 / 3)
          t.equal(body.values.length, 2)
          for (const value of body.values) checkValue(t, value, separator, language, words)
        }
      }
      const response = await get(app, 'phrase', { language })
      t.equal(response.statusCode, 200, `${language}: default separator`)
      checkValue(t, response.json().values[0], ' ', language, 12)
    }
  })

  t.test('separators of 1..4 code points (an emoji is one)', async (t) => {
    for (const separator of ['🙂', '🙂🙂🙂🙂', ' | ', '::', 'ZZ', '\u3000']) {
      const response = await post(app, 'phrase', { separator, words: 15, language: 'japanese' })
      t.equal(response.statusCode, 200, JSON.stringify(separator))
      checkValue(t, response.json().values[0], separator, 'japanese', 15)
    }
  })

  t.test('a character of the list: NOT_ALLOWED_VALUE at #/separator, naming the list in every language, POST and GET alike', async (t) => {
    for (const language of PHRASE_LANGUAGES) {
      const separator = (PHRASE_WORDLISTS[language].words[1000] as string).normalize('NFC').slice(0, 1)
      const details = new Set<string>()
      for (const ui of UI_LANGUAGES) {
        const posted = await post(app, 'phrase', { language, separator }, { 'x-language': ui })
        const got = await get(app, 'phrase', { language, separator }, { 'x-language': ui })
        t.equal(posted.statusCode, 400)
        t.equal(posted.headers['content-language'], ui)
        t.equal(posted.json().code, 'VALIDATION_FAILED')
        const [error] = posted.json().errors
        t.same([error.pointer, error.code], ['#/separator', 'NOT_ALLOWED_VALUE'], `${language} in ${ui}`)
        t.ok(error.detail.includes(language), `${ui}: ${error.detail}`)
        t.equal(posted.json().detail, error.detail)
        t.equal(got.statusCode, 400)
        t.equal(got.body, posted.body, `${language} in ${ui}: GET answered as POST`)
        details.add(error.detail)
      }
      t.equal(details.size, UI_LANGUAGES.length, `${language}: a different text in each language`)
    }
    const response = await post(app, 'phrase', { language: 'french', separator: 'e\u0301' })
    t.equal(response.json().errors[0].detail, '“separator” must not contain control characters or any character that occurs in the words of the french list: the phrase could not be split back into words.')
  })

  t.test('control characters and accented letters in both forms refused; others accepted', async (t) => {
    for (const separator of ['\t', '\n', '-\u0000-', '\u200b', '\u202e']) {
      for (const send of [post, get]) {
        const response = await send(app, 'phrase', { separator, language: 'chinese_simplified' })
        t.equal(response.statusCode, 400, JSON.stringify(separator))
        t.same(response.json().errors.map((e: any) => [e.pointer, e.code]), [['#/separator', 'NOT_ALLOWED_VALUE']])
      }
    }
    for (const separator of ['\u00e9', 'e\u0301']) {
      for (const language of ['french', 'spanish', 'czech', 'portuguese', 'italian', 'english']) {
        t.equal((await post(app, 'phrase', { separator, language })).statusCode, 400, `${language}: ${JSON.stringify(separator)}`)
      }
      t.equal((await post(app, 'phrase', { separator, language: 'japanese' })).statusCode, 200, `japanese: ${JSON.stringify(separator)}`)
    }
    for (const [separator, language] of [[' ', 'korean'], ['-', 'english'], ['\u3000', 'japanese'], ['🙂', 'french']]) {
      t.equal((await get(app, 'phrase', { separator, language })).statusCode, 200, `${language}: ${JSON.stringify(separator)}`)
    }
  })

  t.test('language: a value not in the list is NOT_ALLOWED_VALUE; another type or null is TYPE', async (t) => {
    const cases: Array<[unknown, string]> = [
      ['klingon', 'NOT_ALLOWED_VALUE'], ['English', 'NOT_ALLOWED_VALUE'], ['en', 'NOT_ALLOWED_VALUE'], ['', 'NOT_ALLOWED_VALUE'],
      ['chinese-simplified', 'NOT_ALLOWED_VALUE'], [1, 'TYPE'], [true, 'TYPE'], [null, 'TYPE'], [['english'], 'TYPE'], [{}, 'TYPE']
    ]
    for (const [value, code] of cases) {
      const posted = await post(app, 'phrase', { language: value })
      const got = await get(app, 'phrase', { language: value })
      t.equal(posted.statusCode, 400, JSON.stringify(value))
      t.same(posted.json().errors.map((e: any) => [e.pointer, e.code]), [['#/language', code]], JSON.stringify(value))
      t.equal(got.body, posted.body, `${JSON.stringify(value)}: GET answered as POST`)
    }
  })

  t.test('separator of 0 or 5 code points', async (t) => {
    for (const [separator, code] of [['', 'TOO_SHORT'], ['🙂🙂🙂🙂🙂', 'TOO_LONG'], ['-----', 'TOO_LONG']]) {
      const response = await post(app, 'phrase', { separator })
      t.equal(response.statusCode, 400)
      t.same(response.json().errors.map((e: any) => [e.pointer, e.code]), [['#/separator', code]])
    }
  })
})
