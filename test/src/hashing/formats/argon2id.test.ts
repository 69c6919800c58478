// CONTRACT §12 `argon2id`: our PHC strings handed to argon2-cffi (the reference C library, what
// Authelia's and many Python services' hashes are checked with), never back to our own code: it
// accepts the value and refuses another, and reads the asked parameters from the string. Then the
// two backends (node:crypto's OpenSSL, @noble/hashes) agree byte for byte.
import t, { type Test } from 'tap'
import { spawnSync } from 'node:child_process'
import { wordlist as french } from '@scure/bip39/wordlists/french.js'
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese.js'
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js'
import { answers, argon2idHash, argon2idRaw, nobleArgon2idRaw, nodeArgon2id } from '../../../../src/hashing/formats/argon2id.js'
import { saltFor } from '../../../../src/hashing/salt.js'
import { DEBIAN_PYTHON } from '../../../hash-readers.js'

type Settings = Parameters<typeof argon2idHash>[2]
const settings = (memoryKiB: number, iterations: number, parallelism: number): Settings =>
  ({ algorithm: 'argon2id', memoryKiB, iterations, parallelism })

// The contract's defaults and bounds (schemas/hash.ts): m 7168..65540, t 1..5, p 1..4
const GRID: Array<[string, Settings]> = [
  ['defaults', settings(19456, 2, 1)],
  ['lower bounds', settings(7168, 1, 1)],
  ['upper bounds', settings(65540, 5, 4)],
  ['least memory, most passes and lanes', settings(7168, 5, 4)],
  ['most memory, one pass, two lanes', settings(65540, 1, 2)]
]

/** Words whose NFKD form (the lists' own) holds combining marks: their NFC form is other bytes. */
const decomposed = (list: string[]) => list.filter((word) => word.normalize('NFC') !== word)
// [value, another value]: for the non-ASCII ones the other is the same text in NFC, so a reader
// that accepted it would be reading something other than the value's UTF-8 bytes
const VALUES: Array<[string, string, string]> = [
  ['a password of every symbol set', 'k7#Qm9xP!aZ2wL5r@tY8', 'k7#Qm9xP!aZ2wL5r@tY9'],
  ['128 characters, all 32 ASCII symbols', `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~${'Zz9'.repeat(32)}`, `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~${'Zz9'.repeat(31)}Zz8`],
  ['Spanish BIP-39 words, NFKD', decomposed(spanish).slice(0, 6).join('-'), decomposed(spanish).slice(0, 6).join('-').normalize('NFC')],
  ['French BIP-39 words, NFKD', decomposed(french).slice(100, 106).join(' '), decomposed(french).slice(100, 106).join(' ').normalize('NFC')],
  ['Japanese BIP-39 words, NFKD, joined by U+3000', decomposed(japanese).slice(0, 6).join('\u3000'), decomposed(japanese).slice(0, 6).join('\u3000').normalize('NFC')]
]

// argon2-cffi's PasswordHasher.verify (it takes a str and hashes its UTF-8 bytes), and the
// parameters it reads from the string
const VERIFY = `
import argon2, json, sys
hasher = argon2.PasswordHasher()
def verifies(hash, value):
    try:
        return hasher.verify(hash, value)
    except argon2.exceptions.VerifyMismatchError:
        return False
out = []
for hash, value, other in json.load(sys.stdin):
    p = argon2.extract_parameters(hash)
    out.append({'value': verifies(hash, value), 'other': verifies(hash, other),
                'read': [p.type.name, p.version, p.memory_cost, p.time_cost, p.parallelism, p.salt_len, p.hash_len]})
print(json.dumps(out))
`

interface Verdict { value: boolean, other: boolean, read: [string, number, number, number, number, number, number] }

/** Whether argon2-cffi can be run: Debian's python3-argon2 under Debian's own Python. */
function hasArgon2Cffi (t: Test): boolean {
  if (spawnSync(DEBIAN_PYTHON, ['-c', 'import argon2'], { stdio: 'ignore' }).status === 0) return true
  if (process.env.CI === 'true') t.fail(`argon2-cffi is missing under CI=true: .ci/run must install python3-argon2 (for ${DEBIAN_PYTHON})`)
  else t.pass('argon2-cffi checks', { skip: 'argon2-cffi is not installed: apt-get install python3-argon2 to run these checks' })
  return false
}

t.test('argon2-cffi verifies each value and refuses another, at the defaults and the bounds', async (t) => {
  if (!hasArgon2Cffi(t)) return
  // At 64 MiB two values (ASCII, Japanese): @noble/hashes takes ~1.8 s a hash there on Node 20 and 22
  const cases = GRID.flatMap(([grid, asked]) => (asked.memoryKiB > 60000 ? [VALUES[1], VALUES[4]] as typeof VALUES : VALUES).map(([name, value, other]) => {
    const salt = saltFor('argon2id')
    return { label: `${grid}, ${name}`, asked, salt, value, other, hash: argon2idHash(value, salt, asked) }
  }))
  const run = spawnSync(DEBIAN_PYTHON, ['-c', VERIFY], { input: JSON.stringify(cases.map(({ hash, value, other }) => [hash, value, other])), encoding: 'utf8' })
  t.equal(run.status, 0, `argon2-cffi ran ${run.stderr}`)
  const verdicts = JSON.parse(run.stdout) as Verdict[]
  t.equal(verdicts.length, cases.length)
  for (const [index, { label, asked, salt, hash }] of cases.entries()) {
    const verdict = verdicts[index] as Verdict
    t.match(hash, /^\$argon2id\$v=19\$m=\d+,t=\d,p=\d\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/, `${label}: the PHC layout`)
    t.same(verdict.read, ['ID', 19, asked.memoryKiB, asked.iterations, asked.parallelism, 16, 32], `${label}: read as Argon2id 0x13, the asked m, t, p, 16-byte salt, 32-byte hash`)
    t.equal(Buffer.from(hash.split('$')[4] as string, 'base64').toString('hex'), Buffer.from(salt).toString('hex'), `${label}: the salt given`)
    t.equal(verdict.value, true, `${label}: the value verifies`)
    t.equal(verdict.other, false, `${label}: another value does not`)
  }
})

t.test('node:crypto\'s Argon2id (Node >= 24.7) and @noble/hashes\' give the same bytes', async (t) => {
  t.equal(answers(() => { throw new TypeError('argon2Sync is not a function') }), false, 'a backend that throws does not answer')
  t.equal(answers(nobleArgon2idRaw), true, '@noble/hashes answers on every runtime')
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
  const hasArgon2Sync = major > 24 || (major === 24 && minor >= 7)
  t.equal(answers(nodeArgon2id), hasArgon2Sync, `Node ${process.versions.node}: node:crypto ${hasArgon2Sync ? 'answers' : 'has no argon2Sync'}`)
  t.equal(argon2idRaw, hasArgon2Sync ? nodeArgon2id : nobleArgon2idRaw, `and hashes with ${hasArgon2Sync ? 'node:crypto' : '@noble/hashes'}`)
  if (!hasArgon2Sync) {
    t.pass('the two backends', { skip: 'compared on a Node with crypto.argon2Sync (.ci/run runs the suite on the image\'s Node too)' })
    return
  }
  // Upper bounds once: @noble/hashes takes ~1.7 s there
  for (const [grid, asked] of [...GRID.slice(0, 3), ['two lanes', settings(8192, 3, 2)], ['three lanes', settings(7168, 2, 3)]] as Array<[string, Settings]>) {
    for (const [name, value] of (grid === 'upper bounds' ? VALUES.slice(0, 1) : VALUES)) {
      const salt = saltFor('argon2id')
      const message = Buffer.from(value, 'utf8')
      t.equal(Buffer.from(nodeArgon2id(message, salt, asked)).toString('hex'), Buffer.from(nobleArgon2idRaw(message, salt, asked)).toString('hex'), `${grid}, ${name}`)
    }
  }
})
