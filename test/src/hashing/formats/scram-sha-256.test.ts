// CONTRACT §12 scram-sha-256: every verifier handed to PostgreSQL itself (test/postgres.ts starts
// one), stored as it is and logged in with through libpq, which applies SASLprep to PGPASSWORD as
// a client typing the value would. SASLprep (src/hashing/formats/saslprep.ts) is held to the
// server's own: PostgreSQL's verifier of a plaintext, remade with its salt, for ~1,150 strings.
import t, { type Test } from 'tap'
import fc from 'fast-check'
import { randomInt } from 'node:crypto'
import saslprep from '@mongodb-js/saslprep'
import { pbkdf2 } from '@noble/hashes/pbkdf2.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { wordlist as czech } from '@scure/bip39/wordlists/czech.js'
import { wordlist as french } from '@scure/bip39/wordlists/french.js'
import { wordlist as italian } from '@scure/bip39/wordlists/italian.js'
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese.js'
import { wordlist as korean } from '@scure/bip39/wordlists/korean.js'
import { wordlist as portuguese } from '@scure/bip39/wordlists/portuguese.js'
import { wordlist as chineseSimplified } from '@scure/bip39/wordlists/simplified-chinese.js'
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js'
import { wordlist as chineseTraditional } from '@scure/bip39/wordlists/traditional-chinese.js'
import { pgSaslprep } from '../../../../src/hashing/formats/saslprep.js'
import { scramSha256Hash } from '../../../../src/hashing/formats/scram-sha-256.js'
import { saltFor } from '../../../../src/hashing/salt.js'
import { randomString } from '../../../../src/random/csprng.js'
import { startPostgres } from '../../../postgres.js'

const VERIFIER = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/]{22}==)\$([A-Za-z0-9+/]{43}=):([A-Za-z0-9+/]{43}=)$/
/** The 28 symbols of CONTRACT §2 password. */
const SYMBOLS = '!#$%&()*+,-./:;<=>?@[]^_{|}~'
const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789' + SYMBOLS
const hash = (value: string, iterations = 4096, salt = saltFor('scram-sha-256')) =>
  scramSha256Hash(value, salt, { algorithm: 'scram-sha-256', iterations })
const hexOf = (value: string) => [...value].map((character) => (character.codePointAt(0) as number).toString(16)).join(' ')

/**
 * A verifier of `bytes` as they are, by @noble/hashes: what a preparation other than PostgreSQL's
 * would store. The tests below show PostgreSQL refusing it, so they can fail.
 */
function verifierOfBytes (bytes: Uint8Array, iterations = 4096): string {
  const salt = saltFor('scram-sha-256')
  const salted = pbkdf2(sha256, bytes, salt, { c: iterations, dkLen: 32 })
  const b64 = (data: Uint8Array) => Buffer.from(data).toString('base64')
  return `SCRAM-SHA-256$${iterations}:${b64(salt)}$${b64(sha256(hmac(sha256, salted, Buffer.from('Client Key'))))}:${b64(hmac(sha256, salted, Buffer.from('Server Key')))}`
}

/** `count` distinct words of `list`, the first `accented` of them with a combining mark (NFKD). */
function words (list: readonly string[], count: number, accented: number): string[] {
  const marked = list.filter((word) => /\p{M}/u.test(word))
  const plain = list.filter((word) => !/\p{M}/u.test(word))
  const pick = (from: string[]) => from.splice(randomInt(from.length), 1)[0] as string
  return Array.from({ length: count }, (_, index) => pick(index < accented ? marked : plain))
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

t.test('layout: SCRAM-SHA-256$<iterations>:<16-byte salt>$<StoredKey>:<ServerKey>, Base64 with padding', async (t) => {
  const salt = saltFor('scram-sha-256')
  const match = VERIFIER.exec(hash('pencil', 4096, salt))
  t.ok(match)
  t.equal(match?.[1], '4096')
  t.same(Buffer.from(match?.[2] as string, 'base64'), salt)
  t.match(hash('pencil', 100000), /^SCRAM-SHA-256\$100000:/)
})

t.test('known answers from PostgreSQL 15, remade with its salt (no server needed)', async (t) => {
  // What `CREATE ROLE ... PASSWORD '<plaintext>'` stored under password_encryption = scram-sha-256
  const stored = [
    ['pencil', 'SCRAM-SHA-256$4096:6T+sMDHg1yWJEAeLduxNjw==$Vk1ZbocuyjTCktnLWsXrG3FWsofKf6UZp3Xu262G8zY=:DuEhS8Uf5GiwTYpoNUp8rtEq6ppKMJpJa7WhgyC9Bc8='],
    // NFKD words with U+00A0 between them: SASLprep maps it to a space and composes the accents
    ['ábaco\u00a0Pájaro\u00a0camión'.normalize('NFKD'), 'SCRAM-SHA-256$4096:VMS1AnKjcfX5Q3mvE7CgpA==$ULYQ3D8BWYTLRJzAECGCk075rT0J4zHZ23Y4/8YPs2A=:0oOA/KxStDpItn7NKRZqSIM5MowDQEiXnLaLMgTU55s=']
  ] as const
  for (const [value, verifier] of stored) {
    const salt = Buffer.from(VERIFIER.exec(verifier)?.[2] as string, 'base64')
    t.equal(hash(value, 4096, salt), verifier, hexOf(value))
  }
})

t.test('PostgreSQL', async (t) => {
  const pg = await startPostgres(t)
  if (pg === undefined) return
  let roles = 0
  /** A LOGIN role whose stored password is exactly `verifier` (a malformed one would be kept as a plaintext). */
  const roleWith = (t: Test, verifier: string): string => {
    const name = `r${++roles}`
    pg.sql(`CREATE ROLE ${name} LOGIN PASSWORD '${verifier}'`)
    t.equal(pg.sql(`SELECT rolpassword FROM pg_authid WHERE rolname = '${name}'`).trim(), verifier, `${name} stores the verifier as it is`)
    return name
  }

  t.test('the server\'s own SASLprep: its verifier of each plaintext equals ours with its salt', async (t) => {
    const values: string[] = []
    // Every word of every BIP-39 list that is not English, 32 to a value, capitalized in every other value
    const lists = { czech, french, italian, japanese, korean, portuguese, spanish, chineseSimplified, chineseTraditional }
    for (const list of Object.values(lists)) {
      for (let start = 0; start < list.length; start += 32) {
        const chunk = list.slice(start, start + 32)
        values.push((start / 32) % 2 === 0 ? chunk.join('-') : chunk.map(capitalize).join(' '))
      }
    }
    // Separators that SASLprep maps, removes, refuses, composes, or where PostgreSQL's checks
    // (on the mapped input) and RFC 3454's (on the NFKC output) part
    const separators = [
      '-', ' ', '\u00a0', '\u1680', '\u2000', '\u2007', '\u200b', '\u202f', '\u205f', '\u3000', // C.1.2: to a space
      '\u00ad', '\u034f', '\u180b', '\u200c', '\u200d', '\u2060', '\ufe0f', '\ufeff', // B.1: to nothing
      '\ufffd', '\u{1f600}', '\u{1f468}\u200d\u{1f469}', '\ue000', '\ufdd0', '\u{ffffe}', '\u{e0041}', '\u2ff0', '\u{1d173}', // prohibited or unassigned in 3.2
      '\u0340', '\u0341', '\u2150', '\u{1f100}', '\u3250', '\u32ff', '\ufa70', '\u{e0100}', // NFKC makes them assigned, allowed
      '\u2122', '\u2026', '\uff01', '\u0387', '\u1fef', '\u00bd', '\u2474', '\u0301', '·', '€', '¿', '«', '\u30fb', // NFKC changes them
      '\u05be', '\u05c0', '\u061f', '\u066d', '\ufe76', '\ufb1d', '\u0653' // R and AL (RFC 3454 §6)
    ]
    for (const separator of separators) values.push(words(spanish, 3, 2).join(separator), `x${separator}`, `${separator}`)
    // Strings of right-to-left text alone, where the bidi rule decides
    values.push('\u05d0\u2122\u05d0', '\u0627\u0653', '\u0627\u0653\u0627', '\u05d0\u05b4', '\u05d0\u05d1', '\u05d01', '\u05d0\u0661\u05d1', '\ufb1d\u05d0', '\u05d0\ufb1d', '\u0628\ufe76\u0628', '\u05d0 \u05d1')
    // Random strings over the blocks where the tables and NFKC matter (fixed seed: reproducible)
    const codePoint = fc.oneof(
      fc.integer({ min: 0xa0, max: 0x24f }), fc.integer({ min: 0x300, max: 0x36f }), fc.integer({ min: 0x590, max: 0x6ff }),
      fc.integer({ min: 0x1100, max: 0x11ff }), fc.integer({ min: 0x2000, max: 0x2bff }), fc.integer({ min: 0x3000, max: 0x33ff }),
      fc.integer({ min: 0xac00, max: 0xd7a3 }), fc.integer({ min: 0xf900, max: 0xfffd }), fc.integer({ min: 0x10000, max: 0x10ffff })
    ).filter((code) => code < 0xd800 || code > 0xdfff)
    values.push(...fc.sample(fc.array(codePoint, { minLength: 1, maxLength: 6 }).map((codes) => String.fromCodePoint(...codes)), { seed: 20261125, numRuns: 400 }))

    const script = values.map((value, index) => `CREATE ROLE b${index} PASSWORD '${value.replaceAll("'", "''")}';`).join('\n') +
      "\nSELECT substr(rolname, 2) || ' ' || rolpassword FROM pg_authid WHERE rolname ~ '^b[0-9]+$';"
    const stored = new Map(pg.sql(script).trim().split('\n').map((line) => {
      const [index, verifier] = line.split(' ') as [string, string]
      return [Number(index), verifier]
    }))
    const mismatches = values.filter((value, index) => {
      const verifier = stored.get(index) as string
      return hash(value, 4096, Buffer.from(VERIFIER.exec(verifier)?.[2] as string, 'base64')) !== verifier
    })
    t.same(mismatches.map(hexOf), [], `all ${values.length} verifiers equal PostgreSQL's`)
    const refused = values.filter((value) => pgSaslprep(value) === undefined).length
    const changed = values.filter((value) => (pgSaslprep(value) ?? value) !== value).length
    const libraryParts = values.filter((value) => {
      let prepared: string | undefined
      try { prepared = saslprep(value) } catch { prepared = undefined }
      return prepared !== pgSaslprep(value)
    }).length
    t.ok(refused > 200 && changed > 300 && libraryParts > 20, `the strings exercise every path: ${refused} refused (raw bytes), ${changed} changed by SASLprep, ${libraryParts} where @mongodb-js/saslprep gives another answer`)
  })

  // [what, value, iterations]
  const cases: Array<[string, string, number]> = [
    ['a password of the default alphabet with all 28 symbols', randomString(PASSWORD_ALPHABET, 100) + SYMBOLS, 4096],
    ['a password of all 32 ASCII punctuation characters, quotes and backslash included', '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', 4096],
    ['a password at 100000 iterations', randomString(PASSWORD_ALPHABET, 20), 100000],
    ['a Spanish passphrase (NFKD, accents composed by SASLprep)', words(spanish, 6, 3).join('-'), 4096],
    ['a French passphrase, capitalized, spaces', words(french, 6, 3).map(capitalize).join(' '), 4096],
    ['a Spanish passphrase at 100000 iterations', words(spanish, 6, 2).join('.'), 100000],
    ['Spanish, U+00A0 between words (mapped to a space)', words(spanish, 5, 2).join('\u00a0'), 4096],
    ['French, U+1680 between words (mapped to a space)', words(french, 5, 2).join('\u1680'), 4096],
    ['Spanish, U+00AD between words (removed)', words(spanish, 5, 2).join('\u00ad'), 4096],
    ['Spanish, U+FFFD between words (prohibited: the raw bytes)', words(spanish, 5, 2).join('\ufffd'), 4096],
    ['French, an emoji between words (unassigned in Unicode 3.2: the raw bytes)', words(french, 5, 2).join('\u{1f600}'), 4096],
    ['Spanish, U+0340 between words (prohibited before NFKC: the raw bytes)', words(spanish, 4, 2).join('\u0340'), 4096],
    ['French, ⅐ between words (unassigned in 3.2 before NFKC: the raw bytes)', words(french, 4, 2).join('\u2150'), 4096],
    ['alef, ™, alef (™ is not L before NFKC: prepared)', '\u05d0\u2122\u05d0', 4096],
    ['alef, maddah (ends in a mark before NFKC: the raw bytes)', '\u0627\u0653', 4096]
  ]

  t.test('libpq logs in with each value, and not with another', async (t) => {
    for (const [what, value, iterations] of cases) {
      const role = roleWith(t, hash(value, iterations))
      t.ok(pg.logsIn(role, value), `${what}: logs in`)
      t.notOk(pg.logsIn(role, value + 'x'), `${what}: another value is refused`)
    }
  })

  t.test('SASLprep is what a client types through: the NFC form logs in where SASLprep accepts, not where it refuses', async (t) => {
    const accepted = words(spanish, 5, 3).join('-')
    const refused = words(spanish, 5, 3).join('\ufffd')
    t.not(accepted.normalize('NFC'), accepted)
    t.ok(pg.logsIn(roleWith(t, hash(accepted)), accepted.normalize('NFC')), 'precomposed accents: the same SASLprep')
    t.notOk(pg.logsIn(roleWith(t, hash(refused)), refused.normalize('NFC')), 'U+FFFD: raw bytes, which differ')
  })

  t.test('the test can fail: a verifier of the raw bytes of an accented passphrase is refused', async (t) => {
    const value = words(spanish, 6, 3).join('-')
    t.ok(pg.logsIn(roleWith(t, hash(value)), value), 'ours logs in')
    t.notOk(pg.logsIn(roleWith(t, verifierOfBytes(Buffer.from(value))), value), 'raw bytes: refused')
  })

  t.test('where @mongodb-js/saslprep parts from PostgreSQL, a verifier of its preparation is refused', async (t) => {
    for (const [what, value] of cases.slice(-4)) {
      let prepared: string
      try { prepared = saslprep(value) } catch { prepared = value }
      t.not(prepared, pgSaslprep(value) ?? value, `${what}: the package prepares it otherwise`)
      t.notOk(pg.logsIn(roleWith(t, verifierOfBytes(Buffer.from(prepared))), value), `${what}: its verifier is refused`)
    }
  })
})
