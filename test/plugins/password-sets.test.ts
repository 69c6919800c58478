// password's symbolSet and exclude (CONTRACT §2): the sets built in the contract's order, exact
// counts against brute force over small custom sets, EMPTY_SET, and values with characters JSON
// escapes, which must come back exact.
import t from 'tap'
import fc from 'fast-check'
import { AMBIGUOUS, CHARACTER_SETS, PUNCTUATION, generatePasswords, passwordPlan, type CharacterSet } from '../../plugins/password.js'
import { ParameterError } from '../../src/http/parameter-error.js'
import { isFloorOf } from '../exact-entropy.js'
import { build, get, post } from '../helper.js'

const SETS = ['uppercase', 'lowercase', 'numbers', 'symbols'] as const
const MINIMUM_OF = { uppercase: 'minUppercase', lowercase: 'minLowercase', numbers: 'minNumbers', symbols: 'minSymbols' } as const
const DEFAULTS = { length: 20, uppercase: true, lowercase: true, numbers: true, symbols: true, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols as string, exclude: '', quantity: 1 }
type Params = typeof DEFAULTS

// CONTRACT §2 written out here: the 32 ASCII punctuation characters, and the look-alikes
const ALL_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
const LOOK_ALIKES = 'IOlo01|'

/** The sets as the contract builds them: the set (or symbolSet), less exclude, less the look-alikes. */
function contractSets (params: Params): Record<CharacterSet, string> {
  const source = { uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', lowercase: 'abcdefghijklmnopqrstuvwxyz', numbers: '0123456789', symbols: params.symbolSet }
  const kept = (characters: string) => [...characters].filter((c) => !params.exclude.includes(c) && !(params.avoidAmbiguous && LOOK_ALIKES.includes(c))).join('')
  return { uppercase: kept(source.uppercase), lowercase: kept(source.lowercase), numbers: kept(source.numbers), symbols: kept(source.symbols) }
}

/** Every string of `length` over the enabled sets' union, counted when it meets every minimum. */
function bruteForce (params: Params): bigint {
  const sets = contractSets(params)
  const enabled = SETS.filter((set) => params[set])
  const union = enabled.map((set) => sets[set]).join('')
  const setOf = new Map<string, number>()
  enabled.forEach((set, index) => { for (const c of sets[set]) setOf.set(c, index) })
  let valid = 0n
  const counts = new Array<number>(enabled.length)
  const indexes = new Array<number>(params.length).fill(0)
  for (let n = 0; n < union.length ** params.length; n++) {
    let rest = n
    for (let i = 0; i < params.length; i++) {
      indexes[i] = rest % union.length
      rest = Math.floor(rest / union.length)
    }
    counts.fill(0)
    for (const index of indexes) {
      const set = setOf.get(union[index] as string) as number
      counts[set] = (counts[set] as number) + 1
    }
    if (enabled.every((set, j) => (counts[j] as number) >= params[MINIMUM_OF[set]])) valid++
  }
  return valid
}

/** Small custom sets: a few characters kept of each set (the rest excluded), a small symbolSet. */
const smallParams = fc.record({
  length: fc.integer({ min: 1, max: 5 }),
  enabled: fc.subarray([...SETS], { minLength: 1 }),
  keep: fc.tuple(fc.subarray([...'ABCIO'], { minLength: 1, maxLength: 3 }), fc.subarray([...'ablo'], { minLength: 1, maxLength: 2 }), fc.subarray([...'0129'], { minLength: 1, maxLength: 2 })),
  symbolSet: fc.subarray([...ALL_PUNCTUATION], { minLength: 1, maxLength: 3 }).chain((set) => fc.shuffledSubarray(set, { minLength: set.length, maxLength: set.length })),
  excludeSymbols: fc.subarray([...ALL_PUNCTUATION], { maxLength: 4 }),
  minimums: fc.tuple(fc.nat(2), fc.nat(2), fc.nat(2), fc.nat(2)),
  avoidAmbiguous: fc.boolean()
}).map(({ length, enabled, keep, symbolSet, excludeSymbols, minimums, avoidAmbiguous }): Params => {
  const kept = keep.flat().join('')
  const exclude = ('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('').filter((c) => !kept.includes(c)).join('') + excludeSymbols.join(''))
  const params = { ...DEFAULTS, length, avoidAmbiguous, symbolSet: symbolSet.join(''), exclude, uppercase: false, lowercase: false, numbers: false, symbols: false }
  for (const set of enabled) params[set] = true
  SETS.forEach((set, index) => { params[MINIMUM_OF[set]] = minimums[index] as number })
  return params
})

t.test('exact counts: every string of length 1..5 over small custom sets, against the plan\'s count and entropyBits', async (t) => {
  let compared = 0
  let refused = 0
  fc.assert(fc.property(smallParams, (params) => {
    const sets = contractSets(params)
    const enabled = SETS.filter((set) => params[set])
    const total = enabled.reduce((sum, set) => sum + params[MINIMUM_OF[set]], 0)
    if (enabled.some((set) => sets[set] === '') || total > params.length) {
      refused++
      try {
        passwordPlan(params)
        return false
      } catch (error) {
        return error instanceof ParameterError
      }
    }
    const plan = passwordPlan(params)
    const count = bruteForce(params)
    compared++
    return plan.compositions.count === count && isFloorOf(count, plan.entropyBits) &&
      plan.alphabets.join('|') === enabled.map((set) => sets[set]).join('|')
  }), { numRuns: 400 })
  t.ok(compared > 100, `${compared} parameter sets counted by brute force, ${refused} refused`)
})

t.test('the sets in the contract\'s order: symbolSet replaces the symbols, exclude and the look-alikes are removed from every set', async (t) => {
  const plan = passwordPlan({ ...DEFAULTS, symbolSet: '!@#$%^&*', exclude: 'AEIOUaeiou0@', length: 12 })
  t.same(plan.alphabets, ['BCDFGHJKLMNPQRSTVWXYZ', 'bcdfghjklmnpqrstvwxyz', '123456789', '!#$%^&*'])
  const ambiguous = passwordPlan({ ...DEFAULTS, symbolSet: '|!', avoidAmbiguous: true, exclude: 'Z' })
  t.same(ambiguous.alphabets, ['ABCDEFGHJKLMNPQRSTUVWXY', 'abcdefghijkmnpqrstuvwxyz', '23456789', '!'])
  t.equal(PUNCTUATION, ALL_PUNCTUATION, 'the 32 ASCII punctuation characters')
  t.same(AMBIGUOUS, LOOK_ALIKES)
  // A set of one character, and a union of one: no randomness, entropy 0
  const single = passwordPlan({ ...DEFAULTS, uppercase: false, lowercase: false, numbers: false, symbolSet: '!', length: 8 })
  t.equal(single.entropyBits, 0)
  t.same(generatePasswords({ ...DEFAULTS, uppercase: false, lowercase: false, numbers: false, symbolSet: '!', length: 8, quantity: 3 }), ['!!!!!!!!', '!!!!!!!!', '!!!!!!!!'])
})

t.test('property: passwords with symbolSet and exclude hold only the built sets, and every minimum', async (t) => {
  const params = fc.record({
    length: fc.integer({ min: 7, max: 128 }),
    symbolSet: fc.subarray([...ALL_PUNCTUATION], { minLength: 1, maxLength: 32 }).map((set) => set.join('')),
    exclude: fc.string({ unit: fc.constantFrom(...ALL_PUNCTUATION, ...'ABCXYZabcxyz0189'), maxLength: 20 }),
    avoidAmbiguous: fc.boolean(),
    minSymbols: fc.nat(4)
  })
  fc.assert(fc.property(params, (custom) => {
    const request = { ...DEFAULTS, ...custom, quantity: 3 }
    const sets = contractSets(request)
    if (sets.symbols === '') {
      try {
        generatePasswords(request)
        return false
      } catch (error) {
        return (error as ParameterError).problems[0]?.code === 'EMPTY_SET'
      }
    }
    return generatePasswords(request).every((value) => value.length === request.length &&
      [...value].every((c) => SETS.some((set) => sets[set].includes(c))) &&
      SETS.every((set) => [...value].filter((c) => sets[set].includes(c)).length >= request[MINIMUM_OF[set]]))
  }), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('EMPTY_SET at the flag of every enabled set left empty, after the other checks of the set rule', async (t) => {
  const problems = (params: Partial<Params>) => {
    try {
      passwordPlan({ ...DEFAULTS, ...params })
      return []
    } catch (error) {
      return (error as ParameterError).problems.map(({ pointer, code }) => `${code} ${pointer}`)
    }
  }
  t.same(problems({ exclude: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' }), ['EMPTY_SET #/uppercase'])
  t.same(problems({ exclude: 'abcdefghijkmnpqrstuvwxyz', avoidAmbiguous: true }), ['EMPTY_SET #/lowercase'], 'l and o by avoidAmbiguous')
  t.same(problems({ exclude: '23456789', avoidAmbiguous: true }), ['EMPTY_SET #/numbers'])
  t.same(problems({ symbolSet: '!@', exclude: '@!' }), ['EMPTY_SET #/symbols'])
  t.same(problems({ symbolSet: '|', avoidAmbiguous: true }), ['EMPTY_SET #/symbols'])
  t.same(problems({ symbolSet: '|', avoidAmbiguous: true, symbols: false }), [], 'a disabled set may be empty')
  t.same(problems({ exclude: '0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~' }), ['EMPTY_SET #/numbers', 'EMPTY_SET #/symbols'], 'every empty set, in order')
  t.same(problems({ exclude: '0123456789', length: 6, minSymbols: 6 }), ['EMPTY_SET #/numbers', 'MINIMUMS_EXCEED_LENGTH #/length'])
  t.same(problems({ exclude: '0123456789', uppercase: false, lowercase: false, numbers: false, symbols: false }), ['NO_CHARACTER_SET #'])
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('symbolSet with " and \\: the JSON answer is exact, text/plain as it is', async (t) => {
    for (const symbolSet of ['"\\', '"', '\\', ALL_PUNCTUATION]) {
      const params = { uppercase: false, lowercase: false, numbers: false, symbolSet, length: 64, quantity: 50 }
      for (const response of [await post(app, 'password', params), await get(app, 'password', params)]) {
        t.equal(response.statusCode, 200)
        t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
        const body = response.json()
        t.equal(response.body, JSON.stringify(body), `${JSON.stringify(symbolSet)}: byte for byte what JSON.stringify writes`)
        t.ok(body.values.every((value: string) => value.length === 64 && [...value].every((c) => symbolSet.includes(c))), 'values over the set')
        t.same(Object.keys(body), ['type', 'values', 'entropyBits', 'generatedAt'], 'the fields in the schema\'s order')
      }
      const plain = await post(app, 'password', params, { accept: 'text/plain' })
      const lines = plain.body.split('\n')
      t.equal(lines.length, 51)
      t.ok(lines.slice(0, 50).every((line) => line.length === 64 && [...line].every((c) => symbolSet.includes(c))), 'text/plain holds the characters as they are')
    }
    const quotes = (await post(app, 'password', { uppercase: false, lowercase: false, numbers: false, symbolSet: '"', length: 6 })).body
    t.match(quotes, /"values":\["\\"\\"\\"\\"\\"\\""\]/, 'every quote escaped')
  })

  t.test('without " or \\ the fast path answers the same bytes', async (t) => {
    const params = { symbolSet: '\'`!', exclude: 'abc', length: 128, quantity: 50 }
    const response = await post(app, 'password', params)
    t.equal(response.statusCode, 200)
    t.equal(response.body, JSON.stringify(response.json()))
  })

  t.test('EMPTY_SET in every language, at the flag', async (t) => {
    const details = new Set<string>()
    for (const language of ['en', 'ru', 'de', 'fr', 'es']) {
      const response = await post(app, 'password', { symbolSet: '!', exclude: '!' }, { 'x-language': language })
      t.equal(response.statusCode, 400)
      t.equal(response.headers['content-language'], language)
      const body = response.json()
      t.same(body.errors.map((e: { pointer: string, code: string }) => [e.pointer, e.code]), [['#/symbols', 'EMPTY_SET']])
      t.ok(body.errors[0].detail.includes('symbols'), `${language}: names the flag: ${body.errors[0].detail}`)
      details.add(body.errors[0].detail)
    }
    t.equal(details.size, 5, 'five different texts')
    const english = (await get(app, 'password', { exclude: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' })).json()
    t.equal(english.detail, '“uppercase” is enabled, but “exclude” and “avoidAmbiguous” leave its set with no character.')
  })

  t.test('entropyBits over the built sets', async (t) => {
    // 12 characters over 21 + 21 + 9 + 7, at least one of each: inclusion–exclusion over the sets left out
    const sizes = [21, 21, 9, 7]
    let count = 0n
    for (let leftOut = 0; leftOut < 16; leftOut++) {
      const size = sizes.reduce((sum, s, j) => (leftOut & (1 << j)) === 0 ? sum + s : sum, 0)
      const sign = [0, 1, 2, 3].filter((j) => (leftOut & (1 << j)) !== 0).length % 2 === 0 ? 1n : -1n
      count += sign * BigInt(size) ** 12n
    }
    const bits = (await post(app, 'password', { symbolSet: '!@#$%^&*', exclude: 'AEIOUaeiou0@', length: 12 })).json().entropyBits
    t.ok(isFloorOf(count, bits), `${bits} = floor(100 log2 ${count}) / 100`)
  })
})
