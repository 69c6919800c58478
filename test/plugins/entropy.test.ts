// CONTRACT §1.2 and §2: `entropyBits` of every generator over HTTP, at boundary parameters, against
// counts worked out here by methods of the test's own (no code of the generators is used), and
// checked against the definition in exact integers (test/exact-entropy.ts). Every case is asked
// as POST and as GET with X-Data (the same entropyBits), and with quantity 50 (one entropyBits for
// all the values, the same as for one).
import t, { type Test } from 'tap'
import { build, get, post, type Generator } from '../helper.js'
import { isFloorOf } from '../exact-entropy.js'

const app = await build(t)

/** The entropyBits of `params`, after checking the POST, GET and quantity-50 answers agree. */
async function entropyBits (t: Test, type: Generator, params: Record<string, unknown>, many = 50): Promise<number> {
  const label = `${type} ${JSON.stringify(params)}`
  const viaPost = await post(app, type, params)
  const viaGet = await get(app, type, params)
  const manyValues = await post(app, type, { ...params, quantity: many })
  t.same([viaPost.statusCode, viaGet.statusCode, manyValues.statusCode], [200, 200, 200], `${label}: 200`)
  const bits = viaPost.json().entropyBits
  t.type(bits, 'number', `${label}: a JSON number`)
  t.equal(viaGet.json().entropyBits, bits, `${label}: GET = POST`)
  t.equal(manyValues.json().values.length, many)
  t.equal(manyValues.json().entropyBits, bits, `${label}: the same for ${many} values`)
  return bits
}

// ---- password: the character sets, as the contract lists them (CONTRACT §2)

const SET_NAMES = ['uppercase', 'lowercase', 'numbers', 'symbols'] as const
type SetName = typeof SET_NAMES[number]
const MINIMUM_OF: Record<SetName, string> = { uppercase: 'minUppercase', lowercase: 'minLowercase', numbers: 'minNumbers', symbols: 'minSymbols' }
const SIZE: Record<SetName, number> = { uppercase: 26, lowercase: 26, numbers: 10, symbols: 28 }
// Less I O / l o / 0 1 / |
const SIZE_UNAMBIGUOUS: Record<SetName, number> = { uppercase: 24, lowercase: 24, numbers: 8, symbols: 27 }

interface SetRule { size: number, minimum: number }

/** Strings of `length` over disjoint sets with every set present: inclusion–exclusion over the sets left out. */
function everySetPresent (sizes: number[], length: number): bigint {
  let count = 0n
  for (let leftOut = 0; leftOut < 1 << sizes.length; leftOut++) {
    let size = 0
    let sign = 1n
    sizes.forEach((setSize, j) => {
      if ((leftOut & (1 << j)) === 0) size += setSize
      else sign = -sign
    })
    count += sign * BigInt(size) ** BigInt(length)
  }
  return count
}

/** The same count by composition: sum of length! / (k_1! ... k_s!) · size_1^k_1 ... size_s^k_s over k_j >= minimum_j. */
function byCompositions (sets: SetRule[], length: number): bigint {
  const factorial = [1n]
  for (let i = 1; i <= length; i++) factorial.push((factorial[i - 1] as bigint) * BigInt(i))
  let count = 0n
  const visit = (j: number, left: number, ways: bigint, divisor: bigint): void => {
    const set = sets[j] as SetRule
    if (j === sets.length - 1) {
      if (left >= set.minimum) count += (factorial[length] as bigint) / (divisor * (factorial[left] as bigint)) * ways * BigInt(set.size) ** BigInt(left)
      return
    }
    for (let k = set.minimum; k <= left; k++) visit(j + 1, left - k, ways * BigInt(set.size) ** BigInt(k), divisor * (factorial[k] as bigint))
  }
  visit(0, length, 1n, 1n)
  return count
}

/**
 * The same count position by position: how many ways each prefix can be written, by how many
 * characters of each set it holds, counted no higher than that set's minimum.
 */
function byPositions (sets: SetRule[], length: number): bigint {
  let prefixes = new Map<string, bigint>([[sets.map(() => 0).join(','), 1n]])
  for (let position = 0; position < length; position++) {
    const next = new Map<string, bigint>()
    for (const [key, ways] of prefixes) {
      const held = key.split(',').map(Number)
      sets.forEach(({ size, minimum }, j) => {
        const after = held.slice()
        after[j] = Math.min((after[j] as number) + 1, minimum)
        const afterKey = after.join(',')
        next.set(afterKey, (next.get(afterKey) ?? 0n) + ways * BigInt(size))
      })
    }
    prefixes = next
  }
  return prefixes.get(sets.map(({ minimum }) => minimum).join(',')) ?? 0n
}

/** The same count by brute force over which set each position takes (s^length patterns: short lengths only). */
function byPatterns (sets: SetRule[], length: number): bigint {
  let count = 0n
  const held = sets.map(() => 0)
  const visit = (position: number, ways: bigint): void => {
    if (position === length) {
      if (sets.every(({ minimum }, j) => (held[j] as number) >= minimum)) count += ways
      return
    }
    sets.forEach(({ size }, j) => {
      held[j] = (held[j] as number) + 1
      visit(position + 1, ways * BigInt(size))
      held[j] = (held[j] as number) - 1
    })
  }
  visit(0, 1n)
  return count
}

/** The enabled sets of a password request, with their sizes and minimums (defaults as in CONTRACT §2). */
function rulesOf (params: Record<string, unknown>): SetRule[] {
  const sizes = params.avoidAmbiguous === true ? SIZE_UNAMBIGUOUS : SIZE
  return SET_NAMES
    .filter((set) => params[set] !== false)
    .map((set) => ({ size: sizes[set], minimum: (params[MINIMUM_OF[set]] as number | undefined) ?? 1 }))
}

t.test('password, the default rule (every enabled set present): inclusion–exclusion', async (t) => {
  // All 15 non-empty combinations of sets, at the shortest, the default and the longest length
  for (let mask = 1; mask < 16; mask++) {
    const enabled = Object.fromEntries(SET_NAMES.map((set, j) => [set, (mask & (1 << j)) !== 0]))
    for (const length of [6, 20, 128]) {
      for (const avoidAmbiguous of [false, true]) {
        const params = { ...enabled, length, avoidAmbiguous }
        const sets = rulesOf(params)
        const count = everySetPresent(sets.map(({ size }) => size), length)
        // Inclusion–exclusion and the position-by-position count agree before either is trusted
        t.equal(byPositions(sets, length), count, `two counts agree for ${JSON.stringify(params)}`)
        const bits = await entropyBits(t, 'password', params)
        t.ok(isFloorOf(count, bits), `${JSON.stringify(params)}: ${bits}`)
      }
    }
  }
})

t.test('password defaults: 20 characters, all four sets', async (t) => {
  // 90^20 less the strings missing a set: log2 is 129.6890, the contract's example
  const count = everySetPresent([26, 26, 10, 28], 20)
  const bits = await entropyBits(t, 'password', {})
  t.ok(isFloorOf(count, bits), `{}: ${bits}`)
  t.equal(bits, 129.68)
  t.equal(bits, await entropyBits(t, 'password', { length: 20, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1 }))
})

t.test('password, general minimums: counted by compositions, by positions and by patterns', async (t) => {
  const cases: Array<Record<string, unknown>> = [
    // Heavy minimums: few compositions
    { length: 128, minSymbols: 120 },
    { length: 128, minSymbols: 120, avoidAmbiguous: true },
    { length: 128, minUppercase: 30, minLowercase: 30, minNumbers: 30, minSymbols: 38 },
    // One set, its minimum the whole length
    { length: 128, uppercase: false, lowercase: false, numbers: false, minSymbols: 128 },
    { length: 128, minUppercase: 128, lowercase: false, numbers: false, symbols: false },
    // Minimums of 0: every string over the union counts
    { length: 20, minUppercase: 0, minLowercase: 0, minNumbers: 0, minSymbols: 0 },
    { length: 6, minUppercase: 0, minLowercase: 0, minNumbers: 0, minSymbols: 0, avoidAmbiguous: true },
    { length: 40, minUppercase: 0, minLowercase: 2, minNumbers: 0, minSymbols: 5 },
    // A disabled set's minimum is ignored
    { length: 10, symbols: false, minSymbols: 128 },
    { length: 6, uppercase: false, lowercase: false, minUppercase: 100, minLowercase: 100, minNumbers: 2, minSymbols: 2 },
    // Minimums adding up to the length exactly
    { length: 6, minUppercase: 2, minLowercase: 2, minNumbers: 1, minSymbols: 1 },
    { length: 12, minUppercase: 3, minLowercase: 3, minNumbers: 3, minSymbols: 3, avoidAmbiguous: true },
    { length: 8, uppercase: false, lowercase: false, minNumbers: 3, minSymbols: 5 },
    // Mixed
    { length: 8, uppercase: false, lowercase: false, minNumbers: 3, minSymbols: 3 },
    { length: 7, minUppercase: 0, minLowercase: 3, minNumbers: 2, minSymbols: 0, avoidAmbiguous: true },
    { length: 40, minUppercase: 5, minLowercase: 0, minNumbers: 10, minSymbols: 2, avoidAmbiguous: true }
  ]
  for (const params of cases) {
    const sets = rulesOf(params)
    const length = params.length as number
    const spare = length - sets.reduce((sum, { minimum }) => sum + minimum, 0)
    // Each method where it is cheap: compositions up to 40 characters or when the minimums leave
    // few of them; positions while the minimums are small; patterns for the shortest lengths
    const counts = [
      length <= 40 || spare <= 12 ? byCompositions(sets, length) : undefined,
      sets.reduce((states, { minimum }) => states * (minimum + 1), 1) <= 5000 ? byPositions(sets, length) : undefined,
      length <= 8 ? byPatterns(sets, length) : undefined
    ].filter((count) => count !== undefined)
    const [count] = counts
    if (count === undefined) throw new Error(`no method for ${JSON.stringify(params)}`)
    t.ok(counts.every((other) => other === count), `${counts.length} independent count(s), equal, for ${JSON.stringify(params)}`)
    const bits = await entropyBits(t, 'password', params)
    t.ok(isFloorOf(count, bits), `${JSON.stringify(params)}: ${bits}`)
  }
  // Where the answer is known in closed form
  const none = { uppercase: false, lowercase: false, numbers: false, symbols: false }
  t.equal(await entropyBits(t, 'password', { ...none, symbols: true, length: 128, minSymbols: 128 }), 615.34, '128 · log2(28) = 615.3414')
  t.equal(await entropyBits(t, 'password', { ...none, uppercase: true, length: 128, minUppercase: 128 }), 601.65, '128 · log2(26) = 601.6563')
  t.equal(await entropyBits(t, 'password', { length: 20, minUppercase: 0, minLowercase: 0, minNumbers: 0, minSymbols: 0 }), 129.83, '20 · log2(90) = 129.8371')
  t.equal(await entropyBits(t, 'password', { length: 10, symbols: false, minSymbols: 128 }), await entropyBits(t, 'password', { length: 10, symbols: false }))
})

// ---- passphrase: 7776 words each, and with includeNumber 10 digits on one of the words

t.test('passphrase: words · log2(7776), plus log2(10 · words) with includeNumber', async (t) => {
  for (const words of [3, 4, 6, 19, 20]) {
    for (const includeNumber of [false, true]) {
      const count = 7776n ** BigInt(words) * (includeNumber ? 10n * BigInt(words) : 1n)
      const bits = await entropyBits(t, 'passphrase', { words, includeNumber })
      t.ok(isFloorOf(count, bits), `${words} words${includeNumber ? ' and a digit' : ''}: ${bits}`)
      // The contract counts the draws: capitals and the separator leave them as they are
      t.equal(await entropyBits(t, 'passphrase', { words, includeNumber, capitalize: true, separator: '.' }), bits)
    }
  }
  t.equal(await entropyBits(t, 'passphrase', {}), 77.54, '6 · log2(7776) = 77.5489')
  t.equal(await entropyBits(t, 'passphrase', { words: 20, includeNumber: true }), 266.14, '258.4963 + log2(200) = 266.1402')
})

// ---- number: log2 of how many values are allowed

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const MIN_SAFE = Number.MIN_SAFE_INTEGER

/** The integers of [min, max] less the distinct exclusions inside it. */
function allowedNumbers (min: number, max: number, exclusions: Array<string | number> = []): bigint {
  const inside = new Set(exclusions.map((value) => BigInt(value)).filter((value) => value >= BigInt(min) && value <= BigInt(max)))
  return BigInt(max) - BigInt(min) + 1n - BigInt(inside.size)
}

t.test('number', async (t) => {
  const cases: Array<{ params: Record<string, unknown>, many?: number, exact?: number }> = [
    { params: { min: 5, max: 5 }, exact: 0 },
    { params: { min: MAX_SAFE, max: MAX_SAFE }, exact: 0 },
    { params: { min: MIN_SAFE, max: MIN_SAFE }, exact: 0 },
    // Defaults 0..100: log2(101) = 6.658
    { params: {}, exact: 6.65 },
    { params: { min: 0, max: 100 }, exact: 6.65 },
    // The whole safe range: 2^54 - 1 values, a hair under 54 bits
    { params: { min: MIN_SAFE, max: MAX_SAFE }, exact: 53.99 },
    { params: { min: 0, max: MAX_SAFE }, exact: 53 },
    { params: { min: 1, max: MAX_SAFE }, exact: 52.99 },
    { params: { min: -(2 ** 52), max: 2 ** 52 - 1 }, exact: 53 },
    // Exclusions: only distinct ones inside the range count, strings and JSON integers alike
    { params: { min: 0, max: 100, exclusions: ['5', 5, '7', '-3', '200', '100', '007', 100] } },
    { params: { min: 0, max: 9, exclusions: ['8', '9'] }, exact: 3 },
    { params: { min: -10, max: 10, exclusions: Array.from({ length: 20 }, (_, i) => String(i - 10)) }, exact: 0 },
    { params: { min: MIN_SAFE, max: MAX_SAFE, exclusions: [MIN_SAFE, String(MAX_SAFE), '0', '9007199254740993'] } },
    { params: { min: 1, max: 1000, exclusions: Array.from({ length: 1000 }, (_, i) => String(i * 2)) } },
    // unique: the entropy of each value taken alone
    { params: { min: 1, max: 64, unique: true }, exact: 6 },
    { params: { min: 1, max: 50, unique: true }, exact: 5.64 },
    { params: { min: 0, max: 99, unique: true, exclusions: ['0', '1', '2'] } },
    { params: { min: 1, max: 10, unique: true }, many: 10, exact: 3.32 },
    { params: { min: MIN_SAFE, max: MAX_SAFE, unique: true }, exact: 53.99 }
  ]
  for (const { params, many = 50, exact } of cases) {
    const count = allowedNumbers((params.min as number | undefined) ?? 0, (params.max as number | undefined) ?? 100, params.exclusions as Array<string | number> | undefined)
    const bits = await entropyBits(t, 'number', params, many)
    t.ok(isFloorOf(count, bits), `${JSON.stringify(params).slice(0, 80)}: ${count} values, ${bits}`)
    if (exact !== undefined) t.equal(bits, exact)
  }
})

// ---- the fixed-width generators

t.test('vpn: 6 bits per shadowsocks character; a key has its random bits, less 5 where it is clamped', async (t) => {
  t.equal(await entropyBits(t, 'vpn', { protocol: 'shadowsocks', length: 2 }), 12)
  t.equal(await entropyBits(t, 'vpn', { protocol: 'shadowsocks', length: 256 }), 1536)
  t.equal(await entropyBits(t, 'vpn', {}), 192)
  const keys = {
    '2022-blake3-aes-128-gcm': 128,
    '2022-blake3-aes-256-gcm': 256,
    '2022-blake3-chacha20-poly1305': 256,
    wireguard: 251,
    'wireguard-psk': 256,
    reality: 251,
    // A seed is all random, and FIPS 203/204 hash all of it: 64 and 32 bytes
    mlkem768: 512,
    mldsa65: 256,
    hex: 256
  }
  for (const [protocol, bits] of Object.entries(keys)) {
    t.equal(await entropyBits(t, 'vpn', { protocol }), bits, protocol)
    for (const length of [2, 256]) t.equal(await entropyBits(t, 'vpn', { protocol, length }), bits, `${protocol}: length is not used`)
  }
})

t.test('uuid: 122 for v4, 74 for v7, 80 for a ULID; length · log2 of the alphabet for compact identifiers', async (t) => {
  for (const [format, bits] of [['standard', 122], ['v7', 74], ['ulid', 80]] as const) {
    t.equal(await entropyBits(t, 'uuid', { format }), bits, format)
    t.equal(await entropyBits(t, 'uuid', { format, length: 2 }), bits, `${format}: length is not used`)
  }
  t.equal(await entropyBits(t, 'uuid', {}), 122)
  t.equal(await entropyBits(t, 'uuid', { format: 'urlsafe', length: 2 }), 12)
  t.equal(await entropyBits(t, 'uuid', { format: 'urlsafe', length: 256 }), 1536)
  t.equal(await entropyBits(t, 'uuid', { format: 'urlsafe' }), 192)
  const sizes = { numeric: 10, alpha: 52, alphanumeric: 62, urlsafe: 64 } as const
  for (const [format, size] of Object.entries(sizes)) {
    for (const length of [2, 3, 32, 255, 256]) {
      const bits = await entropyBits(t, 'uuid', { format, length })
      t.ok(isFloorOf(BigInt(size) ** BigInt(length), bits), `${format} ${length}: ${bits}`)
    }
  }
  // Rounded down, however close the product is to the next hundredth
  t.equal(await entropyBits(t, 'uuid', { format: 'numeric', length: 2 }), 6.64, '2 · log2(10) = 6.6439')
  t.equal(await entropyBits(t, 'uuid', { format: 'alpha', length: 2 }), 11.4, '2 · log2(52) = 11.4009')
  t.equal(await entropyBits(t, 'uuid', { format: 'alphanumeric', length: 2 }), 11.9, '2 · log2(62) = 11.9084')
  t.equal(await entropyBits(t, 'uuid', { format: 'numeric', length: 256 }), 850.41, '256 · log2(10) = 850.4135')
  t.equal(await entropyBits(t, 'uuid', { format: 'alpha', length: 256 }), 1459.31, '256 · log2(52) = 1459.3126')
  t.equal(await entropyBits(t, 'uuid', { format: 'alphanumeric', length: 256 }), 1524.27, '256 · log2(62) = 1524.2742')
})

t.test('phrase: words · 32 / 3 bits, in every language', async (t) => {
  for (const [words, bits] of [[12, 128], [15, 160], [18, 192], [21, 224], [24, 256]] as const) {
    t.equal(await entropyBits(t, 'phrase', { words }), bits)
    t.equal(await entropyBits(t, 'phrase', { words, language: 'japanese', separator: '\u3000' }), bits)
  }
  t.equal(await entropyBits(t, 'phrase', {}), 128)
})

t.test('seq: 8 bits per byte, whatever the encoding', async (t) => {
  for (const encoding of ['hex', 'base64', 'base64url', 'base32']) {
    t.equal(await entropyBits(t, 'seq', { byteLength: 2, encoding }), 16)
    t.equal(await entropyBits(t, 'seq', { byteLength: 256, encoding }), 2048)
  }
  t.equal(await entropyBits(t, 'seq', {}), 256)
})

t.test('short-id: 4 bits per hex character', async (t) => {
  t.equal(await entropyBits(t, 'short-id', { length: 2 }), 8)
  t.equal(await entropyBits(t, 'short-id', { length: 256 }), 1024)
  t.equal(await entropyBits(t, 'short-id', {}), 32)
})

// ---- password with symbolSet and exclude: the same counts over the sets as built (CONTRACT §2)

t.test('password with symbolSet and exclude: counted over the sets left', async (t) => {
  // A-Z less 5 vowels, a-z less 5 vowels, 0-9 less 0, the 8 symbols less @: 21, 21, 9, 7
  const params = { length: 16, symbolSet: '!@#$%^&*', exclude: 'AEIOUaeiou0@' }
  t.ok(isFloorOf(everySetPresent([21, 21, 9, 7], 16), await entropyBits(t, 'password', params)), 'every set present, by inclusion–exclusion')
  const minimums = { ...params, minUppercase: 3, minLowercase: 0, minNumbers: 4, minSymbols: 5 }
  t.ok(isFloorOf(byCompositions([{ size: 21, minimum: 3 }, { size: 21, minimum: 0 }, { size: 9, minimum: 4 }, { size: 7, minimum: 5 }], 16), await entropyBits(t, 'password', minimums)), 'general minimums, by compositions')
  // One symbol only, with avoidAmbiguous: 24 + 24 + 8 + 1
  t.ok(isFloorOf(everySetPresent([24, 24, 8, 1], 12), await entropyBits(t, 'password', { length: 12, symbolSet: '|~', avoidAmbiguous: true })), '| is a look-alike')
  t.equal(await entropyBits(t, 'password', { length: 40, uppercase: false, lowercase: false, numbers: false, symbolSet: '"' }), 0, 'one character: nothing random')
})

// ---- passphrase: 2,048 words from a BIP-39 list

t.test('passphrase with a BIP-39 list: 11 bits a word, plus log2(10 · words) with includeNumber', async (t) => {
  for (const wordList of ['bip39-english', 'bip39-japanese', 'bip39-korean']) {
    t.equal(await entropyBits(t, 'passphrase', { wordList, separator: ' ' }), 66, `${wordList}: 6 words`)
    t.equal(await entropyBits(t, 'passphrase', { wordList, separator: ' ', words: 20 }), 220)
    t.ok(isFloorOf(2048n ** 20n * 200n, await entropyBits(t, 'passphrase', { wordList, separator: ' ', words: 20, includeNumber: true })), 'with a digit')
  }
})

// ---- pin: all 10^length PINs, less the weak ones counted here (CONTRACT §2)

t.test('pin: log2 of the PINs allowed, the weak ones counted by the test', async (t) => {
  // Weak: a repeated block of every proper divisor length (distinct strings: inclusion by the
  // shortest block, from the divisors up), plus 2 · (11 - length) runs for length <= 10
  const weak = (length: number): bigint => {
    const primitive = new Map<number, bigint>()
    for (let d = 1; d <= length; d++) {
      if (length % d !== 0) continue
      let count = 10n ** BigInt(d)
      for (const [e, p] of primitive) if (d % e === 0) count -= p
      primitive.set(d, count)
    }
    return 10n ** BigInt(length) - (primitive.get(length) as bigint) + BigInt(2 * Math.max(0, 11 - length))
  }
  t.equal(weak(4), 114n, 'CONTRACT §2: 114 weak PINs of 4 digits')
  for (let length = 4; length <= 12; length++) {
    t.ok(isFloorOf(10n ** BigInt(length) - weak(length), await entropyBits(t, 'pin', { length })), `length ${length}, avoidWeak`)
    t.ok(isFloorOf(10n ** BigInt(length), await entropyBits(t, 'pin', { length, avoidWeak: false })), `length ${length}, all PINs`)
  }
  t.equal(await entropyBits(t, 'pin', {}), 19.92, 'defaults: log2(998,900) = 19.9300')
})

// ---- ssh-key and age-key

t.test('ssh-key: the 256 bits of the Ed25519 seed, whatever the comment', async (t) => {
  t.equal(await entropyBits(t, 'ssh-key', {}), 256)
  t.equal(await entropyBits(t, 'ssh-key', { comment: 'x'.repeat(64) }), 256)
})

t.test('age-key: 256 random bits less the 5 X25519 clamps', async (t) => {
  t.equal(await entropyBits(t, 'age-key', {}), 251)
})

// ---- token and totp

t.test('token: length · log2(62); prefix and checksum count nothing', async (t) => {
  for (const length of [16, 17, 30, 127, 128]) {
    const bits = await entropyBits(t, 'token', { length })
    t.ok(isFloorOf(62n ** BigInt(length), bits), `length ${length}: ${bits}`)
    t.equal(await entropyBits(t, 'token', { length, prefix: 'abcdefghijklmnop' }), bits, `length ${length}: the prefix is not random`)
  }
  t.equal(await entropyBits(t, 'token', {}), 178.62, '30 · log2(62) = 178.6258')
  t.equal(await entropyBits(t, 'token', { length: 16 }), 95.26, '16 · log2(62) = 95.2671')
  t.equal(await entropyBits(t, 'token', { length: 128 }), 762.13, '128 · log2(62) = 762.1371')
})

t.test('totp: 8 bits per secret byte; names, algorithm, digits and period count nothing', async (t) => {
  t.equal(await entropyBits(t, 'totp', {}), 160)
  t.equal(await entropyBits(t, 'totp', { byteLength: 16 }), 128)
  t.equal(await entropyBits(t, 'totp', { byteLength: 64 }), 512)
  t.equal(await entropyBits(t, 'totp', { byteLength: 33, issuer: 'Example', account: 'a', algorithm: 'SHA512', digits: 8, period: 300 }), 264)
})
