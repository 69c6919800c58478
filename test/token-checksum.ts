// GitHub-format tokens checked without the service's code: the CRC-32 comes from the crc-32
// package (SheetJS's own implementation, not node:zlib's), and the checksum is read back as a
// base-62 number (digit by digit, where the service writes it by division), over the alphabet
// written out here from CONTRACT §2 token.
import CRC32 from 'crc-32'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const CHECKSUM_LENGTH = 6

export interface TokenParts { prefix: string, random: string, checksum: string }

/** The parts of `<prefix>_<random><checksum>` (a prefix holds no `_`). */
export function tokenParts (token: string): TokenParts {
  const underscore = token.indexOf('_')
  const rest = token.slice(underscore + 1)
  return { prefix: token.slice(0, underscore), random: rest.slice(0, -CHECKSUM_LENGTH), checksum: rest.slice(-CHECKSUM_LENGTH) }
}

/** The checksum of `random` that secret scanners expect: the IEEE CRC-32 of its ASCII bytes. */
export function expectedCrc (random: string): number {
  // crc-32 answers a signed 32-bit integer
  return CRC32.buf(Buffer.from(random, 'ascii')) >>> 0
}

/** The 6 base-62 digits `checksum` stand for, or -1 if one is not a base-62 digit. */
export function checksumValue (checksum: string): number {
  let value = 0
  for (const digit of checksum) {
    const index = BASE62.indexOf(digit)
    if (index < 0) return -1
    value = value * 62 + index
  }
  return value
}

/** Whether `token`'s last 6 characters are the CRC-32 of its random part, as a scanner checks. */
export function checksumHolds (token: string): boolean {
  const { random, checksum } = tokenParts(token)
  return checksum.length === CHECKSUM_LENGTH && random.length > 0 && checksumValue(checksum) === expectedCrc(random)
}
