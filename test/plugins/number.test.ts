import t from 'tap'
import fc from 'fast-check'
import { allowedValueAt, exclusionsInRange, generateNumbers } from '../../plugins/number.js'
import { ParameterError } from '../../src/http/parameter-error.js'
import { build, get, post } from '../helper.js'

const MAX = Number.MAX_SAFE_INTEGER
const MIN = Number.MIN_SAFE_INTEGER
const DECIMAL = /^(0|-?[1-9][0-9]*)$/
const defaults = { min: 0, max: 100, exclusions: [] as Array<string | number>, unique: false, quantity: 1 }

function problemsOf (fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    if (error instanceof ParameterError) return error.problems
    throw error
  }
  return 'no error'
}

t.test('exclusionsInRange: strings and integers, in range, sorted, without duplicates', async (t) => {
  t.same([...exclusionsInRange(['5', 3, '-2', '3', 3, '11', -1, '-0', '0', '007'], -2, 10)], [-2, -1, 0, 3, 5, 7])
  // Integers beyond the safe range are inexact and outside every valid range: ignored
  t.same([...exclusionsInRange([1e300, -1e300, 2 ** 53, '9007199254740993', '-9007199254740993', '99999999999999999999999'], MIN, MAX)], [])
  t.same([...exclusionsInRange([MIN, String(MAX), MAX, String(MIN)], MIN, MAX)], [MIN, MAX], 'the safe extremes are exact')
  t.same([...exclusionsInRange([], 0, 0)], [])
})

t.test('allowedValueAt: the index-th value not excluded', async (t) => {
  const excluded = [2, 3, 7]
  // allowed in [0, 9]: 0 1 4 5 6 8 9
  t.same([0, 1, 2, 3, 4, 5, 6].map((i) => allowedValueAt(0 + i, excluded)), [0, 1, 4, 5, 6, 8, 9])
  t.equal(allowedValueAt(10, []), 10)
  t.equal(allowedValueAt(2, [2, 3]), 4)
  // Only the first `count` entries are exclusions (the rest is room for unique draws)
  t.equal(allowedValueAt(2, [2, 3, 4, 5], 2), 4)
  // Against a linear scan, for every index of [min, max] with random exclusions
  fc.assert(fc.property(fc.integer({ min: -50, max: 50 }), fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 40 }), (min, offsets) => {
    const sorted = offsets.map((o) => min + o).sort((a, b) => a - b)
    const allowed = Array.from({ length: 41 }, (_, i) => min + i).filter((v) => !sorted.includes(v))
    return allowed.every((value, index) => allowedValueAt(min + index, sorted) === value)
  }), { numRuns: 300 })
})

t.test('generateNumbers: rule errors', async (t) => {
  t.same(problemsOf(() => generateNumbers({ ...defaults, min: 5, max: 4 })),
    [{ pointer: '#/min', code: 'MIN_GREATER_THAN_MAX', args: { min: 5, max: 4 } }])
  t.same(problemsOf(() => generateNumbers({ ...defaults, min: 1, max: 3, exclusions: ['1', 2, '3'] })),
    [{ pointer: '#/exclusions', code: 'NO_VALUES_LEFT', args: { min: 1, max: 3 } }])
  t.same(problemsOf(() => generateNumbers({ ...defaults, min: 1, max: 3, exclusions: ['2'], unique: true, quantity: 3 })),
    [{ pointer: '#/quantity', code: 'NOT_ENOUGH_UNIQUE_VALUES', args: { available: '2', quantity: 3 } }])
  // Without `unique` two values left are enough for any quantity
  t.equal(generateNumbers({ ...defaults, min: 1, max: 3, exclusions: ['2'], quantity: 50 }).length, 50)
})

t.test('generateNumbers: min == max, and unique taking every allowed value', async (t) => {
  t.same(generateNumbers({ ...defaults, min: -7, max: -7, quantity: 3 }), ['-7', '-7', '-7'])
  t.same(generateNumbers({ ...defaults, min: MAX, max: MAX }), [String(MAX)])
  const all = generateNumbers({ ...defaults, min: -3, max: 3, exclusions: ['0'], unique: true, quantity: 6 })
  t.same([...all].sort(), ['-1', '-2', '-3', '1', '2', '3'])
})

t.test('generateNumbers: the whole safe range (spans beyond 2^48)', async (t) => {
  const values = generateNumbers({ ...defaults, min: MIN, max: MAX, quantity: 50 })
  for (const value of values) {
    t.match(value, DECIMAL)
    t.ok(Number.isSafeInteger(Number(value)), `${value} is safe`)
  }
  // 50 uniform draws over 2^54 values: all below 2^48 in magnitude has probability < 2^-300
  t.ok(values.some((value) => BigInt(value) > 2n ** 48n || BigInt(value) < -(2n ** 48n)), 'uses the whole span')
  // Exactly 2^48 values: one past crypto.randomInt's limit (this once threw)
  const edge = generateNumbers({ ...defaults, min: 0, max: 2 ** 48 - 1, quantity: 50 })
  t.ok(edge.every((v) => BigInt(v) >= 0n && BigInt(v) < 2n ** 48n), 'span of 2^48')
  const top = generateNumbers({ ...defaults, min: MAX - 1, max: MAX, exclusions: [String(MAX - 1)], quantity: 5 })
  t.same(top, Array(5).fill(String(MAX)))
})

t.test('generateNumbers: property: range, exclusions, uniqueness, or the right error', async (t) => {
  const small = fc.record({
    min: fc.integer({ min: -1000, max: 1000 }),
    span: fc.integer({ min: 0, max: 60 }),
    offsets: fc.array(fc.integer({ min: -5, max: 65 }), { maxLength: 70 }),
    asStrings: fc.boolean(),
    unique: fc.boolean(),
    quantity: fc.integer({ min: 1, max: 50 })
  })
  const large = fc.record({
    min: fc.maxSafeInteger().map((v) => Math.max(MIN, -Math.abs(v))),
    span: fc.maxSafeNat(),
    offsets: fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 20 }),
    asStrings: fc.boolean(),
    unique: fc.boolean(),
    quantity: fc.integer({ min: 1, max: 50 })
  })
  fc.assert(fc.property(fc.oneof(small, large), ({ min, span, offsets, asStrings, unique, quantity }) => {
    const max = Math.min(MAX, min + span)
    const excludedNumbers = offsets.map((o) => min + o).filter(Number.isSafeInteger)
    const exclusions = excludedNumbers.map((v) => (asStrings ? String(v) : v))
    const excluded = new Set(excludedNumbers.filter((v) => v >= min && v <= max).map(BigInt))
    const available = BigInt(max) - BigInt(min) + 1n - BigInt(excluded.size)
    const params = { min, max, exclusions, unique, quantity }
    if (available === 0n) return (problemsOf(() => generateNumbers(params)) as any)[0].code === 'NO_VALUES_LEFT'
    if (unique && available < BigInt(quantity)) {
      return (problemsOf(() => generateNumbers(params)) as any)[0].code === 'NOT_ENOUGH_UNIQUE_VALUES'
    }
    const values = generateNumbers(params)
    const asBig = values.map(BigInt)
    return values.length === quantity &&
      values.every((v) => DECIMAL.test(v)) &&
      asBig.every((v) => v >= BigInt(min) && v <= BigInt(max) && !excluded.has(v)) &&
      (!unique || new Set(values).size === values.length)
  }), { numRuns: 400 })
  t.pass('400 runs')
})

t.test('HTTP', async (t) => {
  const app = await build(t)
  const values = async (params: Record<string, unknown>) => {
    const response = await get(app, 'number', params)
    t.equal(response.statusCode, 200, JSON.stringify(params).slice(0, 60))
    return response.json().values as string[]
  }
  const problem = async (params: Record<string, unknown>) => {
    const response = await post(app, 'number', params)
    t.equal(response.statusCode, 400)
    return response.json()
  }

  t.test('defaults: one decimal string in 0..100', async (t) => {
    const [value] = await values({})
    t.match(value, DECIMAL)
    t.ok(Number(value) >= 0 && Number(value) <= 100)
  })

  t.test('the full safe range', async (t) => {
    for (const value of await values({ min: MIN, max: MAX, quantity: 50 })) {
      t.match(value, DECIMAL)
      t.ok(Number.isSafeInteger(Number(value)))
    }
  })

  t.test('spans around 2^48 values', async (t) => {
    for (const max of [2 ** 48 - 2, 2 ** 48 - 1, 2 ** 48]) {
      for (const value of await values({ min: 0, max, quantity: 10 })) t.ok(Number(value) >= 0 && Number(value) <= max)
    }
  })

  t.test('negative values are decimal strings', async (t) => {
    t.same(await values({ min: -42, max: -42 }), ['-42'])
    for (const value of await values({ min: -10, max: -1, quantity: 20 })) t.match(value, /^-[1-9][0-9]?$/)
  })

  t.test('string and integer exclusions; out-of-range and duplicates ignored', async (t) => {
    t.same(await values({ min: 1, max: 5, exclusions: ['1', 2, '3', 4], quantity: 10 }), Array(10).fill('5'))
    const got = await values({ min: 1, max: 3, exclusions: ['0', '4', '-99999999999999999999', 1e300, '1', '1', 1], unique: true, quantity: 2 })
    t.same([...got].sort(), ['2', '3'])
  })

  t.test('unique: no repeats', async (t) => {
    const got = await values({ min: 1, max: 50, unique: true, quantity: 50 })
    t.same([...got].map(Number).sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i + 1))
    const wide = await values({ min: 0, max: 60, exclusions: Array.from({ length: 10 }, (_, i) => String(i * 2)), unique: true, quantity: 50 })
    t.equal(new Set(wide).size, 50)
    t.notOk(wide.some((v) => Number(v) < 20 && Number(v) % 2 === 0), 'no excluded value')
  })

  t.test('1000 exclusions: allowed and honoured', async (t) => {
    const exclusions = Array.from({ length: 1000 }, (_, i) => String(i))
    t.same(await values({ min: 0, max: 1000, exclusions, quantity: 5 }), Array(5).fill('1000'))
    const body = await problem({ min: 0, max: 1000, exclusions: [...exclusions, '1000'] })
    t.same(body.errors.map((e: any) => [e.pointer, e.code]), [['#/exclusions', 'TOO_MANY_ITEMS']])
  })

  t.test('NO_VALUES_LEFT', async (t) => {
    const body = await problem({ min: 3, max: 5, exclusions: ['3', 4, '5'] })
    t.same(body.errors, [{ pointer: '#/exclusions', code: 'NO_VALUES_LEFT', detail: 'The exclusions leave no value between 3 and 5.' }])
    t.equal(body.detail, 'The exclusions leave no value between 3 and 5.')
  })

  t.test('NOT_ENOUGH_UNIQUE_VALUES', async (t) => {
    const body = await problem({ min: 1, max: 10, exclusions: ['2'], unique: true, quantity: 10 })
    t.same(body.errors, [{
      pointer: '#/quantity',
      code: 'NOT_ENOUGH_UNIQUE_VALUES',
      detail: 'Only 9 distinct value(s) are left, fewer than the 10 requested with “unique”.'
    }])
    t.same(await values({ min: 1, max: 10, exclusions: ['2'], unique: true, quantity: 9 }).then((v) => v.length), 9)
  })

  t.test('MIN_GREATER_THAN_MAX', async (t) => {
    const body = await problem({ min: 10, max: 9 })
    t.same(body.errors, [{ pointer: '#/min', code: 'MIN_GREATER_THAN_MAX', detail: '“min” (10) must not be greater than “max” (9).' }])
    t.equal((await problem({ min: 101 })).errors[0].code, 'MIN_GREATER_THAN_MAX', 'against the default max')
  })

  t.test('NOT_AN_INTEGER: pointer to the item', async (t) => {
    for (const [exclusions, index] of [[['1.5'], 0], [['1', 'abc'], 1], [[1, 2, '3', '4.0'], 3]] as const) {
      const body = await problem({ exclusions })
      t.same(body.errors.map((e: any) => [e.pointer, e.code]), [[`#/exclusions/${index}`, 'NOT_AN_INTEGER']])
    }
  })
})
