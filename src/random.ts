// The only module that touches the CSPRNG. Every choice among N options is uniform:
// bytes are drawn from node:crypto and values that would bias the result are rejected.
import { randomBytes as cryptoRandomBytes, randomFillSync, randomInt, randomUUID } from 'node:crypto'

/** `n` bytes from the CSPRNG. */
export function randomBytes (n: number): Buffer {
  return cryptoRandomBytes(n)
}

/** An RFC 9562 version 4 UUID, lowercase. */
export function uuidV4 (): string {
  return randomUUID()
}

// crypto.randomInt takes ranges below 2^48; wider spans use 64-bit draws with rejection.
const RANDOM_INT_LIMIT = 2n ** 48n
const TWO_POW_64 = 2n ** 64n

/** A uniform integer in [0, n) for any 1 <= n <= 2^64. */
export function randomBelow (n: bigint): bigint {
  if (n < 1n || n > TWO_POW_64) throw new RangeError('randomBelow: n must be in 1..2^64')
  if (n <= RANDOM_INT_LIMIT) return BigInt(randomInt(Number(n)))
  // Accept only draws below the largest multiple of n that fits in 64 bits, so every residue
  // is equally likely; since n > 2^48 at least half the draws are accepted.
  const limit = TWO_POW_64 - (TWO_POW_64 % n)
  const buffer = Buffer.allocUnsafe(8)
  for (;;) {
    const draw = randomFillSync(buffer).readBigUInt64BE(0)
    if (draw < limit) return draw % n
  }
}

/**
 * `length` characters drawn independently and uniformly from `alphabet` (2..256 distinct characters).
 * A random byte b is used only when b < 256 - (256 % size), so `b % size` is uniform.
 */
export function randomString (alphabet: string, length: number): string {
  const size = alphabet.length
  if (size < 2 || size > 256) throw new RangeError('randomString: alphabet must have 2..256 characters')
  const limit = 256 - (256 % size)
  // Draw a little more than needed so one fill usually suffices.
  const pool = Buffer.allocUnsafe(Math.ceil(length * 256 / limit) + 16)
  let out = ''
  while (out.length < length) {
    randomFillSync(pool)
    for (let i = 0; i < pool.length && out.length < length; i++) {
      const byte = pool[i] as number
      if (byte < limit) out += alphabet[byte % size]
    }
  }
  return out
}
