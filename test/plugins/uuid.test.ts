import t, { type Test } from 'tap'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { validate, version } from 'uuid'
import { decodeTime, encodeTime, isValid, ulidToUUID } from 'ulid'
import { COMPACT_ALPHABETS, generateUuids, strictlyAscending, uuidEntropyBits, uuidV7Of } from '../../plugins/uuid.js'
import { UUID_FORMATS } from '../../schemas/uuid.js'
import { build, get, post } from '../helper.js'
import { CROCKFORD, crockfordOfBytes, ulidParts, uuidBits, v7Parts } from '../identifier-decoders.js'

// RFC 9562: version nibble 4 or 7, variant bits 10xx (8, 9, a or b), lowercase
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
// 26 Crockford digits; the first carries only 3 bits (2^128 - 1 is 7ZZZ...)
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/
const COMPACT = { numeric: '0-9', alpha: 'A-Za-z', alphanumeric: 'A-Za-z0-9', urlsafe: 'A-Za-z0-9_-' } as const
const TIME_MAX = 2 ** 48 - 1

function shapeOf (format: typeof UUID_FORMATS[number], length: number): RegExp {
  if (format === 'standard') return UUID_V4
  if (format === 'v7') return UUID_V7
  if (format === 'ulid') return ULID
  return new RegExp(`^[${COMPACT[format]}]{${length}}$`)
}

function isStrictlyAscending (values: string[]): boolean {
  return values.every((value, i) => i === 0 || (values[i - 1] as string) < value)
}

t.test('formats and compact alphabets', async (t) => {
  t.same(UUID_FORMATS, ['standard', 'v7', 'ulid', 'numeric', 'alpha', 'alphanumeric', 'urlsafe'], 'the contract\'s order')
  t.equal(COMPACT_ALPHABETS.numeric, '0123456789')
  t.equal(COMPACT_ALPHABETS.alpha, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
  t.equal(COMPACT_ALPHABETS.alphanumeric, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')
  t.equal(COMPACT_ALPHABETS.urlsafe, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_')
  // nanoid's urlAlphabet, as that package spells it: the same 64 characters
  const nanoid = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict'
  t.same([...COMPACT_ALPHABETS.urlsafe].sort(), [...nanoid].sort(), 'nanoid\'s 64 characters')
})

t.test('generateUuids: property: every format\'s shape, length and quantity', async (t) => {
  fc.assert(fc.property(
    fc.constantFrom(...UUID_FORMATS),
    fc.integer({ min: 2, max: 256 }),
    fc.integer({ min: 1, max: 50 }),
    (format, length, quantity) => {
      const values = generateUuids({ format, length, quantity })
      const shape = shapeOf(format, length)
      return values.length === quantity && values.every((value) => shape.test(value))
    }
  ), { numRuns: 400 })
  t.pass('400 runs')
})

t.test('strictlyAscending: sorts, and redraws the whole set when two values are equal', async (t) => {
  const draws = [['b', 'a', 'b'], ['c', 'a', 'b']]
  let calls = 0
  t.same(strictlyAscending(() => draws[calls++] as string[]), ['a', 'b', 'c'])
  t.equal(calls, 2, 'the draw with a repeated value was thrown away whole')
})

t.test('v7 layout', async (t) => {
  t.test('RFC 9562 appendix A.6 test vector', async (t) => {
    // 017F22E2-79B0-7CC3-98C4-DC0C0C07398F: time 0x017F22E279B0, rand_a 0xCC3, rand_b 0x18C4DC0C0C07398F.
    // Its 74 random bits, rand_a then rand_b, are seq (32 bits) ‖ low 2 bits of byte 10 ‖ bytes 11..15.
    const random = (0xCC3n << 62n) | 0x18C4DC0C0C07398Fn
    const bytes = Buffer.alloc(16)
    bytes.writeUInt32BE(Number(random >> 42n), 6)
    bytes[10] = Number((random >> 40n) & 3n)
    bytes.writeUIntBE(Number(random & 0xFFFFFFFFFFn), 11, 5)
    t.equal(uuidV7Of(bytes, 0, 0x017F22E279B0), '017f22e2-79b0-7cc3-98c4-dc0c0c07398f')
  })

  t.test('property: the 74 random bits are exactly the input\'s bytes 6..9, low 2 bits of 10, 11..15', async (t) => {
    fc.assert(fc.property(
      fc.uint8Array({ minLength: 20, maxLength: 20 }),
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 0, max: TIME_MAX }),
      (array, start, msecs) => {
        const bytes = Buffer.from(array)
        const uuid = uuidV7Of(bytes, start, msecs)
        const expected = bytes.subarray(start + 6, start + 10).reduce((bits, byte) => bits + byte.toString(2).padStart(8, '0'), '') +
          ((bytes[start + 10] as number) & 3).toString(2).padStart(2, '0') +
          [...bytes.subarray(start + 11, start + 16)].map((byte) => byte.toString(2).padStart(8, '0')).join('')
        const parts = v7Parts(uuid)
        return validate(uuid) && version(uuid) === 7 && parts.time === msecs && parts.version === 7 &&
          parts.variant === '10' && parts.random === expected
      }
    ), { numRuns: 2000 })
    t.pass('2000 runs: every one of the 74 bits comes from the random bytes, none from a counter or a constant')
  })

  t.test('each input bit moves exactly one output bit (unused: bytes 0..5, top 6 bits of byte 10)', async (t) => {
    const base = Buffer.alloc(16)
    const reference = uuidBits(uuidV7Of(base, 0, 0))
    const reached = new Set<number>()
    let unused = 0
    for (let bit = 0; bit < 128; bit++) {
      const flipped = Buffer.from(base)
      flipped[bit >> 3] = (flipped[bit >> 3] as number) ^ (0x80 >> (bit & 7))
      const bits = uuidBits(uuidV7Of(flipped, 0, 0))
      const moved = [...bits].flatMap((b, i) => (b === reference[i] ? [] : [i]))
      if (moved.length === 0) unused++
      else if (moved.length === 1) reached.add(moved[0] as number)
      else t.fail(`input bit ${bit} moved ${moved.length} output bits`)
    }
    const randomPositions = [...Array(128).keys()].filter((i) => (i >= 52 && i < 64) || i >= 66)
    t.same([...reached].sort((a, b) => a - b), randomPositions, 'the 74 random positions, each reached once')
    t.equal(unused, 54, '48 + 6 input bits unused')
  })

  t.test('time: the 48 bits are `now`, from 0 to 2^48 - 1', async (t) => {
    for (const now of [0, 1, 0x017F22E279B0, TIME_MAX]) {
      const values = generateUuids({ format: 'v7', length: 32, quantity: 3 }, now)
      for (const value of values) t.equal(value.slice(0, 13).replace('-', ''), now.toString(16).padStart(12, '0'), `${now}`)
    }
  })
})

t.test('ulid layout', async (t) => {
  t.test('known vectors of the time part', async (t) => {
    const at = (now: number) => generateUuids({ format: 'ulid', length: 32, quantity: 1 }, now)[0] as string
    t.equal(at(0).slice(0, 10), '0000000000', 'time 0')
    t.equal(at(1).slice(0, 10), '0000000001', 'time 1')
    t.equal(at(31).slice(0, 10), '000000000Z', 'time 31: one full digit')
    t.equal(at(32).slice(0, 10), '0000000010', 'time 32: carries into the second digit')
    t.equal(at(2 ** 40 - 1).slice(0, 10), '00ZZZZZZZZ', 'the low 40 bits: 8 full digits')
    t.equal(at(2 ** 40).slice(0, 10), '0100000000', 'bit 40: the lowest bit of the second digit')
    t.equal(at(2 ** 45).slice(0, 10), '1000000000', 'bit 45: the lowest bit of the first digit')
    t.equal(at(2 ** 47).slice(0, 10), '4000000000', 'bit 47: the top bit of 48, bit 2 of the first digit')
    t.equal(at(TIME_MAX).slice(0, 10), '7ZZZZZZZZZ', 'time 2^48 - 1')
    // The ulid package's README example: 01ARYZ6S41TSV4RRFFQ69G5FAV was made at 1469918176385
    t.equal(at(1469918176385).slice(0, 10), '01ARYZ6S41')
  })

  t.test('property: the time part is what the ulid package encodes and decodes', async (t) => {
    fc.assert(fc.property(fc.integer({ min: 0, max: TIME_MAX }), (now) => {
      const [value] = generateUuids({ format: 'ulid', length: 32, quantity: 1 }, now) as [string]
      return value.slice(0, 10) === encodeTime(now, 10) && decodeTime(value) === now && ulidParts(value).time === now
    }), { numRuns: 2000 })
    t.pass('2000 runs')
  })
})

t.test('entropyBits of every format', async (t) => {
  // Independent figures: fixed bits subtracted from 128; n characters of a k-letter alphabet are
  // n·log2(k) bits, rounded down to hundredths
  const expected = (format: typeof UUID_FORMATS[number], length: number): number => {
    switch (format) {
      case 'standard': return 128 - 4 - 2
      case 'v7': return 128 - 48 - 4 - 2
      case 'ulid': return 128 - 48
      case 'urlsafe': return length * 6
      default: {
        const exact = length * Math.log2({ numeric: 10, alpha: 52, alphanumeric: 62 }[format])
        // Far enough from a multiple of 0.01 for double rounding not to matter
        const hundredths = exact * 100
        if (Math.abs(hundredths - Math.round(hundredths)) < 1e-6) throw new Error(`too close to call: ${format} ${length}`)
        return Math.floor(hundredths) / 100
      }
    }
  }
  for (const format of UUID_FORMATS) {
    for (const length of [2, 21, 32, 256]) {
      t.equal(uuidEntropyBits({ format, length, quantity: 1 }), expected(format, length), `${format}, length ${length}`)
    }
  }
  t.equal(uuidEntropyBits({ format: 'numeric', length: 32, quantity: 1 }), 106.3)
  t.equal(uuidEntropyBits({ format: 'urlsafe', length: 21, quantity: 1 }), 126, 'nanoid\'s default size')
})

/** POST and GET `params`; both answers, parsed, with the clock read just before and after each. */
async function both (app: FastifyInstance, params: Record<string, unknown>) {
  const answers = []
  for (const send of [post, get]) {
    const before = Date.now()
    const response = await send(app, 'uuid', params)
    const after = Date.now()
    answers.push({ method: send === post ? 'POST' : 'GET', response, body: response.json(), before, after })
  }
  return answers
}

/** Every time-ordered value: made inside the request's window, strictly ascending, and no later than generatedAt. */
function checkTimeOrdered (t: Test, label: string, body: any, before: number, after: number, timeOf: (value: string) => number): void {
  const values = body.values as string[]
  t.ok(isStrictlyAscending(values), `${label}: strictly ascending`)
  const times = values.map(timeOf)
  t.ok(times.every((time) => time >= before && time <= after), `${label}: times in [${before}, ${after}]: ${[...new Set(times)].join(', ')}`)
  t.ok(times.every((time) => time <= Date.parse(body.generatedAt)), `${label}: no later than generatedAt`)
}

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: one UUID v4', async (t) => {
    const response = await post(app, 'uuid', {})
    t.match(response.json().values[0], UUID_V4)
    t.equal(response.json().entropyBits, 122)
  })

  t.test('standard ignores length', async (t) => {
    for (const length of [2, 256]) {
      const response = await get(app, 'uuid', { format: 'standard', length, quantity: 50 })
      const values = response.json().values
      for (const value of values) t.match(value, UUID_V4)
      t.equal(new Set(values).size, 50, 'distinct')
    }
  })

  t.test('v7, 50 per response (POST and GET): RFC 9562 version 7, time, order', async (t) => {
    for (const length of [32, 2, 256]) {
      for (const { method, response, body, before, after } of await both(app, { format: 'v7', length, quantity: 50 })) {
        const label = `${method} length ${length}`
        t.equal(response.statusCode, 200, label)
        t.equal(body.entropyBits, 74)
        t.equal(body.values.length, 50)
        for (const value of body.values as string[]) {
          const parts = v7Parts(value)
          if (!(validate(value) && version(value) === 7 && UUID_V7.test(value) && value === value.toLowerCase() &&
            parts.version === 7 && parts.variant === '10')) t.fail(`${label}: not a lowercase v7 UUID: ${value}`)
        }
        t.pass(`${label}: uuid's validate and version accept all 50 as version 7; variant 10; lower case`)
        checkTimeOrdered(t, label, body, before, after, (value) => v7Parts(value).time)
      }
    }
  })

  t.test('ulid, 50 per response (POST and GET): alphabet, time, order, random part', async (t) => {
    for (const length of [32, 2, 256]) {
      for (const { method, response, body, before, after } of await both(app, { format: 'ulid', length, quantity: 50 })) {
        const label = `${method} length ${length}`
        t.equal(response.statusCode, 200, label)
        t.equal(body.entropyBits, 80)
        t.equal(body.values.length, 50)
        for (const value of body.values as string[]) {
          const parts = ulidParts(value)
          const hex = ulidToUUID(value).replaceAll('-', '').toLowerCase()
          const fine = value.length === 26 && [...value].every((c) => CROCKFORD.includes(c)) && isValid(value) &&
            parts.lead === '00' && decodeTime(value) === parts.time &&
            // the random part: 10 bytes that give back the string, and that the ulid package decodes alike
            crockfordOfBytes(parts.randomBytes) === value.slice(10) &&
            parts.randomBytes.toString('hex') === hex.slice(12) &&
            parseInt(hex.slice(0, 12), 16) === parts.time
          if (!fine) t.fail(`${label}: not a well-formed ULID: ${value}`)
        }
        t.pass(`${label}: 26 Crockford characters; time and 10 random bytes decoded alike by the test and the ulid package`)
        checkTimeOrdered(t, label, body, before, after, decodeTime)
      }
    }
  })

  t.test('urlsafe (POST and GET): alphabet, length bounds, entropy', async (t) => {
    for (const length of [2, 21, 256]) {
      for (const { method, response, body } of await both(app, { format: 'urlsafe', length, quantity: 5 })) {
        t.equal(response.statusCode, 200, `${method} ${length}`)
        t.equal(body.entropyBits, 6 * length)
        for (const value of body.values) t.match(value, new RegExp(`^[A-Za-z0-9_-]{${length}}$`), `${method} ${length}`)
      }
    }
    const [viaPost] = await both(app, { format: 'urlsafe' })
    t.equal(viaPost?.body.values[0].length, 32, 'default length 32')
    t.equal(viaPost?.body.entropyBits, 192)
    for (const length of [1, 257]) {
      for (const { method, response, body } of await both(app, { format: 'urlsafe', length })) {
        t.equal(response.statusCode, 400, `${method} ${length}`)
        t.equal(body.code, 'VALIDATION_FAILED')
        t.same(body.errors.map((e: any) => [e.pointer, e.code]), [['#/length', 'OUT_OF_RANGE']], `${method} ${length}`)
      }
    }
  })

  t.test('compact formats: alphabet and length', async (t) => {
    for (const format of ['numeric', 'alpha', 'alphanumeric'] as const) {
      for (const length of [2, 32, 256]) {
        const response = await post(app, 'uuid', { format, length, quantity: 5 })
        for (const value of response.json().values) t.match(value, new RegExp(`^[${COMPACT[format]}]{${length}}$`), `${format} ${length}`)
      }
    }
    const response = await get(app, 'uuid', { format: 'alphanumeric' })
    t.equal(response.json().values[0].length, 32, 'default length 32')
  })

  t.test('every format answers POST and GET with its entropyBits', async (t) => {
    const figures = { standard: 122, v7: 74, ulid: 80, numeric: 33.21, alpha: 57, alphanumeric: 59.54, urlsafe: 60 }
    for (const format of UUID_FORMATS) {
      for (const { method, response, body } of await both(app, { format, length: 10, quantity: 3 })) {
        t.equal(response.statusCode, 200, `${method} ${format}`)
        t.equal(body.entropyBits, figures[format], `${method} ${format}: entropyBits`)
        t.ok(body.values.every((value: string) => shapeOf(format, 10).test(value)), `${method} ${format}: shape`)
      }
    }
  })

  t.test('unknown format is rejected, listing all seven', async (t) => {
    const response = await post(app, 'uuid', { format: 'v4' })
    t.equal(response.statusCode, 400)
    t.same(response.json().errors.map((e: any) => [e.pointer, e.code]), [['#/format', 'NOT_ALLOWED_VALUE']])
    t.match(response.json().detail, /"standard", "v7", "ulid", "numeric", "alpha", "alphanumeric", "urlsafe"/)
  })
})
