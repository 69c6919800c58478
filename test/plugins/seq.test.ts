import t from 'tap'
import fc from 'fast-check'
import { generateSequences } from '../../plugins/seq.js'
import { build, get, post } from '../helper.js'

const SHAPES = {
  hex: (n: number) => new RegExp(`^[0-9a-f]{${2 * n}}$`),
  // Standard alphabet, padded to a multiple of 4
  base64: (n: number) => new RegExp(`^[A-Za-z0-9+/]{${4 * Math.floor(n / 3)}}([A-Za-z0-9+/]{${n % 3 === 0 ? 0 : n % 3 + 1}})${'='.repeat((3 - n % 3) % 3)}$`),
  // RFC 4648 §5 alphabet, no padding
  base64url: (n: number) => new RegExp(`^[A-Za-z0-9_-]{${Math.ceil(4 * n / 3)}}$`)
} as const

function decodesTo (value: string, encoding: keyof typeof SHAPES, byteLength: number): boolean {
  const bytes = Buffer.from(value, encoding)
  return bytes.length === byteLength && bytes.toString(encoding) === value && SHAPES[encoding](byteLength).test(value)
}

t.test('generateSequences: property: each encoding decodes back to byteLength bytes', async (t) => {
  fc.assert(fc.property(
    fc.constantFrom('hex', 'base64', 'base64url'),
    fc.integer({ min: 2, max: 256 }),
    fc.integer({ min: 1, max: 50 }),
    (encoding, byteLength, quantity) => {
      const values = generateSequences({ encoding, byteLength, quantity })
      return values.length === quantity && values.every((value) => decodesTo(value, encoding, byteLength))
    }
  ), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: 32 bytes as 64 lowercase hex characters', async (t) => {
    const response = await post(app, 'seq', {})
    t.match(response.json().values[0], /^[0-9a-f]{64}$/)
  })

  t.test('every encoding at 2, 3, 4, 5 and 256 bytes', async (t) => {
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      for (const byteLength of [2, 3, 4, 5, 256]) {
        const response = await get(app, 'seq', { encoding, byteLength, quantity: 3 })
        for (const value of response.json().values) t.ok(decodesTo(value, encoding, byteLength), `${encoding} ${byteLength}: ${value.length} chars`)
      }
    }
    // Padding and alphabet by example
    const padded = (await post(app, 'seq', { encoding: 'base64', byteLength: 2 })).json().values[0]
    t.match(padded, /^[A-Za-z0-9+/]{3}=$/)
    const unpadded = (await post(app, 'seq', { encoding: 'base64url', byteLength: 2 })).json().values[0]
    t.match(unpadded, /^[A-Za-z0-9_-]{3}$/)
  })
})

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/**
 * An RFC 4648 §6 decoder written here, independent of @scure/base: 5 bits per character,
 * most significant first; the bits left over at the end must be zero (canonical encoding).
 */
function decodeBase32 (text: string): Buffer | undefined {
  const bytes: number[] = []
  let buffer = 0
  let bits = 0
  for (const character of text) {
    const value = BASE32_ALPHABET.indexOf(character)
    if (value < 0) return undefined
    buffer = (buffer << 5 | value) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push(buffer >> bits & 0xff)
    }
  }
  if (bits >= 5 || (buffer & ((1 << bits) - 1)) !== 0) return undefined
  return Buffer.from(bytes)
}

t.test('base32: unpadded upper-case RFC 4648 §6, decoding back to exactly byteLength bytes', async (t) => {
  // RFC 4648 §10's test vectors, unpadded, through the decoder above (so the decoder is right too)
  for (const [text, encoded] of [['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'], ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']]) {
    t.equal(decodeBase32(encoded as string)?.toString(), text)
  }
  fc.assert(fc.property(fc.integer({ min: 2, max: 256 }), fc.integer({ min: 1, max: 50 }), (byteLength, quantity) => {
    const values = generateSequences({ encoding: 'base32', byteLength, quantity })
    return values.length === quantity && values.every((value) =>
      /^[A-Z2-7]+$/.test(value) && value.length === Math.ceil(byteLength * 8 / 5) && decodeBase32(value)?.length === byteLength)
  }), { numRuns: 300 })
  const app = await build(t)
  for (const send of [post, get]) {
    const response = await send(app, 'seq', { encoding: 'base32', byteLength: 20, quantity: 5 })
    t.equal(response.json().entropyBits, 160)
    for (const value of response.json().values) t.equal(decodeBase32(value)?.length, 20, `${value}: 20 bytes`)
  }
})
