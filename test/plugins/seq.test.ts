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
