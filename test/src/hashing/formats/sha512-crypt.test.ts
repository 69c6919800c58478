// CONTRACT §12 `sha512-crypt`: our `$6$` strings are exactly what glibc/libxcrypt's crypt(3)
// writes for the same value, salt and rounds: as `mkpasswd -m sha-512` prints them (it writes
// `rounds=5000` where the contract, like crypt(3)'s default, leaves it out), as `openssl passwd -6`
// prints them at 5000, and crypt(3) itself (perl's crypt, what login and PAM call) reads each
// string back to itself. Never checked against our own code.
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese.js'
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js'
import { sha512CryptHash } from '../../../../src/hashing/formats/sha512-crypt.js'
import { saltFor } from '../../../../src/hashing/salt.js'
import { hasTool } from '../../../tools.js'

// crypt(3)'s salt alphabet, written out here (not taken from src/): four salts hold each character once
const ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const EVERY_CHARACTER = [0, 16, 32, 48].map((start) => ALPHABET.slice(start, start + 16))
const SYMBOLS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const ascii = (length: number, offset = 0): string =>
  Array.from({ length }, (_, index) => (SYMBOLS + ALPHANUMERIC)[(offset + index) % 94]).join('')

const nfkd = (list: string[], count: number, separator: string): string =>
  list.filter((word) => word.normalize('NFC') !== word).slice(0, count).join(separator)
// Values of 1, 2 and more SHA-512 blocks per round (a round hashes 64 + 16 + 2 × the value's bytes),
// the 64-byte edges of the P sequence, and non-ASCII (NFKD words, U+3000)
const VALUES: Array<[string, string]> = [
  ['8 bytes', 'k7#Qm9xP'],
  ['20 bytes', 'k7#Qm9xP!aZ2wL5r@tY8'],
  ['64 bytes', ascii(64, 5)],
  ['65 bytes', ascii(65, 11)],
  ['128 bytes', ascii(128)],
  ['256 bytes', ascii(256, 3)],
  ['Spanish NFKD words', nfkd(spanish, 6, '-')],
  ['20 Japanese NFKD words and U+3000', nfkd(japanese, 20, '\u3000')]
]

const sha512Crypt = (rounds: number) => ({ algorithm: 'sha512-crypt' as const, rounds })
const saltText = (salt: string) => Buffer.from(salt, 'latin1')

function mkpasswd (value: string, salt: string, rounds: number): string {
  return execFileSync('mkpasswd', ['-m', 'sha-512', '-R', String(rounds), '-S', salt, '--stdin'], { input: value, encoding: 'utf8' }).trim()
}
/** mkpasswd's string as crypt(3) writes it by default: `rounds=5000` left out. */
const asDefault = (hash: string) => hash.replace(/^\$6\$rounds=5000\$/, '$6$')

/** crypt(3) of `value` with `hash` as its setting: `hash` again when it verifies (perl links libcrypt). */
function crypt (value: string, hash: string): string {
  return execFileSync('perl', ['-e', 'print crypt($ENV{VALUE}, $ENV{SETTING})'], { env: { VALUE: value, SETTING: hash }, encoding: 'utf8' })
}

// libxcrypt's crypt(3) takes at most 511 bytes (CRYPT_MAX_PASSPHRASE_SIZE, 512 with the NUL): longer
// values answer ERANGE, so 511 is the longest any crypt(3) reader can check
const CRYPT_MAX_BYTES = 511

t.test(`mkpasswd and crypt(3): every length 1..130 bytes and ${CRYPT_MAX_BYTES}, all ASCII symbols, every salt character, 1000 rounds`, async (t) => {
  if (!hasTool(t, 'mkpasswd', 'whois') || !hasTool(t, 'perl', 'perl-base')) return
  const values = [...Array.from({ length: 130 }, (_, index) => ascii(index + 1, index * 13)), ascii(CRYPT_MAX_BYTES)]
  for (const [index, value] of values.entries()) {
    const salt = EVERY_CHARACTER[index % 4] as string
    const hash = sha512CryptHash(value, saltText(salt), sha512Crypt(1000))
    t.equal(hash, mkpasswd(value, salt, 1000), `${Buffer.byteLength(value)} bytes, salt ${salt}: as mkpasswd writes it`)
    t.equal(crypt(value, hash), hash, `${Buffer.byteLength(value)} bytes: crypt(3) verifies it`)
  }
})

t.test('mkpasswd and crypt(3) at 1000, 5000, 5001 and 100000 rounds; openssl passwd -6 at 5000', async (t) => {
  if (!hasTool(t, 'mkpasswd', 'whois') || !hasTool(t, 'perl', 'perl-base') || !hasTool(t, 'openssl', 'openssl')) return
  for (const rounds of [1000, 5000, 5001, 100000]) {
    for (const [index, [name, value]] of VALUES.entries()) {
      const salt = index < 4 ? EVERY_CHARACTER[index] as string : Buffer.from(saltFor('sha512-crypt')).toString('latin1')
      const label = `${rounds} rounds, ${name}, salt ${salt}`
      const hash = sha512CryptHash(value, saltText(salt), sha512Crypt(rounds))
      t.match(hash, rounds === 5000 ? /^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/ : new RegExp(`^\\$6\\$rounds=${rounds}\\$[./0-9A-Za-z]{16}\\$[./0-9A-Za-z]{86}$`), `${label}: the layout`)
      t.equal(hash, asDefault(mkpasswd(value, salt, rounds)), `${label}: as mkpasswd writes it${rounds === 5000 ? ' (its rounds=5000 left out)' : ''}`)
      t.equal(crypt(value, hash), hash, `${label}: crypt(3) verifies it`)
      t.not(crypt(`${value}x`, hash), hash, `${label}: and refuses another value`)
      // `openssl passwd -6` cuts what it reads at 256 bytes (with a warning): only shorter values compared
      if (rounds === 5000 && Buffer.byteLength(value) <= 256) {
        const openssl = execFileSync('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], { input: `${value}\n`, encoding: 'utf8' }).trim()
        t.equal(hash, openssl, `${label}: as openssl passwd -6 writes it`)
      }
    }
  }
})

t.test('settings crypt(3) would read otherwise are refused', async (t) => {
  t.throws(() => sha512CryptHash('password', saltText('abcdefghijklmno'), sha512Crypt(5000)), RangeError, 'a salt of 15 characters')
  t.throws(() => sha512CryptHash('password', saltText('abcdefghijklmno$'), sha512Crypt(5000)), RangeError, 'a salt character outside ./0-9A-Za-z')
  t.throws(() => sha512CryptHash('password', saltText('abcdefghijklmnop'), sha512Crypt(999)), RangeError, 'rounds under 1000 (crypt(3) would use 1000)')
})
