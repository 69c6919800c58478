// CONTRACT §1.2: entropyBits is floor(100 · log2(count)) / 100, exactly: never overstated, and not
// understated either. Every verdict here comes from the definition in exact integers
// (test/exact-entropy.ts: 2^h <= count^100 < 2^(h+1)), never from a logarithm.
import t from 'tap'
import { entropyBitsOf, entropyBitsOfString } from '../../../src/random/entropy.js'
import { isFloorOf } from '../../exact-entropy.js'

/** floor(n^(1/k)) by Newton's method on integers, started above the root. */
function integerRoot (n: bigint, k: bigint): bigint {
  let x = 1n << (BigInt(n.toString(2).length) / k + 1n)
  for (;;) {
    const next = ((k - 1n) * x + n / x ** (k - 1n)) / k
    if (next >= x) return x
    x = next
  }
}

// Bits kept below the binary point of 2^(h/100): enough that the counts built from them are as
// close to the boundary as a double can tell apart, and far closer
const GUARD = 256

/**
 * The counts on either side of 2^(h/100) (h not a multiple of 100): `below` has
 * 100 · log2 just under h, `above` just over it. Beyond 2^GUARD they are the root of
 * 2^(h mod 100 + 100 · GUARD) shifted left, so h may be in the millions.
 */
function around (h: number): { below: bigint, above: bigint } {
  const whole = Math.floor(h / 100)
  if (whole < GUARD) {
    const root = integerRoot(1n << BigInt(h), 100n)
    return { below: root, above: root + 1n }
  }
  const root = integerRoot(1n << BigInt(h % 100 + 100 * GUARD), 100n)
  const shift = BigInt(whole - GUARD)
  return { below: root << shift, above: (root + 1n) << shift }
}

t.test('count 1 is 0 bits; a count below 1 is refused', async (t) => {
  t.equal(entropyBitsOf(1n), 0)
  for (const count of [0n, -1n, -(2n ** 2000n)]) t.throws(() => entropyBitsOf(count), RangeError, String(count).slice(0, 12))
})

t.test('small counts, every one from 1 to 5000', async (t) => {
  let wrong = 0
  for (let n = 1n; n <= 5000n; n++) if (!isFloorOf(n, entropyBitsOf(n))) wrong++
  t.equal(wrong, 0)
})

t.test('powers of two are whole numbers of bits, up to 2^20000', async (t) => {
  const exponents = [...Array.from({ length: 1200 }, (_, k) => k), 2047, 2048, 4096, 8191, 8192, 20_000]
  const wrong = exponents.filter((k) => {
    const bits = entropyBitsOf(1n << BigInt(k))
    return !Number.isInteger(bits) || bits !== k
  })
  t.same(wrong, [])
})

t.test('just below and just above a power of two', async (t) => {
  const exponents = [...Array.from({ length: 200 }, (_, k) => k + 1), 256, 511, 512, 1023, 1024, 1025, 2047, 2048, 3000, 4096]
  for (const k of exponents) {
    const power = 1n << BigInt(k)
    const below = entropyBitsOf(power - 1n)
    const above = entropyBitsOf(power + 1n)
    t.ok(isFloorOf(power - 1n, below), `2^${k} - 1: ${below}`)
    t.ok(isFloorOf(power + 1n, above), `2^${k} + 1: ${above}`)
    // From 2^8 on, 100 · log2(1 ± 2^-k) is within one hundredth of 0
    if (k >= 8) t.same([below, above], [k - 0.01, k], `2^${k} ± 1`)
  }
})

t.test('powers of ten, 10^1 .. 10^400', async (t) => {
  const wrong: number[] = []
  for (let n = 1; n <= 400; n++) if (!isFloorOf(10n ** BigInt(n), entropyBitsOf(10n ** BigInt(n)))) wrong.push(n)
  t.same(wrong, [])
  // log2(10) = 3.3219280948...: 10^3 is 9.965784 bits, 10^100 is 332.19280948 bits
  t.equal(entropyBitsOf(1000n), 9.96)
  t.equal(entropyBitsOf(10n ** 100n), 332.19)
})

t.test('powers n^k whose 100 · log2 lies closest to a whole hundredth', async (t) => {
  // A search over odd n < 2000 and k <= 1000 (even n only repeat an odd one's fraction); the double
  // computed here only picks candidates, the verdict on each is exact
  const candidates: Array<{ n: number, k: number, distance: number }> = []
  for (let n = 3; n < 2000; n += 2) {
    const log = Math.log2(n)
    for (let k = 1; k <= 1000; k++) {
      const hundredths = 100 * k * log
      const distance = hundredths - Math.round(hundredths)
      if (Math.abs(distance) < 1e-4) candidates.push({ n, k, distance })
    }
  }
  const closest = (side: number) => candidates
    .filter(({ distance }) => Math.sign(distance) === side)
    .sort((a, b) => Math.abs(a.distance) - Math.abs(b.distance))
    .slice(0, 12)
  const picked = [...closest(-1), ...closest(1)]
  t.equal(picked.length, 24)
  t.ok(picked.every(({ distance }) => Math.abs(distance) < 2e-5), 'each within 2e-5 hundredths of a boundary')
  t.ok(Math.abs(closest(-1)[0]?.distance ?? 1) < 1e-6 && Math.abs(closest(1)[0]?.distance ?? 1) < 2e-6, 'the closest within 2e-6')
  for (const { n, k, distance } of picked) {
    const count = BigInt(n) ** BigInt(k)
    const bits = entropyBitsOf(count)
    t.ok(isFloorOf(count, bits), `${n}^${k}: ${bits} (${distance.toExponential(2)} hundredths from the boundary)`)
  }
})

t.test('the closest counts there are on either side of a hundredth', async (t) => {
  // Around 2^64 (beyond a double's 53 bits), 2^1024 (beyond Number.MAX_VALUE) and 2^2048
  const boundaries = [
    ...Array.from({ length: 99 }, (_, i) => 6401 + i),
    ...Array.from({ length: 50 }, (_, i) => 102_401 + i),
    ...Array.from({ length: 20 }, (_, i) => 204_801 + i)
  ]
  const wrong: string[] = []
  for (const h of boundaries) {
    if (h % 100 === 0) continue
    const { below, above } = around(h)
    const low = entropyBitsOf(below)
    const high = entropyBitsOf(above)
    if (!isFloorOf(below, low) || low !== (h - 1) / 100) wrong.push(`below ${h}: ${low}`)
    if (!isFloorOf(above, high) || high !== h / 100) wrong.push(`above ${h}: ${high}`)
  }
  t.same(wrong, [])
})

t.test('counts of millions of bits: a double cannot hold 100 · log2 to a hundredth', async (t) => {
  // Near 2^132000, 100 · log2 is about 1.3e7, where doubles are 2^-29 apart: added up in floating
  // point, the whole bits and the fraction lose the last hundredth. These boundaries are ones where
  // that rounding lands on the wrong side (found by search: the count below 2^(13200014/100) came
  // out a hundredth high, the count above 2^(13200002/100) a hundredth low)
  for (const h of [13_200_014, 13_200_002]) {
    const { below, above } = around(h)
    const low = entropyBitsOf(below)
    t.ok(isFloorOf(below, low), `just below 2^(${h}/100): ${low}`)
    t.equal(low, (h - 1) / 100)
    const high = entropyBitsOf(above)
    t.ok(isFloorOf(above, high), `just above 2^(${h}/100): ${high}`)
    t.equal(high, h / 100)
  }
})

t.test('counts far beyond 2^1024, where Number(count) is Infinity', async (t) => {
  const counts: Array<[string, bigint]> = [
    ['2^1024 - 1', 2n ** 1024n - 1n],
    ['2^1024 + 1', 2n ** 1024n + 1n],
    ['3 · 2^1024', 3n * 2n ** 1024n],
    ['3^1000', 3n ** 1000n],
    ['7^2000', 7n ** 2000n],
    ['10^500', 10n ** 500n],
    ['95^160', 95n ** 160n],
    ['62^256', 62n ** 256n],
    ['(2^4000 + 1)^2', (2n ** 4000n + 1n) ** 2n]
  ]
  for (const [name, count] of counts) {
    t.equal(Number(count), Infinity, `${name} overflows a double`)
    const bits = entropyBitsOf(count)
    t.ok(isFloorOf(count, bits), `${name}: ${bits}`)
  }
  t.equal(entropyBitsOf(2n ** 1024n - 1n), 1023.99)
  t.equal(entropyBitsOf(2n ** 1024n + 1n), 1024)
})

t.test('entropyBitsOfString(size, length) is the entropy of size^length', async (t) => {
  for (const size of [1, 2, 8, 10, 16, 24, 26, 27, 36, 52, 62, 64, 83, 90, 95]) {
    for (const length of [0, 1, 2, 3, 6, 20, 32, 100, 128, 255, 256]) {
      const bits = entropyBitsOfString(size, length)
      t.ok(isFloorOf(BigInt(size) ** BigInt(length), bits), `${size}^${length}: ${bits}`)
      t.equal(entropyBitsOfString(size, length), bits, 'the same when asked again')
    }
  }
  for (const length of [2, 32, 256]) {
    t.equal(entropyBitsOfString(64, length), 6 * length)
    t.equal(entropyBitsOfString(16, length), 4 * length)
    t.equal(entropyBitsOfString(1, length), 0)
  }
  t.equal(entropyBitsOfString(10, 2), 6.64, 'log2(100) = 6.6439')
  t.equal(entropyBitsOfString(62, 22), 130.99, '22 · log2(62) = 130.9923')
})

t.test('entropyBitsOfString: each (size, length) remembered apart, whatever the length', async (t) => {
  // Asked for in this order, a key built as size · 65536 + length would answer 2^65541 with what
  // it remembered for 3^5, and 1^131079 with 3^7
  t.equal(entropyBitsOfString(3, 5), 7.92)
  t.equal(entropyBitsOfString(2, 65_541), 65_541)
  t.equal(entropyBitsOfString(3, 7), 11.09)
  t.equal(entropyBitsOfString(1, 131_079), 0)
})
