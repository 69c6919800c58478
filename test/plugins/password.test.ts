import t from 'tap'
import fc from 'fast-check'
import { CHARACTER_SETS, generatePassword, generatePasswords, type CharacterSet } from '../../plugins/password.js'
import { ParameterError } from '../../src/errors.js'
import { build, get, post } from '../helper.js'

const SETS = Object.keys(CHARACTER_SETS) as CharacterSet[]
const escape = (text: string) => text.replace(/[\\\]^-]/g, '\\$&')
const onlyFrom = (alphabet: string) => new RegExp(`^[${escape(alphabet)}]*$`)
const hasOneOf = (text: string, characters: string) => [...text].some((c) => characters.includes(c))

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

t.test('generatePassword: length, alphabet, every enabled set present', async (t) => {
  fc.assert(fc.property(
    fc.integer({ min: 6, max: 128 }),
    fc.subarray(SETS, { minLength: 1 }),
    (length, sets) => {
      const password = generatePassword(length, sets)
      const alphabet = sets.map((set) => CHARACTER_SETS[set]).join('')
      return password.length === length &&
        onlyFrom(alphabet).test(password) &&
        sets.every((set) => hasOneOf(password, CHARACTER_SETS[set]))
    }
  ), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('generatePasswords: quantity and NO_CHARACTER_SET', async (t) => {
  const all = { length: 6, uppercase: true, lowercase: true, numbers: true, symbols: true, quantity: 50 }
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
