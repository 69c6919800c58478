import t from 'tap'
import { randomBelow, randomBytes, randomString, uuidV4 } from '../../../src/random/csprng.js'

t.test('randomBytes and uuidV4', async (t) => {
  t.equal(randomBytes(0).length, 0)
  t.equal(randomBytes(33).length, 33)
  t.equal(randomBytes(5000).length, 5000, 'larger than any pool')
  t.not(randomBytes(16).toString('hex'), randomBytes(16).toString('hex'), 'two draws differ (2^-128 to fail)')
  t.match(uuidV4(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
})

t.test('randomBelow: n up to 2^48 (crypto.randomInt)', async (t) => {
  t.equal(randomBelow(1n), 0n)
  for (const n of [2n, 7n, 1000n, 2n ** 32n, 2n ** 48n - 1n, 2n ** 48n]) {
    const draws = Array.from({ length: 200 }, () => randomBelow(n))
    t.ok(draws.every((v) => typeof v === 'bigint' && v >= 0n && v < n), `in [0, ${n})`)
  }
  // Both values of n = 2 appear (probability of failing: 2^-199)
  t.same(new Set(Array.from({ length: 200 }, () => randomBelow(2n))), new Set([0n, 1n]))
})

t.test('randomBelow: n beyond 2^48 (64-bit draws with rejection)', async (t) => {
  for (const n of [2n ** 48n + 1n, 2n ** 53n + 3n, 2n ** 63n + 1n, 2n ** 64n]) {
    const draws = Array.from({ length: 300 }, () => randomBelow(n))
    t.ok(draws.every((v) => v >= 0n && v < n), `in [0, ${n})`)
    // 300 uniform draws all in the lower half: probability 2^-300
    t.ok(draws.some((v) => v >= n / 2n), `reaches the upper half of [0, ${n})`)
  }
})

t.test('randomBelow: bounds', async (t) => {
  for (const n of [0n, -1n, 2n ** 64n + 1n]) {
    t.throws(() => randomBelow(n), { name: 'RangeError', message: 'randomBelow: n must be in 1..2^64' }, String(n))
  }
})

t.test('randomString: alphabet sizes 2..256', async (t) => {
  for (const size of [2, 3, 10, 26, 28, 52, 62, 64, 100, 128, 129, 200, 255, 256]) {
    const alphabet = Array.from({ length: size }, (_, i) => String.fromCharCode(i)).join('')
    for (const length of [0, 1, 7, 300, 5000]) {
      const value = randomString(alphabet, length)
      t.equal(value.length, length, `size ${size}, length ${length}`)
      t.ok([...value].every((c) => c.charCodeAt(0) < size), 'only alphabet characters')
    }
    // For size <= 64, 2000 draws miss some character with probability < 64 * (63/64)^2000 < 1e-11
    if (size <= 64) t.equal(new Set(randomString(alphabet, 2000)).size, size, `every character of ${size} appears`)
  }
})

t.test('randomString: alphabet size errors', async (t) => {
  const wanted = { name: 'RangeError', message: 'randomString: alphabet must have 2..256 characters' }
  t.throws(() => randomString('', 5), wanted)
  t.throws(() => randomString('a', 5), wanted)
  t.throws(() => randomString('x'.repeat(257), 5), wanted)
  t.throws(() => randomString('ab€', 5), { name: 'RangeError', message: 'randomString: alphabet must be Latin-1 characters' })
})

t.test('randomString: many alphabets in turn (the per-alphabet tables are bounded and rebuilt)', async (t) => {
  // 200 alphabets of two characters, each used twice, far more than the table cache holds
  const alphabets = Array.from({ length: 200 }, (_, i) => String.fromCharCode(32 + (i % 100), 140 + (i % 100)))
  const wrong = alphabets.filter((alphabet) => {
    const value = randomString(alphabet, 64)
    // Both characters appear unless 64 fair bits are all equal: probability 2^-63 per alphabet
    return value.length !== 64 || [...value].some((c) => !alphabet.includes(c)) || new Set(value).size !== 2
  })
  t.same(wrong, [])
})
