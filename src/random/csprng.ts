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
// Size: each randomFillSync call costs ~3.5 µs before its first byte and ~0.2 ns per byte after
// (Node 20), so 64 KiB refills cost a quarter per byte of what 4 KiB ones did; a request for 50
// values of 128 characters draws ~10 KB.
export const POOL_SIZE = 65_536
const poolMemory = new ArrayBuffer(POOL_SIZE)
const pool = Buffer.from(poolMemory)
// The same memory as 64-bit words, read without Buffer's per-byte assembly, and as a plain byte
// array, whose fill skips Buffer.fill's argument handling
const poolWords = new BigUint64Array(poolMemory)
const poolBytes = new Uint8Array(poolMemory)
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
  poolBytes.fill(0, start, start + n)
}

/** A uniform 64-bit value from the pool, wiped there. */
function takeWord (): bigint {
  // Words start at a multiple of 8; the up to 7 bytes skipped are never handed out, and are
  // wiped all the same, so every pool byte before `poolOffset` is zero (test/src/random/wipe.test.ts)
  const aligned = (poolOffset + 7) & ~7
  wipe(poolOffset, aligned - poolOffset)
  poolOffset = aligned
  const index = take(8) >> 3
  const word = poolWords[index] as bigint
  poolWords[index] = 0n
  return word
}

/** `n` bytes from the CSPRNG (through the pool when small). */
export function randomBytes (n: number): Buffer {
  if (n > POOL_SIZE) return cryptoRandomBytes(n)
  const start = take(n)
  const bytes = Buffer.from(pool.subarray(start, start + n))
  wipe(start, n)
  return bytes
}

/**
 * `quantity` values, each encoded from its own `byteLength` bytes of one draw; the draw is wiped
 * once encoded. Disjoint bytes of a uniform draw are independent, so the values are too.
 */
export function randomChunks (byteLength: number, quantity: number, encode: (bytes: Buffer, start: number, end: number) => string): string[] {
  const bytes = randomBytes(byteLength * quantity)
  const values: string[] = []
  for (let start = 0; values.length < quantity; start += byteLength) values.push(encode(bytes, start, start + byteLength))
  bytes.fill(0)
  return values
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
  // Accept a draw only if its whole block of n values [draw - draw % n, that + n) fits below 2^64,
  // that is below the largest multiple of n that fits in 64 bits, so every residue is equally
  // likely (checked by subtraction: cheaper than 2^64 % n); since n >= 2^48 at least half the
  // draws are accepted.
  const lastBlockStart = TWO_POW_64 - n
  for (;;) {
    const draw = takeWord()
    const value = draw % n
    if (draw - value <= lastBlockStart) return value
  }
}

/** A uniform integer in [0, n) for any n >= 1, however large (password counts reach 2^840). */
export function randomBigBelow (n: bigint): bigint {
  if (n <= TWO_POW_64) return randomBelow(n)
  // Draw as many bits as n - 1 has and reject values >= n: at least half of the draws are accepted
  const bits = (n - 1n).toString(2).length
  const byteCount = Math.ceil(bits / 8)
  const excess = BigInt(byteCount * 8 - bits)
  for (;;) {
    const start = take(byteCount)
    const draw = BigInt('0x' + pool.toString('hex', start, start + byteCount)) >> excess
    wipe(start, byteCount)
    if (draw < n) return draw
  }
}

/** A uniform integer in [0, n) for 1 <= n <= 65,536, from 16 pool bits with rejection. */
function randomIndex (n: number): number {
  const limit = 65_536 - (65_536 % n)
  for (;;) {
    const start = take(2)
    const draw = (poolBytes[start] as number) << 8 | (poolBytes[start + 1] as number)
    wipe(start, 2)
    if (draw < limit) return draw % n
  }
}

/**
 * The characters of `text` (Latin-1) in a uniformly random order: Fisher–Yates, each position
 * swapped with one chosen uniformly among those not yet placed, so each of the n! orders is
 * equally likely.
 */
export function shuffle (text: string): string {
  const codes = Buffer.from(text, 'latin1')
  for (let i = codes.length - 1; i > 0; i--) {
    const j = randomIndex(i + 1)
    const swapped = codes[i] as number
    codes[i] = codes[j] as number
    codes[j] = swapped
  }
  const shuffled = codes.toString('latin1')
  codes.fill(0)
  return shuffled
}

// Per alphabet, the character code each accepted byte stands for; the few alphabets in use are
// kept, and the cache is emptied if a caller ever passes many
const CODE_TABLES = new Map<string, Uint8Array>()
const MAX_CODE_TABLES = 64

function codeTable (alphabet: string): Uint8Array {
  let table = CODE_TABLES.get(alphabet)
  if (table === undefined) {
    table = new Uint8Array(256)
    for (let byte = 0; byte < 256; byte++) {
      const code = alphabet.charCodeAt(byte % alphabet.length)
      if (code > 255) throw new RangeError('randomString: alphabet must be Latin-1 characters')
      table[byte] = code
    }
    if (CODE_TABLES.size >= MAX_CODE_TABLES) CODE_TABLES.clear()
    CODE_TABLES.set(alphabet, table)
  }
  return table
}

/**
 * `length` characters drawn independently and uniformly from `alphabet` (2..256 distinct Latin-1
 * characters). A random byte b is used only when b < 256 - (256 % size), so `b % size` is uniform;
 * the result is the first `length` accepted bytes of the stream, so how many bytes are drawn ahead
 * (enough for the expected acceptance rate, plus a few) changes the cost, never the distribution.
 */
export function randomString (alphabet: string, length: number): string {
  const size = alphabet.length
  if (size < 2 || size > 256) throw new RangeError('randomString: alphabet must have 2..256 characters')
  const limit = 256 - (256 % size)
  const table = codeTable(alphabet)
  let out = ''
  while (out.length < length) {
    const missing = length - out.length
    const drawn = Math.min(Math.ceil(missing * 256 / limit) + 4, POOL_SIZE)
    const start = take(drawn)
    // Accepted characters are written over the bytes already read (end <= i), decoded in one go,
    // and wiped with the rest of the draw. Without a branch: every byte's character is written at
    // `end`, which moves on only if the byte is accepted ((byte - limit) >>> 31 is 1 exactly when
    // byte < limit), so a rejected byte's character is overwritten or left past the end. A branch
    // taken at random 30% of the time costs more than the rest of the loop.
    let end = start
    const stop = start + missing
    const last = start + drawn
    for (let i = start; i < last && end < stop; i++) {
      const byte = poolBytes[i] as number
      poolBytes[end] = table[byte] as number
      end += (byte - limit) >>> 31
    }
    out += pool.toString('latin1', start, end)
    wipe(start, drawn)
  }
  return out
}

/**
 * `quantity` strings of `length` characters, each as `randomString` makes it: one draw cut into
 * pieces. The characters are independent and uniform, so disjoint pieces are too.
 */
export function randomStrings (alphabet: string, length: number, quantity: number): string[] {
  const all = randomString(alphabet, length * quantity)
  const values: string[] = []
  for (let start = 0; values.length < quantity; start += length) values.push(all.slice(start, start + length))
  return values
}
