// The pool behind src/random/csprng.ts: draws of every size, across refills, never hand out a byte twice.
import t from 'tap'
import { POOL_SIZE, freshRandomBytes, randomBelow, randomBytes, randomString } from '../../../src/random/csprng.js'

t.test('randomBytes: small draws come from the pool, large ones straight from the CSPRNG', async (t) => {
  t.equal(randomBytes(0).length, 0)
  t.equal(randomBytes(32).length, 32)
  t.equal(randomBytes(POOL_SIZE).length, POOL_SIZE)
  t.equal(randomBytes(POOL_SIZE + 1).length, POOL_SIZE + 1, 'over the pool size')
  t.equal(freshRandomBytes(16).length, 16)
})

t.test('randomBytes: no byte handed out twice, across many refills', async (t) => {
  // Draws of an odd size that add up to three pools cross at least two refills; two equal 16-byte
  // windows from distinct positions of a CSPRNG stream have probability about 2^-128 per pair, so
  // any match is a reused byte
  const size = 16 * 125 + 7
  const draws = Math.ceil(3 * POOL_SIZE / size)
  const seen = new Set<string>()
  let lengths = 0
  for (let i = 0; i < draws; i++) {
    const bytes = randomBytes(size)
    lengths += bytes.length
    for (let at = 0; at + 16 <= size; at += 16) seen.add(bytes.toString('hex', at, at + 16))
  }
  t.equal(lengths, draws * size)
  t.equal(seen.size, draws * 125)
})

t.test('randomBytes: a returned buffer is the caller\'s own copy', async (t) => {
  const first = randomBytes(32)
  const copy = Buffer.from(first)
  randomBytes(POOL_SIZE)
  t.same(first, copy, 'later draws and refills leave earlier results alone')
})

t.test('randomString longer than the pool', async (t) => {
  const value = randomString('0123456789', POOL_SIZE + 1000)
  t.equal(value.length, POOL_SIZE + 1000)
  t.match(value, /^[0-9]+$/)
})

t.test('randomBelow over 2^48 draws 64-bit values from the pool', async (t) => {
  const n = 2n ** 60n + 12_345n
  const values = Array.from({ length: 1000 }, () => randomBelow(n))
  t.equal(values.filter((value) => value < 0n || value >= n).length, 0, 'all in [0, n)')
  t.equal(new Set(values).size, 1000, 'no repeats (chance of any about 2^-41)')
})
