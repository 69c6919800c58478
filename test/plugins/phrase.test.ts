import t, { type Test } from 'tap'
import fc from 'fast-check'
import { mnemonicToEntropy, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { generateMnemonic, generatePhrases } from '../../plugins/phrase.js'
import type { ParameterError } from '../../src/errors.js'
import { build, get, post } from '../helper.js'

const WORD_COUNTS = [12, 15, 18, 21, 24] as const

function checkPhrase (t: Test, phrase: string, separator: string, words: number): void {
  const list = phrase.split(separator)
  t.equal(list.length, words, `${words} words`)
  t.ok(validateMnemonic(list.join(' '), wordlist), 'a valid BIP-39 mnemonic')
}

t.test('generateMnemonic: valid, with words × 32 / 3 bits of entropy', async (t) => {
  for (const words of WORD_COUNTS) {
    const list = generateMnemonic(words)
    t.equal(list.length, words)
    t.ok(validateMnemonic(list.join(' '), wordlist))
    t.equal(mnemonicToEntropy(list.join(' '), wordlist).length, words * 4 / 3, 'entropy bytes')
  }
})

t.test('generatePhrases: property: valid mnemonics split back on any allowed separator', async (t) => {
  // Separators of 1..4 code points without a-z, e.g. '-', ' / ', '😀', '。'
  const separator = fc.array(fc.oneof(fc.constantFrom(' ', '-', '_', '.', '/', '😀', '。', 'Ä', 'Z'), fc.integer({ min: 0x21, max: 0x60 }).map((c) => String.fromCodePoint(c))), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join(''))
  fc.assert(fc.property(fc.constantFrom(...WORD_COUNTS), separator, fc.integer({ min: 1, max: 5 }), (words, sep, quantity) => {
    const values = generatePhrases({ words, separator: sep, quantity })
    return values.length === quantity &&
      values.every((value) => {
        const list = value.split(sep)
        return list.length === words && validateMnemonic(list.join(' '), wordlist)
      })
  }), { numRuns: 200 })
  t.pass('200 runs')
})

t.test('generatePhrases: a separator with a-z is refused', async (t) => {
  for (const separator of ['a', '-x-', 'z', ' and']) {
    const error = t.throws(() => generatePhrases({ words: 12, separator, quantity: 1 }))
    t.same((error as ParameterError).problems, [{ pointer: '#/separator', code: 'NOT_ALLOWED_VALUE', message: 'SEPARATOR_HAS_LETTER' }])
  }
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: 12 words joined by one space', async (t) => {
    const response = await post(app, 'phrase', {})
    checkPhrase(t, response.json().values[0], ' ', 12)
  })

  t.test('every word count', async (t) => {
    for (const words of WORD_COUNTS) {
      const response = await get(app, 'phrase', { words, separator: '-', quantity: 3 })
      for (const value of response.json().values) checkPhrase(t, value, '-', words)
    }
  })

  t.test('separators of 1..4 code points (an emoji is one)', async (t) => {
    for (const separator of ['😀', '😀😀😀😀', ' | ', '::', '\t', 'ZZ']) {
      const response = await post(app, 'phrase', { separator, words: 15 })
      t.equal(response.statusCode, 200, JSON.stringify(separator))
      checkPhrase(t, response.json().values[0], separator, 15)
    }
  })

  t.test('separator containing a-z: NOT_ALLOWED_VALUE', async (t) => {
    for (const separator of ['a', '-x-', 'Ab']) {
      const response = await get(app, 'phrase', { separator })
      t.equal(response.statusCode, 400)
      const detail = '“separator” must not contain the letters a–z: they occur in the words, so the phrase could not be split back.'
      t.same(response.json().errors, [{ pointer: '#/separator', code: 'NOT_ALLOWED_VALUE', detail }])
    }
  })

  t.test('separator of 0 or 5 code points', async (t) => {
    for (const [separator, code] of [['', 'TOO_SHORT'], ['😀😀😀😀😀', 'TOO_LONG'], ['-----', 'TOO_LONG']]) {
      const response = await post(app, 'phrase', { separator })
      t.equal(response.statusCode, 400)
      t.same(response.json().errors.map((e: any) => [e.pointer, e.code]), [['#/separator', code]])
    }
  })
})
