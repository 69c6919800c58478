// The pool behind src/random.ts: draws of every size, across refills, never hand out a byte twice.
import t from 'tap'
import { freshRandomBytes, randomBelow, randomBytes, randomString } from '../../src/random.js'

t.test('randomBytes: small draws come from the pool, large ones straight from the CSPRNG', async (t) => {
  t.equal(randomBytes(0).length, 0)
  t.equal(randomBytes(32).length, 32)
  t.equal(randomBytes(4096).length, 4096)
  t.equal(randomBytes(4097).length, 4097, 'over the pool size')
  t.equal(freshRandomBytes(16).length, 16)
})

t.test('randomBytes: no byte handed out twice, across many refills', async (t) => {
  // 64 draws of 200 bytes cross three 4 KiB refills; two equal 16-byte windows from distinct
  // positions of a CSPRNG stream have probability about 2^-128 per pair, so any match is a reused byte
  const seen = new Set<string>()
  for (let i = 0; i < 64; i++) {
    const bytes = randomBytes(200)
    t.equal(bytes.length, 200)
    for (let at = 0; at + 16 <= 200; at += 16) seen.add(bytes.toString('hex', at, at + 16))
  }
  t.equal(seen.size, 64 * 12)
})

t.test('randomBytes: a returned buffer is the caller\'s own copy', async (t) => {
  const first = randomBytes(32)
  const copy = Buffer.from(first)
  randomBytes(4096)
  t.same(first, copy, 'later draws and refills leave earlier results alone')
})

t.test('randomString longer than the pool', async (t) => {
  t.match(randomString('0123456789', 10_000), /^[0-9]{10000}$/)
})

t.test('randomBelow over 2^48 draws 64-bit values from the pool', async (t) => {
  const n = 2n ** 60n + 12_345n
  const values = Array.from({ length: 1000 }, () => randomBelow(n))
  t.equal(values.filter((value) => value < 0n || value >= n).length, 0, 'all in [0, n)')
  t.equal(new Set(values).size, 1000, 'no repeats (chance of any about 2^-41)')
})
