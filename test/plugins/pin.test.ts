// CONTRACT §2 pin: the weak PINs counted by definition, every PIN of length 4..7 enumerated, 8..12
// by building the weak PINs one kind at a time; values, entropyBits and the parameters over HTTP.
import t from 'tap'
import fc from 'fast-check'
import { allowedPinCount, generatePins, isWeakPin, pinEntropyBits, weakPinCount } from '../../plugins/pin.js'
import { build, get, post } from '../helper.js'
import { isFloorOf } from '../exact-entropy.js'

/** The contract's definition, written out here on the digits: a repeated shorter block, or a straight run. */
function weakByDefinition (digits: number[]): boolean {
  const length = digits.length
  for (let block = 1; block < length; block++) {
    if (length % block === 0 && digits.every((digit, i) => digit === digits[i % block])) return true
  }
  const up = digits.every((digit, i) => i === 0 || digit === (digits[i - 1] as number) + 1)
  const down = digits.every((digit, i) => i === 0 || digit === (digits[i - 1] as number) - 1)
  return up || down
}

/** Walks all 10^length PINs and counts the weak ones by definition. */
function enumeratedWeak (length: number): bigint {
  const digits = new Array<number>(length).fill(0)
  let weak = 0
  for (let n = 0; n < 10 ** length; n++) {
    // Odometer: the next PIN from the last, least significant digit last
    if (n > 0) {
      let i = length - 1
      while (digits[i] === 9) digits[i--] = 0
      digits[i] = (digits[i] as number) + 1
    }
    if (weakByDefinition(digits)) weak++
  }
  return BigInt(weak)
}

/**
 * A second method for the longer PINs: every weak PIN built, one kind at a time, and the distinct
 * ones counted: each block of each proper divisor length repeated, and each run up and down.
 */
function constructedWeak (length: number): bigint {
  const known = CONSTRUCTED.get(length)
  if (known !== undefined) return known
  const weak = new Set<string>()
  for (let block = 1; block < length; block++) {
    if (length % block !== 0) continue
    for (let n = 0; n < 10 ** block; n++) weak.add(String(n).padStart(block, '0').repeat(length / block))
  }
  for (let start = 0; start + length <= 10; start++) {
    const run = Array.from({ length }, (_, i) => start + i)
    weak.add(run.join(''))
    weak.add(run.map((digit) => 9 - digit).join(''))
  }
  CONSTRUCTED.set(length, BigInt(weak.size))
  return BigInt(weak.size)
}
const CONSTRUCTED = new Map<number, bigint>()

t.test('the weak PINs of length 4..7, every PIN enumerated', async (t) => {
  for (let length = 4; length <= 7; length++) {
    const weak = enumeratedWeak(length)
    t.equal(weakPinCount(length), weak, `length ${length}: ${weak} weak of ${10 ** length}`)
  }
  t.equal(allowedPinCount({ length: 4, avoidWeak: true }), 9886n, 'CONTRACT §2: 10,000 - 114')
})

t.test('the weak PINs of length 8..12, built kind by kind', async (t) => {
  for (let length = 8; length <= 12; length++) {
    const weak = constructedWeak(length)
    t.equal(weakPinCount(length), weak, `length ${length}: ${weak} weak`)
  }
  // The two methods agree where both run
  for (let length = 4; length <= 6; length++) t.equal(constructedWeak(length), enumeratedWeak(length), `length ${length}: both methods`)
})

t.test('isWeakPin: the contract\'s examples, and the definition on random PINs', async (t) => {
  for (const pin of ['1111', '1212', '123123', '000000', '0123', '3456789', '9876', '43210', '0123456789', '9876543210', '121212121212', '1234512345']) t.ok(isWeakPin(pin), `${pin} is weak`)
  for (const pin of ['8901', '1213', '12312', '0124', '9875', '1122', '0909090', '01234567890', '98765432109', '1234123412']) t.notOk(isWeakPin(pin), `${pin} is not weak`)
  fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 4, maxLength: 12 }), (digits) =>
    isWeakPin(digits.join('')) === weakByDefinition(digits)), { numRuns: 5000 })
  // Weak PINs are rare among random ones: give the property the weak ones too
  fc.assert(fc.property(fc.integer({ min: 4, max: 12 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 6 }), (length, first, block) => {
    const digits = Array.from({ length }, (_, i) => (first + (i % block)) % 10)
    return isWeakPin(digits.join('')) === weakByDefinition(digits)
  }), { numRuns: 2000 })
})

t.test('generatePins: length digits, no weak PIN with avoidWeak, weak ones without', async (t) => {
  for (let length = 4; length <= 12; length++) {
    const values = generatePins({ length, avoidWeak: true, quantity: 50 })
    t.equal(values.length, 50)
    t.ok(values.every((value) => new RegExp(`^[0-9]{${length}}$`).test(value) && !weakByDefinition([...value].map(Number))), `length ${length}: digits, none weak`)
  }
  // Without avoidWeak every PIN can come: 0000..9999 by 200,000 draws reaches the weak ones too
  const seen = new Set<string>()
  for (let i = 0; i < 4000; i++) for (const value of generatePins({ length: 4, avoidWeak: false, quantity: 50 })) seen.add(value)
  t.ok([...seen].some((value) => isWeakPin(value)), 'weak PINs drawn without avoidWeak')
  t.ok(seen.size > 9990, `${seen.size} distinct four-digit PINs`)
  t.ok([...seen].some((value) => value.startsWith('0')), 'leading zeros kept')
})

t.test('pinEntropyBits: log2 of the allowed count, rounded down, as the definition says', async (t) => {
  for (let length = 4; length <= 12; length++) {
    for (const avoidWeak of [true, false]) {
      const bits = pinEntropyBits({ length, avoidWeak })
      const count = avoidWeak ? 10n ** BigInt(length) - constructedWeak(length) : 10n ** BigInt(length)
      t.ok(isFloorOf(count, bits), `length ${length}, avoidWeak ${avoidWeak}: ${bits} = floor(100 log2 ${count}) / 100`)
    }
  }
  t.equal(pinEntropyBits({ length: 4, avoidWeak: true }), 13.27, 'log2(9886) = 13.2712')
  t.equal(pinEntropyBits({ length: 6, avoidWeak: false }), 19.93, 'log2(10^6) = 19.9315')
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: one six-digit PIN, not weak', async (t) => {
    const response = await post(app, 'pin', {})
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.same(Object.keys(body).sort(), ['entropyBits', 'generatedAt', 'type', 'values'])
    t.equal(body.type, 'pin')
    t.match(body.values[0], /^[0-9]{6}$/)
    t.notOk(isWeakPin(body.values[0]))
    t.equal(body.entropyBits, pinEntropyBits({ length: 6, avoidWeak: true }))
    const bare = await app.inject({ method: 'GET', url: '/api/generate/pin' })
    t.match(bare.json().values[0], /^[0-9]{6}$/)
  })

  t.test('GET and POST alike', async (t) => {
    const params = { length: 12, avoidWeak: false, quantity: 50 }
    for (const response of [await post(app, 'pin', params), await get(app, 'pin', params)]) {
      t.equal(response.statusCode, 200)
      t.ok(response.json().values.every((value: string) => /^[0-9]{12}$/.test(value)))
      t.equal(response.json().entropyBits, 39.86)
    }
  })
})
