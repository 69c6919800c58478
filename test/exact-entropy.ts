// The definition of `entropyBits` (CONTRACT §1.2), checked with exact integers only, so that no
// logarithm of the code under test, nor any rounding of ours, decides a verdict.

/**
 * Whether `bits` is floor(100 · log2(count)) / 100: a whole number h of hundredths with
 * 2^h <= count^100 < 2^(h+1). Both sides are integers, so the comparison is exact for any count.
 */
export function isFloorOf (count: bigint, bits: number): boolean {
  const h = Math.round(bits * 100)
  // Two decimals and nothing more (the double nearest h/100 is what `h / 100` gives)
  if (typeof bits !== 'number' || bits !== h / 100 || h < 0) return false
  const power = count ** 100n
  return (1n << BigInt(h)) <= power && power < (1n << BigInt(h + 1))
}
