import t from 'tap'
import fc from 'fast-check'
import { entropyToMnemonic } from '@scure/bip39'
import { PHRASE_WORDLISTS, SOURCE_WORDLISTS, generateMnemonic, mnemonicEncoder, mnemonicOf } from '../../plugins/phrase.js'
import { PHRASE_LANGUAGES } from '../../schemas/phrase.js'

// Every length BIP-39 allows: 12, 15, 18, 21 and 24 words
const ENTROPY_LENGTHS = [16, 20, 24, 28, 32] as const
const entropyArbitrary = fc.constantFrom(...ENTROPY_LENGTHS).chain((length) => fc.uint8Array({ minLength: length, maxLength: length }))

t.test('mnemonicOf: @scure/bip39\'s entropyToMnemonic for any entropy, every list (words and joiner)', async (t) => {
  for (const language of PHRASE_LANGUAGES) {
    // From the library's list, not the table's copy, so a change to the copy would show
    const source = [...SOURCE_WORDLISTS[language]]
    fc.assert(fc.property(entropyArbitrary, (entropy) => {
      const expected = entropyToMnemonic(entropy, source)
      return mnemonicOf(entropy, language) === expected &&
        mnemonicEncoder(PHRASE_WORDLISTS[language].words)(entropy).join(PHRASE_WORDLISTS[language].joiner) === expected
    }), { numRuns: 500 })
    t.pass(`${language}: 500 random entropies of 16..32 bytes`)
  }
})

t.test('mnemonicOf: the edges of every length (all zeros, all ones, each checksum bit)', async (t) => {
  for (const language of PHRASE_LANGUAGES) {
    for (const length of ENTROPY_LENGTHS) {
      for (const fill of [0x00, 0xff, 0x80, 0x01, 0x5a]) {
        const entropy = new Uint8Array(length).fill(fill)
        t.equal(mnemonicOf(entropy, language), entropyToMnemonic(entropy, [...SOURCE_WORDLISTS[language]]), `${language}, ${length} bytes of 0x${fill.toString(16)}`)
      }
    }
  }
  // BIP-39's first test vector (English, 16 zero bytes)
  t.equal(mnemonicOf(new Uint8Array(16)), 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')
})

t.test('mnemonicOf: reads the entropy without changing it; refuses what BIP-39 does not allow', async (t) => {
  const entropy = Uint8Array.from({ length: 32 }, (_, i) => i * 7)
  const copy = Uint8Array.from(entropy)
  mnemonicOf(entropy, 'japanese')
  t.same(entropy, copy, 'the caller\'s bytes are the caller\'s to wipe')
  for (const length of [0, 15, 17, 31, 33, 36]) {
    t.throws(() => mnemonicOf(new Uint8Array(length)), RangeError, `${length} bytes`)
  }
  t.throws(() => mnemonicEncoder(PHRASE_WORDLISTS.english.words.slice(1)), { message: 'phrase: a BIP-39 list has 2048 words' })
})

t.test('generateMnemonic: the drawn entropy is zeroed once encoded', async (t) => {
  const drawn: Buffer[] = []
  const { generateMnemonic: drawing } = await t.mockImport<typeof import('../../plugins/phrase.js')>('../../plugins/phrase.js', {
    '../../src/random/csprng.js': {
      ...(await import('../../src/random/csprng.js')),
      randomBytes: (n: number) => {
        const bytes = Buffer.alloc(n, 0xa5)
        drawn.push(bytes)
        return bytes
      }
    }
  })
  const words = drawing(24, 'english')
  t.equal(drawn.length, 1, 'one draw')
  t.same(words.join(' '), entropyToMnemonic(Buffer.alloc(32, 0xa5), [...SOURCE_WORDLISTS.english]), 'the words of the bytes drawn')
  t.ok((drawn[0] as Buffer).every((byte) => byte === 0), 'all zeros after use')
  t.equal(generateMnemonic(12, 'korean').length, 12)
})
