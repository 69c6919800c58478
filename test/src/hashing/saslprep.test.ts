// src/hashing/formats/saslprep.ts, PostgreSQL's SASLprep, case by case. The proof that it is
// PostgreSQL's is test/src/hashing/formats/scram-sha-256.test.ts, which holds it to the server's
// own on ~1,150 strings and logs in through libpq; the cases here say what each step does.
import t from 'tap'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { wordlist as french } from '@scure/bip39/wordlists/french.js'
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js'
import { SASLPREP_TABLES, pgSaslprep, scramPasswordBytes } from '../../../src/hashing/formats/saslprep.js'

t.test('ASCII is left as it is, control characters included (PostgreSQL\'s shortcut)', async (t) => {
  for (const value of ['', 'pencil', '!#$%&()*+,-./:;<=>?@[]^_{|}~', 'tab\there', 'del\u007f']) t.equal(pgSaslprep(value), value)
})

t.test('mapping: non-ASCII spaces (RFC 3454 C.1.2) become U+0020', async (t) => {
  t.equal(pgSaslprep('uno\u00a0dos'), 'uno dos', 'U+00A0 no-break space')
  t.equal(pgSaslprep('uno\u1680dos'), 'uno dos', 'U+1680 ogham space mark')
  for (const space of ['\u2000', '\u2007', '\u200a', '\u202f', '\u205f', '\u3000']) t.equal(pgSaslprep(`é${space}é`), 'é é', `U+${(space.codePointAt(0) as number).toString(16)}`)
  // U+200B is in C.1.2 and B.1: PostgreSQL (and RFC 4013's order) map it to a space
  t.equal(pgSaslprep('é\u200bé'), 'é é', 'U+200B zero width space')
})

t.test('mapping: B.1 characters are removed', async (t) => {
  t.equal(pgSaslprep('uno\u00addos'), 'unodos', 'U+00AD soft hyphen')
  for (const nothing of ['\u034f', '\u180b', '\u200c', '\u200d', '\u2060', '\ufe00', '\ufe0f', '\ufeff']) t.equal(pgSaslprep(`é${nothing}é`), 'éé')
  t.equal(pgSaslprep('\u00ad\u200d'), undefined, 'nothing left: refused, as PostgreSQL refuses an empty password')
})

t.test('NFKC (not NFC alone): NFKD BIP-39 words come out composed; compatibility characters are replaced', async (t) => {
  for (const [name, list] of [['Spanish', spanish], ['French', french]] as const) {
    const composed = list.filter((word) => word !== word.normalize('NFC'))
    t.ok(composed.length > 300, `${composed.length} ${name} words hold combining marks`)
    t.same(composed.filter((word) => pgSaslprep(word) !== word.normalize('NFC')), [], `${name}: each becomes its NFC form`)
  }
  t.equal(pgSaslprep('cami\u0301n-pa\u0301jaro'), 'camín-pájaro')
  t.equal(pgSaslprep('ﬁn…２'), 'fin...2', 'ligature, ellipsis, fullwidth digit')
})

t.test('prohibited and unassigned code points: refused, so the raw UTF-8 bytes are hashed', async (t) => {
  t.equal(pgSaslprep('uno\ufffddos'), undefined, 'U+FFFD replacement character (C.6)')
  t.same(scramPasswordBytes('uno\ufffddos'), Buffer.from([0x75, 0x6e, 0x6f, 0xef, 0xbf, 0xbd, 0x64, 0x6f, 0x73]), 'raw UTF-8')
  t.equal(pgSaslprep('uno\u{1f600}dos'), undefined, 'an emoji: unassigned in Unicode 3.2')
  t.equal(pgSaslprep('é\ue000'), undefined, 'private use')
  t.equal(pgSaslprep('é\u{ffffe}'), undefined, 'U+FFFFE, a non-character (C.4)')
  t.equal(pgSaslprep('é\u0085'), undefined, 'U+0085, a C1 control')
  t.same(scramPasswordBytes('camín'), Buffer.from('camín'), 'prepared bytes are UTF-8')
})

t.test('PostgreSQL checks the mapped input before NFKC (RFC 3454 checks the output)', async (t) => {
  t.equal(pgSaslprep('a\u0340'), undefined, 'U+0340 is prohibited, though its NFKC U+0300 is not')
  t.equal(pgSaslprep('x\u2150'), undefined, '⅐ is unassigned in Unicode 3.2, though its NFKC "1⁄7" is not')
  t.equal(pgSaslprep('\u0627\u0653'), undefined, 'ends in a mark, though its NFKC U+0622 is AL')
  t.equal(pgSaslprep('\u05d0\u2122\u05d0'), '\u05d0TM\u05d0', '™ is not L, though its NFKC "TM" is')
})

t.test('bidi (RFC 3454 §6): R/AL text holds no L character and starts and ends with R/AL', async (t) => {
  t.equal(pgSaslprep('\u05d0\u05d1'), '\u05d0\u05d1')
  t.equal(pgSaslprep('\u05d0 1 \u05d1'), '\u05d0 1 \u05d1', 'neutral characters between')
  t.equal(pgSaslprep('\u05d0a\u05d1'), undefined, 'an L character')
  t.equal(pgSaslprep('\u05d01'), undefined, 'does not end with R/AL')
  t.equal(pgSaslprep('1\u05d0'), undefined, 'does not start with R/AL')
})

/** Sorted inclusive ranges as flat bounds, adjacent and overlapping ones joined: one form per set. */
function merged (bounds: ArrayLike<number>): number[] {
  const out: number[] = []
  for (let index = 0; index < bounds.length; index += 2) {
    const [first, last] = [bounds[index] as number, bounds[index + 1] as number]
    if (out.length > 0 && first <= (out[out.length - 1] as number) + 1) out[out.length - 1] = Math.max(out[out.length - 1] as number, last)
    else out.push(first, last)
  }
  return out
}

t.test('the tables are RFC 3454\'s: code point by code point as @mongodb-js/saslprep has them', async (t) => {
  // The package keeps its tables in a module it does not export; read from its installed files
  const require = createRequire(import.meta.url)
  const library = require(join(dirname(require.resolve('@mongodb-js/saslprep')), 'code-points-src.js')) as Record<string, Set<number>>
  const pairs = [
    ['NON_ASCII_SPACE', 'non_ASCII_space_characters'], ['MAPPED_TO_NOTHING', 'commonly_mapped_to_nothing'],
    ['PROHIBITED', 'prohibited_characters'], ['UNASSIGNED', 'unassigned_code_points'],
    ['RAND_AL_CAT', 'bidirectional_r_al'], ['L_CAT', 'bidirectional_l']
  ] as const
  for (const [ours, theirs] of pairs) {
    const codePoints = [...library[theirs] as Set<number>]
    // RFC 3454 C.4 lists U+FFFFE and U+FFFFF; PostgreSQL prohibits them, the package misses them
    if (ours === 'PROHIBITED') codePoints.push(0xffffe, 0xfffff)
    t.same(merged(SASLPREP_TABLES[ours]), merged(codePoints.sort((a, b) => a - b).flatMap((codePoint) => [codePoint, codePoint])), `${ours} = ${theirs}`)
  }
})
