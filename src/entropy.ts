// `entropyBits` of a result (CONTRACT §1.2): log2 of the number of equally likely outcomes one
// value is drawn from, rounded down to two decimals so that a strength is never overstated.

// A double's log2 of the top 53 bits is within ~1e-13 of the truth for counts up to 2^2048, so
// 100·log2 is within ~1e-11; only a result this close to a whole number of hundredths can round
// the wrong way, and is then settled with exact integers.
const NEAR = 1e-9

/** log2(n) for n >= 1, to double precision (n may be far beyond Number.MAX_VALUE). */
function log2 (n: bigint): number {
  const shift = Math.max(0, n.toString(2).length - 53)
  return Math.log2(Number(n >> BigInt(shift))) + shift
}

/** Whether 2^(hundredths / 100) <= n, exactly: 2^hundredths <= n^100. */
function reaches (n: bigint, hundredths: number): boolean {
  return hundredths % 100 === 0
    ? 1n << BigInt(hundredths / 100) <= n
    : 1n << BigInt(hundredths) <= n ** 100n
}

/** floor(100 · log2(count)) / 100 for a count of equally likely outcomes (count >= 1). */
export function entropyBitsOf (count: bigint): number {
  if (count < 1n) throw new RangeError('entropyBitsOf: count must be at least 1')
  const estimate = 100 * log2(count)
  let hundredths = Math.floor(estimate)
  if (estimate - hundredths < NEAR || hundredths + 1 - estimate < NEAR) {
    while (!reaches(count, hundredths)) hundredths--
    while (reaches(count, hundredths + 1)) hundredths++
  }
  return hundredths / 100
}

// Values of `length` characters from an alphabet of `size`: a few hundred (size, length) pairs
// occur, so each is worked out once
const POWERS = new Map<number, number>()

/** entropyBitsOf(size^length), remembered: `length` independent uniform characters from `size`. */
export function entropyBitsOfString (size: number, length: number): number {
  const key = size * 65_536 + length
  let bits = POWERS.get(key)
  if (bits === undefined) {
    bits = entropyBitsOf(BigInt(size) ** BigInt(length))
    POWERS.set(key, bits)
  }
  return bits
}
