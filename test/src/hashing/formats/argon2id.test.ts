// CONTRACT §12 `argon2id`: our PHC strings handed to argon2-cffi (the reference C library, what
// Authelia's and many Python services' hashes are checked with), never back to our own code: it
// accepts the value and refuses another, and reads the asked parameters from the string. Then the
// raw hash itself, for fixed passwords and salts: the reference implementation's own test
// vectors, and argon2-cffi's hash_secret_raw computed here and now at the contract's bounds.
import t, { type Test } from 'tap'
import { spawnSync } from 'node:child_process'
import { wordlist as french } from '@scure/bip39/wordlists/french.js'
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese.js'
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js'
import { argon2idHash, argon2idRaw } from '../../../../src/hashing/formats/argon2id.js'
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
  const cases = GRID.flatMap(([grid, asked]) => VALUES.map(([name, value, other]) => {
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

// phc-winner-argon2 (the reference implementation RFC 9106 describes), src/test.c at
// f57e61e19229e23c4445b85494dbf7c07de721cb, its Argon2id version 0x13 cases: [t, m (KiB), p,
// password, salt, raw hash]. Its m=262144 case is left out (256 MiB for one test). RFC 9106's own
// vector (§5.3) needs a secret and associated data, and @node-rs/argon2 takes no associated data.
const REFERENCE_VECTORS: Array<[number, number, number, string, string, string]> = [
  [2, 65536, 1, 'password', 'somesalt', '09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7'],
  [2, 256, 1, 'password', 'somesalt', '9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe'],
  [2, 256, 2, 'password', 'somesalt', '6d093c501fd5999645e0ea3bf620d7b8be7fd2db59c20d9fff9539da2bf57037'],
  [1, 65536, 1, 'password', 'somesalt', 'f6a5adc1ba723dddef9b5ac1d464e180fcd9dffc9d1cbf76cca2fed795d9ca98'],
  [4, 65536, 1, 'password', 'somesalt', '9025d48e68ef7395cca9079da4c4ec3affb3c8911fe4f86d1a2520856f63172c'],
  [2, 65536, 1, 'differentpassword', 'somesalt', '0b84d652cf6b0c4beaef0dfe278ba6a80df6696281d7e0d2891b817d8c458fde'],
  [2, 65536, 1, 'password', 'diffsalt', 'bdf32b05ccc42eb15d58fd19b1f856b113da1e9a5874fdcc544308565aa8141c']
]

t.test('the raw hash is the reference implementation\'s test vector (phc-winner-argon2 src/test.c)', async (t) => {
  for (const [iterations, memoryKiB, parallelism, password, salt, expected] of REFERENCE_VECTORS) {
    const raw = argon2idRaw(Buffer.from(password), Buffer.from(salt), settings(memoryKiB, iterations, parallelism))
    t.equal(Buffer.from(raw).toString('hex'), expected, `t=${iterations} m=${memoryKiB} p=${parallelism} ${password}/${salt}`)
  }
})

// argon2-cffi's low-level hash_secret_raw (Debian's libargon2), Argon2id 0x13, 32 bytes: the
// expected bytes are the reference library's, computed when the test runs, never written here
const REFERENCE_RAW = `
import argon2.low_level as argon2, json, sys
out = []
for message, salt, m, t, p in json.load(sys.stdin):
    out.append(argon2.hash_secret_raw(bytes.fromhex(message), bytes.fromhex(salt), t, m, p, 32, argon2.Type.ID, 0x13).hex())
print(json.dumps(out))
`

t.test('the raw hash of fixed passwords and salts is argon2-cffi\'s, at the defaults and the bounds', async (t) => {
  if (!hasArgon2Cffi(t)) return
  // Fixed salts, so that a run is the same run each time: all zeros, and 16 arbitrary bytes
  const salts = [Buffer.alloc(16, 0), Buffer.from('f0d5ba9f84694e33b12fe4c0a10d6b8c', 'hex')]
  const grid: Array<[string, Settings]> = [...GRID, ['two lanes', settings(8192, 3, 2)], ['three lanes', settings(7168, 2, 3)]]
  const cases = grid.flatMap(([name, asked]) => VALUES.map(([valueName, value], index) =>
    ({ label: `${name}, ${valueName}`, asked, message: Buffer.from(value, 'utf8'), salt: salts[index % salts.length] as Buffer })))
  const run = spawnSync(DEBIAN_PYTHON, ['-c', REFERENCE_RAW], {
    input: JSON.stringify(cases.map(({ message, salt, asked }) => [message.toString('hex'), salt.toString('hex'), asked.memoryKiB, asked.iterations, asked.parallelism])),
    encoding: 'utf8'
  })
  t.equal(run.status, 0, `argon2-cffi ran ${run.stderr}`)
  const expected = JSON.parse(run.stdout) as string[]
  t.equal(expected.length, cases.length)
  for (const [index, { label, asked, message, salt }] of cases.entries()) {
    t.equal(Buffer.from(argon2idRaw(message, salt, asked)).toString('hex'), expected[index], label)
  }
})
