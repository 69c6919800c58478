// CONTRACT §12 `bcrypt`: our `$2y$` strings handed to Apache's `htpasswd -v` (apr-util's
// crypt_blowfish, what reads htpasswd files), never back to our own code: each value verifies and
// another does not, at every cost, every length bcrypt reads and every ASCII symbol.
import t from 'tap'
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese.js'
import { bcryptHash } from '../../../../src/hashing/formats/bcrypt.js'
import { saltFor } from '../../../../src/hashing/salt.js'
import { BCRYPT_MAX_BYTES } from '../../../../schemas/hash.js'
import { htpasswdVerifies } from '../../../hash-readers.js'
import { hasTool, temporaryDirectory } from '../../../tools.js'

const SYMBOLS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** `length` characters of the symbols and alphanumerics, from `offset` on, round and round. */
const ascii = (length: number, offset = 0): string => {
  const all = SYMBOLS + ALPHANUMERIC
  return Array.from({ length }, (_, index) => all[(offset + index) % all.length]).join('')
}
/** The same value with its last character changed (so the last byte bcrypt reads counts). */
const lastChanged = (value: string): string => value.slice(0, -1) + (value.endsWith('A') ? 'B' : 'A')

// Japanese words in NFKD (combining marks), joined by U+3000, up to 72 UTF-8 bytes; its NFC form is other bytes
const JAPANESE = japanese.filter((word) => word.normalize('NFC') !== word).reduce((value, word) =>
  Buffer.byteLength(`${value}\u3000${word}`) <= BCRYPT_MAX_BYTES ? `${value}\u3000${word}` : value)

const bcrypt = (cost: number) => ({ algorithm: 'bcrypt' as const, cost })
const LAYOUT = /^\$2y\$(\d\d)\$([./A-Za-z0-9]{22})[./A-Za-z0-9]{31}$/

/** bcrypt's Base64 read back to bytes by way of the standard alphabet (the test's own decoding of the salt). */
function saltOf (hash: string): string {
  const standard = Array.from(LAYOUT.exec(hash)?.[2] ?? '', (character) =>
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'['./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.indexOf(character)]).join('')
  return Buffer.from(standard, 'base64').toString('hex')
}

t.test('htpasswd -v at cost 4: every length 6..72 bytes, every ASCII symbol, non-ASCII', async (t) => {
  if (!hasTool(t, 'htpasswd', 'apache2-utils')) return
  const directory = temporaryDirectory(t)
  const values: Array<[string, string]> = Array.from({ length: BCRYPT_MAX_BYTES - 5 }, (_, index) => {
    const value = ascii(index + 6, index * 7)
    return [`${value.length} bytes`, value]
  })
  values.push(['the 32 symbols alone', SYMBOLS], ['the 32 symbols, then 40 more characters: 72 bytes', ascii(72)],
    [`Japanese NFKD words and U+3000, ${Buffer.byteLength(JAPANESE)} bytes`, JAPANESE])
  t.ok(values.some(([, value]) => [...SYMBOLS].every((symbol) => value.includes(symbol))), 'a value holds every symbol')
  for (const [name, value] of values) {
    const salt = saltFor('bcrypt')
    const hash = bcryptHash(value, salt, bcrypt(4))
    t.match(hash, LAYOUT, `${name}: $2y$, 22 salt and 31 hash characters`)
    t.equal(saltOf(hash), Buffer.from(salt).toString('hex'), `${name}: the salt given`)
    t.equal(htpasswdVerifies(directory, value, hash), true, `${name}: the value verifies`)
    const other = value === JAPANESE ? JAPANESE.normalize('NFC') : lastChanged(value)
    t.equal(htpasswdVerifies(directory, other, hash), false, `${name}: ${value === JAPANESE ? 'its NFC form' : 'its last byte changed'} does not`)
  }
})

t.test('htpasswd -v at every cost 4..14 (2 digits in the string)', async (t) => {
  if (!hasTool(t, 'htpasswd', 'apache2-utils')) return
  const directory = temporaryDirectory(t)
  for (let cost = 4; cost <= 14; cost++) {
    const value = ascii(20, cost * 5)
    const hash = bcryptHash(value, saltFor('bcrypt'), bcrypt(cost))
    t.equal(LAYOUT.exec(hash)?.[1], String(cost).padStart(2, '0'), `cost ${cost}: written ${String(cost).padStart(2, '0')}`)
    t.equal(htpasswdVerifies(directory, value, hash), true, `cost ${cost}: the value verifies`)
    t.equal(htpasswdVerifies(directory, lastChanged(value), hash), false, `cost ${cost}: another does not`)
  }
})

t.test('a value over 72 bytes is refused, not cut', async (t) => {
  t.throws(() => bcryptHash(ascii(73), saltFor('bcrypt'), bcrypt(4)), RangeError)
  t.throws(() => bcryptHash(`${'é'.repeat(36)}`.normalize('NFC') + 'x', saltFor('bcrypt'), bcrypt(4)), RangeError, '36 two-byte characters and one: 73 bytes')
  t.throws(() => bcryptHash('password', new Uint8Array(15), bcrypt(4)), RangeError, 'a salt of other than 16 bytes')
})
