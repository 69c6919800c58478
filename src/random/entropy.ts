// `entropyBits` of a result (CONTRACT §1.2): log2 of the number of equally likely outcomes one
// value is drawn from, rounded down to two decimals so that a strength is never overstated.

// A count is top · 2^shift + rest, with top its leading 53 bits and rest < 2^shift, so
// log2(count) = shift + log2(top) + (less than 2^-52). The whole bits `shift` are kept as an exact
// integer: added to log2(top) in floating point, a shift of a hundred thousand or more would round
// away the last hundredth. 100·log2(top) is below 5300, and a double holds it within ~1e-12; only
// a result this close to a whole number of hundredths can round the wrong way, and is then settled
// with exact integers.
const NEAR = 1e-9

/** floor(100 · log2(count)) / 100 for a count of equally likely outcomes (count >= 1). */
export function entropyBitsOf (count: bigint): number {
  if (count < 1n) throw new RangeError('entropyBitsOf: count must be at least 1')
  const shift = Math.max(0, count.toString(2).length - 53)
  const fraction = 100 * Math.log2(Number(count >> BigInt(shift)))
  const nearest = Math.round(fraction)
  if (Math.abs(fraction - nearest) < NEAR) {
    // The true value is within 2·NEAR of h hundredths, so its floor is h or h - 1, and exact
    // integers tell which: 2^(h / 100) <= count exactly when 2^h <= count^100
    const h = 100 * shift + nearest
    return ((1n << BigInt(h)) <= count ** 100n ? h : h - 1) / 100
  }
  return (100 * shift + Math.floor(fraction)) / 100
}

/**
 * entropyBitsOf(count(params)), worked out once for each `keyOf(params)`: results take their
 * entropy from a few parameters of a bounded range (the schema's), and BigInt counting on every
 * request would repeat work whose answer never changes.
 */
export function rememberedEntropyBits<P> (keyOf: (params: P) => string, count: (params: P) => bigint): (params: P) => number {
  const remembered = new Map<string, number>()
  return (params) => {
    const key = keyOf(params)
    let bits = remembered.get(key)
    if (bits === undefined) {
      bits = entropyBitsOf(count(params))
      remembered.set(key, bits)
    }
    return bits
  }
}

// Values of `length` characters from an alphabet of `size`: a few hundred (size, length) pairs
// occur. A key that cannot collide, whatever the length (size · 65536 + length would for lengths >= 65536)
const stringBits = rememberedEntropyBits<[number, number]>(([size, length]) => `${size}^${length}`, ([size, length]) => BigInt(size) ** BigInt(length))

/** entropyBitsOf(size^length), remembered: `length` independent uniform characters from `size`. */
export function entropyBitsOfString (size: number, length: number): number {
  return stringBits([size, length])
}
