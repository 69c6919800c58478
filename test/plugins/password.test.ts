import t from 'tap'
import fc from 'fast-check'
import { AMBIGUOUS, CHARACTER_SETS, MINIMUM_OF, alphabetOf, drawByComposition, drawByRejection, generatePasswords, passwordPlan, type CharacterSet } from '../../plugins/password.js'
import { ParameterError } from '../../src/http/parameter-error.js'
import { build, get, post } from '../helper.js'

const SETS = Object.keys(CHARACTER_SETS) as CharacterSet[]
const escape = (text: string) => text.replace(/[\\\]^-]/g, '\\$&')
const onlyFrom = (alphabet: string) => new RegExp(`^[${escape(alphabet)}]*$`)
const hasOneOf = (text: string, characters: string) => [...text].some((c) => characters.includes(c))
const countOf = (text: string, characters: string) => [...text].filter((c) => characters.includes(c)).length

t.test('the four character sets', async (t) => {
  t.equal(CHARACTER_SETS.uppercase, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
  t.equal(CHARACTER_SETS.lowercase, 'abcdefghijklmnopqrstuvwxyz')
  t.equal(CHARACTER_SETS.numbers, '0123456789')
  // CONTRACT §2: exactly these 28 symbols
  t.equal(CHARACTER_SETS.symbols, '!#$%&()*+,-./:;<=>?@[]^_{|}~')
  t.equal(new Set(CHARACTER_SETS.symbols).size, 28)
  // ... which is ASCII punctuation without space, quotes, backslash and backtick
  const punctuation = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
    .filter((c) => !/[A-Za-z0-9 "'\\`]/.test(c))
  t.same([...CHARACTER_SETS.symbols].sort(), punctuation.sort())
})

const DEFAULTS = { length: 20, uppercase: true, lowercase: true, numbers: true, symbols: true, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols, exclude: '', quantity: 1 }

/** Any valid parameters: 1..4 sets, minimums 0..length that fit, look-alikes avoided or not. */
const validParams = fc.record({
  length: fc.integer({ min: 6, max: 128 }),
  sets: fc.subarray(SETS, { minLength: 1 }),
  minimums: fc.tuple(...SETS.map(() => fc.nat({ max: 128 }))),
  avoidAmbiguous: fc.boolean(),
  quantity: fc.integer({ min: 1, max: 5 })
}).map(({ length, sets, minimums, avoidAmbiguous, quantity }) => {
  // Scale the enabled minimums down until they fit in `length`
  const enabled = minimums.map((minimum, index) => sets.includes(SETS[index] as CharacterSet) ? minimum : 0)
  const total = enabled.reduce((sum, minimum) => sum + minimum, 0)
  const scaled = total <= length ? minimums : minimums.map((minimum) => Math.floor(minimum * length / total))
  const params = { ...DEFAULTS, length, avoidAmbiguous, quantity, uppercase: false, lowercase: false, numbers: false, symbols: false }
  for (const set of sets) params[set] = true
  SETS.forEach((set, index) => { params[MINIMUM_OF[set]] = scaled[index] as number })
  return params
})

t.test('property: every password has the length, the alphabet and every enabled minimum', async (t) => {
  fc.assert(fc.property(validParams, (params) => {
    const enabled = SETS.filter((set) => params[set])
    const alphabet = enabled.map((set) => alphabetOf(set, params)).join('')
    return generatePasswords(params).every((password) =>
      password.length === params.length &&
      onlyFrom(alphabet).test(password) &&
      enabled.every((set) => countOf(password, alphabetOf(set, params)) >= params[MINIMUM_OF[set]]))
  }), { numRuns: 500 })
  t.pass('500 runs')
})

t.test('property: both ways of drawing meet every minimum', async (t) => {
  fc.assert(fc.property(validParams, (params) => {
    const plan = passwordPlan(params)
    return [drawByRejection, drawByComposition].every((draw) => {
      // Rejection may be slow where the minimums are rarely met by chance: only where it is cheap
      if (draw === drawByRejection && !plan.rejectionIsCheap) return true
      const password = draw(plan)
      return SETS.filter((set) => params[set]).every((set) => countOf(password, alphabetOf(set, params)) >= params[MINIMUM_OF[set]])
    })
  }), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('avoidAmbiguous: the look-alikes I O l o 0 1 | are gone, the set sizes are 24, 24, 8, 27', async (t) => {
  t.equal(AMBIGUOUS, 'IOlo01|')
  t.same(SETS.map((set) => alphabetOf(set, { avoidAmbiguous: true }).length), [24, 24, 8, 27])
  t.same(SETS.map((set) => alphabetOf(set, { avoidAmbiguous: false })), SETS.map((set) => CHARACTER_SETS[set]))
  const values = generatePasswords({ ...DEFAULTS, length: 128, avoidAmbiguous: true, quantity: 50 })
  t.notOk(values.some((value) => hasOneOf(value, AMBIGUOUS)))
})

t.test('generatePasswords: quantity, NO_CHARACTER_SET and MINIMUMS_EXCEED_LENGTH', async (t) => {
  const all = { ...DEFAULTS, length: 6, quantity: 50 }
  const values = generatePasswords(all)
  t.equal(values.length, 50)
  // The worst case for rejection (6 characters, 4 sets) still always has every set
  for (const value of values) t.ok(SETS.every((set) => hasOneOf(value, CHARACTER_SETS[set])), value.replace(/./g, '*'))
  const none = { ...all, uppercase: false, lowercase: false, numbers: false, symbols: false }
  t.throws(() => generatePasswords(none), new ParameterError([{ pointer: '#', code: 'NO_CHARACTER_SET' }]))
  try {
    generatePasswords(none)
  } catch (error) {
    t.same((error as ParameterError).problems, [{ pointer: '#', code: 'NO_CHARACTER_SET' }])
  }
  const over = { ...DEFAULTS, length: 10, minNumbers: 5, minSymbols: 4 }
  try {
    generatePasswords(over)
    t.fail('11 > 10 must be refused')
  } catch (error) {
    t.same((error as ParameterError).problems, [{ pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH', args: { total: 11, length: 10 } }])
  }
  // A disabled set's minimum is ignored, and an exact fit is allowed
  t.equal(generatePasswords({ ...over, uppercase: false })[0]?.length, 10)
  t.equal(generatePasswords({ ...DEFAULTS, length: 128, minSymbols: 125 })[0]?.length, 128)
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: 20 characters from all four sets, each present', async (t) => {
    const response = await post(app, 'password', {})
    t.equal(response.statusCode, 200)
    const [value] = response.json().values
    t.equal(value.length, 20)
    t.match(value, onlyFrom(Object.values(CHARACTER_SETS).join('')))
    for (const set of SETS) t.ok(hasOneOf(value, CHARACTER_SETS[set]), `has ${set}`)
  })

  t.test('only the enabled sets are used, and each is present', async (t) => {
    for (const sets of [['numbers'], ['symbols'], ['uppercase', 'numbers'], ['lowercase', 'symbols'], ['uppercase', 'lowercase', 'numbers']] as CharacterSet[][]) {
      const params = Object.fromEntries(SETS.map((set) => [set, sets.includes(set)]))
      const response = await get(app, 'password', { ...params, length: 6, quantity: 50 })
      t.equal(response.statusCode, 200)
      const alphabet = sets.map((set) => CHARACTER_SETS[set]).join('')
      for (const value of response.json().values) {
        t.equal(value.length, 6)
        t.match(value, onlyFrom(alphabet), `only ${sets.join('+')}`)
        t.ok(sets.every((set) => hasOneOf(value, CHARACTER_SETS[set])), `each of ${sets.join('+')}`)
      }
    }
  })

  t.test('all sets disabled: NO_CHARACTER_SET', async (t) => {
    const response = await post(app, 'password', { uppercase: false, lowercase: false, numbers: false, symbols: false })
    t.equal(response.statusCode, 400)
    t.same(response.json(), {
      title: 'Invalid parameters',
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'Enable at least one character set: uppercase, lowercase, numbers or symbols.',
      errors: [{ pointer: '#', code: 'NO_CHARACTER_SET', detail: 'Enable at least one character set: uppercase, lowercase, numbers or symbols.' }]
    })
  })
})
