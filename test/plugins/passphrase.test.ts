import t, { type Test } from 'tap'
import fc from 'fast-check'
import { createHash } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { WORDLIST, drawWordIndexes, generatePassphrases, passphraseEntropyBits } from '../../plugins/passphrase.js'
import { ParameterError } from '../../src/http/parameter-error.js'
import { build, get, post } from '../helper.js'
import { readPassphrase, type PassphraseShape } from '../passphrase-reader.js'

const LIST = new Set(WORDLIST)
const DEFAULTS = { words: 6, wordList: 'eff-large' as const, separator: '-', capitalize: false, includeNumber: false, quantity: 1 }

// The list as published by the EFF (src/random/wordlists/LICENSE.md): any change to a word, its order or
// the count changes this digest
const LIST_SHA256 = 'abae49761b88f3f1ba31ef944bea1f61b795a3cd7e1cfb7d276ed45bf77967ba'

t.test('the EFF large word list: 7,776 distinct lower-case words, pinned by SHA-256', async (t) => {
  t.equal(WORDLIST.length, 7776)
  t.equal(LIST.size, 7776, 'all distinct')
  t.ok(WORDLIST.every((word) => /^[a-z]+(-[a-z]+)?$/.test(word)), 'lower case a-z, at most one inner hyphen')
  t.same(WORDLIST.filter((word) => word.includes('-')), ['drop-down', 'felt-tip', 't-shirt', 'yo-yo'], 'the four hyphenated words')
  t.equal(createHash('sha256').update(WORDLIST.join('\n')).digest('hex'), LIST_SHA256)
  t.equal(WORDLIST[0], 'abacus')
  t.equal(WORDLIST[7775], 'zoom')
  t.same([Math.min(...WORDLIST.map((w) => w.length)), Math.max(...WORDLIST.map((w) => w.length))], [3, 9], 'words of 3..9 characters')
  // No word begins another, so words run together (an empty separator) still read back one way only:
  // the entropy of a value is that of the draw
  const sorted = [...WORDLIST].sort()
  const prefixes = sorted.filter((word, i) => (sorted[i + 1] ?? '').startsWith(word))
  t.same(prefixes, [], 'prefix-free')
})

t.test('drawWordIndexes: integers in 0..7775', async (t) => {
  const indexes = drawWordIndexes(5000)
  t.equal(indexes.length, 5000)
  t.ok(indexes.every((index) => Number.isInteger(index) && index >= 0 && index < 7776))
  // 5000 uniform draws hit ~3,660 distinct words; a stuck or narrow draw hits far fewer
  t.ok(new Set(indexes).size > 3000, 'not stuck on a few values')
  t.same(drawWordIndexes(0), [])
})

/**
 * Separators the rule allows: 0..4 code points, none a letter, a digit, a control or an invisible
 * character (marks are left out altogether: one is refused only as the first code point).
 */
const FORBIDDEN = /[\p{L}\p{Nd}\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Cn}\p{M}]/u
const allowedCodePoint = fc.oneof(
  fc.constantFrom('-', ' ', '.', '_', '+', '/', '🙂', '·', '—', '\u3000', '~', '|'),
  fc.integer({ min: 0x20, max: 0x10ffff })
    .filter((code) => (code < 0xd800 || code > 0xdfff) && !FORBIDDEN.test(String.fromCodePoint(code)))
    .map((code) => String.fromCodePoint(code))
)
const allowedSeparator = fc.array(allowedCodePoint, { minLength: 0, maxLength: 4 }).map((parts) => parts.join(''))
const validParams = fc.record({
  words: fc.integer({ min: 3, max: 20 }),
  wordList: fc.constant('eff-large' as const),
  separator: fc.oneof(allowedSeparator, fc.constantFrom('-', '', '--', '-.')),
  capitalize: fc.boolean(),
  includeNumber: fc.boolean(),
  quantity: fc.integer({ min: 1, max: 5 })
})

/** Whether `value` reads back, in exactly one way, as `shape` asks. */
function readsBack (value: string, shape: PassphraseShape): boolean {
  const { first, count } = readPassphrase(value, shape, LIST)
  if (count !== 1 || first === undefined) return false
  const digits = value.match(/[0-9]/g) ?? []
  return shape.includeNumber
    ? digits.length === 1 && first.digitAfter >= 0 && first.digitAfter < shape.words
    : digits.length === 0
}

t.test('property: every passphrase reads back, in one way only, as list words with the capitals and the digit asked', async (t) => {
  fc.assert(fc.property(validParams, (params) => {
    const values = generatePassphrases(params)
    return values.length === params.quantity && values.every((value) => readsBack(value, params))
  }), { numRuns: 1000 })
  t.pass('1000 runs')
})

t.test('the reader: hyphenated words with `-`, words run together, and what it refuses', async (t) => {
  const shape = { ...DEFAULTS, words: 3 }
  t.same(readPassphrase('t-shirt-yo-yo-abacus', shape, LIST).first?.words, ['t-shirt', 'yo-yo', 'abacus'])
  t.equal(readPassphrase('t-shirt-yo-yo-abacus', shape, LIST).count, 1)
  t.same(readPassphrase('abacuszoomyo-yo', { ...shape, separator: '' }, LIST).first?.words, ['abacus', 'zoom', 'yo-yo'])
  t.same(readPassphrase('Abacus Zoom7 T-shirt', { ...shape, separator: ' ', capitalize: true, includeNumber: true }, LIST).first,
    { words: ['abacus', 'zoom', 't-shirt'], digitAfter: 1, digit: 7 })
  for (const [value, asked] of [
    ['abacus-zoom', shape], // two words for three
    ['abacus-zoom-shirt-t', shape], // `shirt-t` is no word
    ['abacus-Zoom-yo-yo', shape], // a capital not asked for
    ['Abacus-zoom-Yo-yo', { ...shape, capitalize: true }], // a capital missing
    ['abacus-zoom-yo-yo', { ...shape, includeNumber: true }], // no digit
    ['abacus1-zoom2-yo-yo', { ...shape, includeNumber: true }] // two digits
  ] as const) t.equal(readPassphrase(value, asked, LIST).count, 0, value)
})

t.test('generatePassphrases: a separator with a letter, a digit, a control or an invisible character is refused', async (t) => {
  // Also the invisible: zero-width space and joiner, a right-to-left override, a byte-order mark,
  // the line and paragraph separators, a lone surrogate, an unassigned code point, and a
  // combining acute accent first (it would merge with the word before it)
  for (const separator of ['a', 'Z', 'é', 'ж', 'ß', '中', '-x', '7', '٣', '໒', '\n', '\t', '\u0000', '\u007f', '\u0085',
    '\u200b', '-\u200d', '\u202e', '\ufeff', '\u2028', '\u2029', '\ud800', '\u0378', '\u0301', '\u0301-']) {
    const error = t.throws(() => generatePassphrases({ ...DEFAULTS, separator })) as ParameterError
    t.ok(error instanceof ParameterError, 'a ParameterError')
    // Named by code points: U+2028 raw in a test name would end the TAP line
    const name = [...separator].map((c) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`).join(' ')
    t.same(error.problems, [{ pointer: '#/separator', code: 'NOT_ALLOWED_VALUE', message: 'SEPARATOR_HAS_LETTER_OR_DIGIT' }], name)
  }
})

// The contract's formula computed here with doubles, not with src/random/entropy.ts: words × log2(7776),
// plus log2(10 × words) with includeNumber, rounded down to hundredths
function expectedBits (words: number, includeNumber: boolean): number {
  const hundredths = 100 * (words * Math.log2(7776) + (includeNumber ? Math.log2(10 * words) : 0))
  // Doubles are exact to ~1e-12 here; a value this close to a whole number of hundredths would
  // need exact arithmetic to round, and none of these is
  const distance = Math.abs(hundredths - Math.round(hundredths))
  if (distance < 1e-6) throw new Error(`words ${words}: ${hundredths} is too close to a rounding boundary`)
  return Math.floor(hundredths) / 100
}

t.test('passphraseEntropyBits: words × log2(7776), plus log2(10 × words) with includeNumber, rounded down', async (t) => {
  t.equal(expectedBits(6, false), 77.54)
  t.equal(expectedBits(6, true), 83.45)
  for (let words = 3; words <= 20; words++) {
    for (const includeNumber of [false, true]) {
      for (const rest of [DEFAULTS, { ...DEFAULTS, separator: '', capitalize: true, quantity: 50 }]) {
        t.equal(passphraseEntropyBits({ ...rest, words, includeNumber }), expectedBits(words, includeNumber), `words ${words}, includeNumber ${includeNumber}`)
      }
    }
  }
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  /** POST and GET with the same parameters: the same status, and the same body for an error. */
  async function both (t: Test, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const viaPost = await post(app, 'passphrase', params, headers)
    const viaGet = await get(app, 'passphrase', params, headers)
    t.equal(viaGet.statusCode, viaPost.statusCode, `GET and POST alike for ${JSON.stringify(params)}`)
    if (viaPost.statusCode !== 200) t.same(viaGet.json(), viaPost.json(), 'the same problem')
    else t.same(Object.keys(viaGet.json()), Object.keys(viaPost.json()), 'the same fields')
    return viaPost
  }

  async function values (t: Test, params: Record<string, unknown>): Promise<string[]> {
    const response = await both(t, params)
    t.equal(response.statusCode, 200, JSON.stringify(params))
    const body = response.json()
    t.equal(body.type, 'passphrase')
    t.equal(body.values.length, params.quantity ?? 1)
    for (const value of body.values) t.ok(readsBack(value, { ...DEFAULTS, ...params }), `${JSON.stringify(params)}: reads back`)
    return body.values
  }

  async function fails (t: Test, params: Record<string, unknown>, pointer: string, code: string): Promise<string> {
    const response = await both(t, params)
    t.equal(response.statusCode, 400, JSON.stringify(params))
    const body = response.json()
    t.equal(body.code, 'VALIDATION_FAILED')
    t.same(body.errors.map((e: { pointer: string, code: string }) => [e.pointer, e.code]), [[pointer, code]], `${JSON.stringify(params)}: ${code} at ${pointer}`)
    return body.detail
  }

  t.test('defaults: 6 lower-case words joined by -', async (t) => {
    const response = await post(app, 'passphrase', {})
    t.equal(response.statusCode, 200)
    t.equal(response.headers['cache-control'], 'no-store')
    const body = response.json()
    t.same(Object.keys(body).sort(), ['entropyBits', 'generatedAt', 'type', 'values'])
    t.equal(body.entropyBits, 77.54)
    const [value] = body.values
    t.same(readPassphrase(value, DEFAULTS, LIST).first?.words.length, 6)
    t.match(value, /^[a-z-]+$/)
    // An empty POST body and a GET without X-Data are the defaults too
    const empty = await app.inject({ method: 'POST', url: '/api/generate/passphrase' })
    t.equal(empty.statusCode, 200)
    t.ok(readsBack(empty.json().values[0], DEFAULTS))
    const bare = await app.inject({ method: 'GET', url: '/api/generate/passphrase' })
    t.ok(readsBack(bare.json().values[0], DEFAULTS))
  })

  t.test('capitalize: every word starts with a capital', async (t) => {
    for (const value of await values(t, { capitalize: true, separator: ' ', quantity: 20 })) {
      t.ok(value.split(' ').every((word) => /^[A-Z][a-z]*(-[a-z]+)?$/.test(word)), value)
    }
  })

  t.test('includeNumber: exactly one digit, at the end of one word', async (t) => {
    for (const value of await values(t, { includeNumber: true, separator: ' ', quantity: 20 })) {
      t.equal(value.match(/[0-9]/g)?.length, 1, value)
      const words = value.split(' ')
      t.equal(words.filter((word) => /^[a-z-]+[0-9]$/.test(word)).length, 1, 'one word ends in the digit')
      t.ok(words.every((word) => LIST.has(word.replace(/[0-9]$/, ''))), 'the rest are list words')
    }
  })

  t.test('an empty separator: the words run together, and still read back', async (t) => {
    for (const value of await values(t, { separator: '', quantity: 10 })) t.match(value, /^[a-z-]+$/)
    await values(t, { separator: '', capitalize: true, includeNumber: true, words: 20, quantity: 10 })
  })

  t.test('entropyBits in the answer', async (t) => {
    for (const words of [3, 6, 20]) {
      for (const includeNumber of [false, true]) {
        const response = await both(t, { words, includeNumber })
        t.equal(response.json().entropyBits, expectedBits(words, includeNumber), `words ${words}, includeNumber ${includeNumber}`)
      }
    }
  })

  t.test('text/plain: one passphrase per line', async (t) => {
    const response = await post(app, 'passphrase', { quantity: 3, separator: ' ' }, { accept: 'text/plain' })
    t.equal(response.headers['content-type'], 'text/plain; charset=utf-8')
    const lines = response.body.split('\n')
    t.equal(lines.length, 4)
    t.equal(lines[3], '')
    for (const line of lines.slice(0, 3)) t.ok(readsBack(line, { ...DEFAULTS, separator: ' ' }), line)
  })

  t.test('words: integer 3..20', async (t) => {
    for (const words of [3, 20]) {
      const [value] = await values(t, { words })
      t.equal(readPassphrase(value as string, { ...DEFAULTS, words }, LIST).first?.words.length, words)
    }
    t.equal(await fails(t, { words: 2 }, '#/words', 'OUT_OF_RANGE'), '“words” must be between 3 and 20.')
    await fails(t, { words: 21 }, '#/words', 'OUT_OF_RANGE')
    for (const wrong of ['6', 6.5, true, null, [6], {}]) await fails(t, { words: wrong }, '#/words', 'TYPE')
  })

  t.test('separator: string of 0..4 code points', async (t) => {
    for (const separator of ['', ' ', '-', '.', '_', '+', '🙂', '🙂🙂🙂🙂', ' :: ', '----', '\u3000', '·']) await values(t, { separator, quantity: 3 })
    t.equal(await fails(t, { separator: '-----' }, '#/separator', 'TOO_LONG'), '“separator” must have at most 4 character(s).')
    await fails(t, { separator: '🙂🙂🙂🙂🙂' }, '#/separator', 'TOO_LONG')
    // Too long is reported as such even when the separator also has a letter
    await fails(t, { separator: 'abcde' }, '#/separator', 'TOO_LONG')
    for (const wrong of [1, true, null, ['-'], {}]) await fails(t, { separator: wrong }, '#/separator', 'TYPE')
  })

  t.test('separator: letters, digits and control characters are NOT_ALLOWED_VALUE', async (t) => {
    const detail = '“separator” must not contain letters, digits, control or invisible characters, nor start with a combining mark.'
    for (const separator of ['a', 'X', 'é', 'ж', 'ß', '中', ' a ', '-é-', '0', '9', '٣', '\n', '\t', '\u0000', '\u001b', '\u007f', '-\n']) {
      t.equal(await fails(t, { separator }, '#/separator', 'NOT_ALLOWED_VALUE'), detail, JSON.stringify(separator))
    }
  })

  t.test('the separator error in every language', async (t) => {
    const english = await fails(t, { separator: 'ж' }, '#/separator', 'NOT_ALLOWED_VALUE')
    for (const language of ['en', 'ru', 'de', 'fr', 'es']) {
      const response = await both(t, { separator: 'ж' }, { 'x-language': language })
      t.equal(response.statusCode, 400)
      t.equal(response.headers['content-language'], language)
      const body = response.json()
      t.same(body.errors.map((e: { pointer: string, code: string }) => [e.pointer, e.code]), [['#/separator', 'NOT_ALLOWED_VALUE']])
      const { detail } = body.errors[0]
      t.equal(body.detail, detail, 'detail repeats the field error')
      t.ok(typeof detail === 'string' && detail.length > 0, `${language}: ${detail}`)
      t.ok(detail.includes('separator'), `${language}: names the field`)
      if (language === 'en') t.equal(detail, english)
      else t.not(detail, english, `${language}: not the English text`)
    }
  })

  t.test('capitalize and includeNumber: booleans', async (t) => {
    for (const name of ['capitalize', 'includeNumber']) {
      await values(t, { [name]: true })
      await values(t, { [name]: false })
      t.equal(await fails(t, { [name]: 'true' }, `#/${name}`, 'TYPE'), `“${name}” must be a boolean (true or false).`)
      for (const wrong of [1, 0, 'false', null, {}, [true]]) await fails(t, { [name]: wrong }, `#/${name}`, 'TYPE')
    }
  })

  t.test('quantity: 1..50', async (t) => {
    await values(t, { quantity: 1 })
    await values(t, { quantity: 50, words: 20, includeNumber: true, capitalize: true })
    await fails(t, { quantity: 0 }, '#/quantity', 'OUT_OF_RANGE')
    await fails(t, { quantity: 51 }, '#/quantity', 'OUT_OF_RANGE')
    for (const wrong of ['1', 1.5, null]) await fails(t, { quantity: wrong }, '#/quantity', 'TYPE')
  })

  t.test('an unknown field is refused', async (t) => {
    await fails(t, { word: 6 }, '#/word', 'UNKNOWN_FIELD')
  })
})
