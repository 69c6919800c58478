import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { base32crockford } from '@scure/base'
import { v7 } from 'uuid'
import { UuidParams, UuidResult } from '../schemas/uuid.js'
import { entropyBitsOfString } from '../src/random/entropy.js'
import { CROCKFORD_BASE32, DIGITS, HEX, LETTERS } from '../src/random/alphabets.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { randomChunks, randomStrings, uuidV4 } from '../src/random/csprng.js'
import { repeat } from '../src/random/repeat.js'
import { URL_SAFE_ALPHABET } from './vpn.js'

type Params = Static<typeof UuidParams>
type CompactFormat = Exclude<Params['format'], 'standard' | 'v7' | 'ulid'>

export const COMPACT_ALPHABETS: Record<CompactFormat, string> = {
  numeric: DIGITS,
  alpha: LETTERS,
  alphanumeric: LETTERS + DIGITS,
  // nanoid's 64 characters (in another order), the same as a Shadowsocks password's: 256 is a
  // multiple of 64, so no byte is rejected
  urlsafe: URL_SAFE_ALPHABET
}

/** Every character of a value: canonical UUIDs (lowercase hex and dashes), ULIDs, the compact formats. */
export const UUID_ALPHABET = HEX + '-' + CROCKFORD_BASE32 + Object.values(COMPACT_ALPHABETS).join('')

/**
 * The values `draw` makes, sorted, if no two are equal; otherwise a whole new draw.
 * Why the random bits stay uniform: the draws are independent and uniform, and a draw is kept
 * only if its values are distinct, so what is kept is a uniformly random set of distinct values
 * (nothing favours one set over another). Sorting depends on that set alone and changes no
 * member of it; it only forgets the order of drawing, which carried nothing about the values. So
 * a value picked from a response without regard to its rank is uniform over all 2^74 (or 2^80).
 * Rank alone says something (the first of 50 values tends to be small), so a statistical test
 * must pool the values of a response, not compare them by rank.
 * Lexicographic order is numeric order here: every value has the same length, with digits in
 * code-point order (lowercase hex with dashes at fixed places; Crockford's alphabet is ASCII-sorted).
 */
export function strictlyAscending (draw: () => string[]): string[] {
  for (;;) {
    const values = draw().sort()
    // Equal values (for 50 v7s, 1225 pairs of 74 random bits: about 2^-64) are redrawn, never
    // bumped: a bumped value would carry a counter, not random bits
    if (values.every((value, i) => i === 0 || (values[i - 1] as string) < value)) return values
  }
}

/**
 * The UUIDv7 of Unix millisecond `msecs` whose 74 random bits are taken from `bytes[start, start + 16)`.
 * `uuid` lays out the fields. Given `random` and no `seq`, its v7 fills the 32 bits after the
 * version from a 31-bit "sequence" read out of the random bytes, so the first of them is always 0
 * (room for a counter; the package's own clock state, used when no options are given, makes
 * them a counter within a millisecond). Passing `seq` as the full 32-bit big-endian value of
 * bytes 6..9 makes all of them random: `seq` gives 32 bits (12 of rand_a, 20 of rand_b),
 * byte 10 its low 2 bits, bytes 11..15 the last 40; bytes 0..5 and the rest of byte 10 are unused.
 */
export function uuidV7Of (bytes: Buffer, start: number, msecs: number): string {
  return v7({ random: bytes.subarray(start, start + 16), msecs, seq: bytes.readUInt32BE(start + 6) })
}

/** `quantity` UUIDv7s made at Unix millisecond `msecs`, strictly ascending. */
export function uuidV7s (quantity: number, msecs: number): string[] {
  return strictlyAscending(() => randomChunks(16, quantity, (bytes, start) => uuidV7Of(bytes, start, msecs)))
}

// A ULID is a 128-bit number written as 26 base-32 digits, right-aligned: the first digit carries
// only 3 bits. base32crockford packs from the left, 5 bits at a time, so 4 zero bytes go in front:
// 32 + 48 + 80 = 160 bits are exactly 32 digits, of which the first 6 (30 zero bits) are dropped,
// leaving 2 zero bits, the 48-bit time and the 80 random bits in the ULID's own alignment.
const ULID_LEAD = 4
const ULID_DROPPED = 6

/** `quantity` ULIDs made at Unix millisecond `msecs`, strictly ascending. */
export function ulids (quantity: number, msecs: number): string[] {
  const layout = Buffer.alloc(ULID_LEAD + 6 + 10)
  layout.writeUIntBE(msecs, ULID_LEAD, 6)
  const values = strictlyAscending(() => randomChunks(10, quantity, (bytes, start, end) => {
    bytes.copy(layout, ULID_LEAD + 6, start, end)
    return base32crockford.encode(layout).slice(ULID_DROPPED)
  }))
  layout.fill(0)
  return values
}

/**
 * `now`: the Unix time in milliseconds that v7 and ulid values carry, read once, so every value of
 * a response has the same time and only its random bits order it.
 */
export function generateUuids ({ format, length, quantity }: Params, now = Date.now()): string[] {
  switch (format) {
    case 'standard': return repeat(quantity, uuidV4)
    case 'v7': return uuidV7s(quantity, now)
    case 'ulid': return ulids(quantity, now)
    default: return randomStrings(COMPACT_ALPHABETS[format], length, quantity)
  }
}

/**
 * A v4 UUID fixes 6 of its 128 bits (version and variant); a v7 fixes those 6 and 48 bits of
 * time, which is no secret; a ULID's 48 time bits likewise, the other 80 random. Compact IDs are
 * uniform characters (urlsafe: exactly 6 bits each).
 */
export function uuidEntropyBits ({ format, length }: Params): number {
  switch (format) {
    case 'standard': return 122
    case 'v7': return 74
    case 'ulid': return 80
    default: return entropyBitsOfString(COMPACT_ALPHABETS[format].length, length)
  }
}

export default fp(async function uuidGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'uuid',
    name: 'Uuid',
    summary: 'Generate UUIDs, ULIDs or compact identifiers',
    description: 'standard: RFC 9562 UUID version 4, lowercase (36 characters); ' +
      'v7: RFC 9562 UUID version 7, lowercase (36 characters): the Unix time in milliseconds when it was made, then 74 random bits; ' +
      'ulid: 26 upper-case Crockford Base32 characters: the millisecond time, then 80 random bits; ' +
      'numeric, alpha, alphanumeric, urlsafe: `length` characters, each uniform over 0-9, A-Z a-z, A-Z a-z 0-9, or A-Z a-z 0-9 _ -. ' +
      'The v7 or ulid values of one response are in strictly ascending order; `entropyBits` counts only their random bits.',
    params: UuidParams,
    result: UuidResult,
    alphabet: UUID_ALPHABET,
    generate: (params) => ({ values: generateUuids(params), entropyBits: uuidEntropyBits(params) })
  })
}, { name: 'generator-uuid', dependencies: ['errors'] })
