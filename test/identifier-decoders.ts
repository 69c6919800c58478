// Decoders of UUIDv7 and ULID strings written for the tests, independent of the code under test
// (neither `uuid` nor @scure/base): each value becomes its bits as a '0'/'1' string, read digit
// by digit, so what a test checks is the string the client receives.

/** The ULID alphabet (Crockford's Base32: no I, L, O, U), in value order. */
export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

// Per alphabet, the bits of each digit by character code: the statistical tests decode millions of digits
const DIGIT_BITS = new Map<string, Array<string | undefined>>()

function digitsToBits (text: string, alphabet: string, bitsPerDigit: number): string {
  let table = DIGIT_BITS.get(alphabet)
  if (table === undefined) {
    table = new Array<string | undefined>(128)
    for (let value = 0; value < alphabet.length; value++) table[alphabet.charCodeAt(value)] = value.toString(2).padStart(bitsPerDigit, '0')
    DIGIT_BITS.set(alphabet, table)
  }
  let bits = ''
  for (let i = 0; i < text.length; i++) {
    const digitBits = table[text.charCodeAt(i)]
    if (digitBits === undefined) throw new RangeError(`${JSON.stringify(text[i])} is not in ${alphabet}`)
    bits += digitBits
  }
  return bits
}

/** The 128 bits of a canonical lowercase UUID, most significant first. */
export function uuidBits (uuid: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid)) throw new RangeError(`not a lowercase UUID: ${uuid}`)
  return digitsToBits(uuid.replaceAll('-', ''), '0123456789abcdef', 4)
}

export interface V7Parts {
  /** unix_ts_ms: bits 0..47 */
  time: number
  /** bits 48..51 */
  version: number
  /** bits 64..65 */
  variant: string
  /** rand_a (bits 52..63) then rand_b (bits 66..127): 74 bits */
  random: string
}

/** RFC 9562 §5.7 fields of a UUIDv7. */
export function v7Parts (uuid: string): V7Parts {
  const bits = uuidBits(uuid)
  return {
    time: parseInt(bits.slice(0, 48), 2),
    version: parseInt(bits.slice(48, 52), 2),
    variant: bits.slice(64, 66),
    random: bits.slice(52, 64) + bits.slice(66)
  }
}

export interface UlidParts {
  /** The 2 bits above the 128 that 26 digits of 5 bits hold: always 00 */
  lead: string
  /** 48 bits of milliseconds */
  time: number
  /** 80 bits */
  random: string
  /** The random bits as 10 bytes */
  randomBytes: Buffer
}

/** A ULID read as a 130-bit number, right-aligned: 2 zero bits, 48 bits of time, 80 random bits. */
export function ulidParts (ulid: string): UlidParts {
  if (ulid.length !== 26) throw new RangeError(`a ULID has 26 characters: ${ulid}`)
  const bits = digitsToBits(ulid, CROCKFORD, 5)
  const random = bits.slice(50)
  const randomBytes = Buffer.alloc(10)
  for (let i = 0; i < 10; i++) randomBytes[i] = parseInt(random.slice(8 * i, 8 * i + 8), 2)
  return { lead: bits.slice(0, 2), time: parseInt(bits.slice(2, 50), 2), random, randomBytes }
}

/** `bytes` as Crockford digits, 5 bits each from the left (for bit counts that are multiples of 5). */
export function crockfordOfBytes (bytes: Uint8Array): string {
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, '0')).join('')
  if (bits.length % 5 !== 0) throw new RangeError('crockfordOfBytes: bit count must be a multiple of 5')
  let text = ''
  for (let i = 0; i < bits.length; i += 5) text += CROCKFORD[parseInt(bits.slice(i, i + 5), 2)]
  return text
}
