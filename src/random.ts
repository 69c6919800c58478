// The only module that touches the CSPRNG. Every choice among N options is uniform:
// bytes are drawn from node:crypto and values that would bias the result are rejected.
import { randomBytes as cryptoRandomBytes, randomFillSync, randomInt, randomUUID } from 'node:crypto'

// Small draws come from a pool that one randomFillSync call fills with POOL_SIZE bytes, instead
// of one CSPRNG call per value (Node does the same inside randomInt and randomUUID). Security:
// every pool byte comes from randomFillSync and is handed out at most once (`poolOffset` only
// moves forward until a refill overwrites the whole pool), so callers get exactly the independent
// uniform bytes direct calls would give; bytes handed out are zeroed in the pool, so no generated
// value outlives its draw there. The pool is private to this module, so to the process or worker
// thread; Node never forks a running process, so no two processes share its contents.
const POOL_SIZE = 4096
const pool = Buffer.alloc(POOL_SIZE)
let poolOffset = POOL_SIZE

/** The start of `n` (<= POOL_SIZE) unused pool bytes; the caller reads them, then calls `wipe`. */
function take (n: number): number {
  if (poolOffset + n > POOL_SIZE) {
    randomFillSync(pool)
    poolOffset = 0
  }
  const start = poolOffset
  poolOffset += n
  return start
}

function wipe (start: number, n: number): void {
  pool.fill(0, start, start + n)
}

/** `n` bytes from the CSPRNG (through the pool when small). */
export function randomBytes (n: number): Buffer {
  if (n > POOL_SIZE) return cryptoRandomBytes(n)
  const start = take(n)
  const bytes = Buffer.from(pool.subarray(start, start + n))
  wipe(start, n)
  return bytes
}

/** `n` bytes from a CSPRNG call made now, never from the pool: proof that the CSPRNG answers. */
export function freshRandomBytes (n: number): Buffer {
  return cryptoRandomBytes(n)
}

/** An RFC 9562 version 4 UUID, lowercase. */
export function uuidV4 (): string {
  return randomUUID()
}

// crypto.randomInt takes ranges below 2^48 (max <= 2^48 - 1); wider spans use 64-bit draws with rejection.
const RANDOM_INT_LIMIT = 2n ** 48n
const TWO_POW_64 = 2n ** 64n

/** A uniform integer in [0, n) for any 1 <= n <= 2^64. */
export function randomBelow (n: bigint): bigint {
  if (n < 1n || n > TWO_POW_64) throw new RangeError('randomBelow: n must be in 1..2^64')
  if (n < RANDOM_INT_LIMIT) return BigInt(randomInt(Number(n)))
  // Accept only draws below the largest multiple of n that fits in 64 bits, so every residue
  // is equally likely; since n >= 2^48 at least half the draws are accepted.
  const limit = TWO_POW_64 - (TWO_POW_64 % n)
  for (;;) {
    const start = take(8)
    const draw = pool.readBigUInt64BE(start)
    wipe(start, 8)
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
  let out = ''
  while (out.length < length) {
    // One byte per missing character; each rejected byte costs one more round for the rest
    const need = Math.min(length - out.length, POOL_SIZE)
    const start = take(need)
    for (let i = start; i < start + need; i++) {
      const byte = pool[i] as number
      if (byte < limit) out += alphabet[byte % size]
    }
    wipe(start, need)
  }
  return out
}
