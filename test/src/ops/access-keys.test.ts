// CONTRACT §9 access keys, the pure parts: the digests from the configuration, the Authorization
// header's syntax, the comparison and the key id.
import t from 'tap'
import { createHash } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { accessKeyDigests, credentialOf, keyId, matchDigest, sha256 } from '../../../src/ops/access-keys.js'
import { ConfigError } from '../../../src/ops/config-error.js'
import { loadConfig } from '../../../src/ops/config.js'

const hex = (text: string) => createHash('sha256').update(text).digest('hex')
const A = hex('rg_first-key-0123456789')
const B = hex('rg_second-key-0123456789')

function tempFile (t: { teardown: (fn: () => void) => void }, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'randgen-keys-'))
  const path = join(dir, 'hashes')
  writeFileSync(path, text)
  return path
}

t.test('unset or empty: keys are off', async (t) => {
  t.same(accessKeyDigests({ API_KEY_HASHES: '', API_KEY_HASHES_FILE: '' }), [])
  t.same(accessKeyDigests({ API_KEY_HASHES: ' , ', API_KEY_HASHES_FILE: '' }), [])
  t.same(loadConfig({}).API_KEY_HASHES, '')
})

t.test('API_KEY_HASHES: comma-separated, either case, spaces around entries, duplicates once', async (t) => {
  const digests = accessKeyDigests({ API_KEY_HASHES: ` ${A.toUpperCase()} ,${B},${A}`, API_KEY_HASHES_FILE: '' })
  t.same(digests.map((digest) => digest.toString('hex')), [A, B])
})

t.test('API_KEY_HASHES_FILE: one a line, blank lines, CRLF and # comments', async (t) => {
  const path = tempFile(t, `# alice, since 2026-11\n${A}\r\n\n   # bob\n${B.toUpperCase()}  \n`)
  t.same(accessKeyDigests({ API_KEY_HASHES: '', API_KEY_HASHES_FILE: path }).map((digest) => digest.toString('hex')), [A, B])
  t.equal(loadConfig({ API_KEY_HASHES_FILE: path }).API_KEY_HASHES_FILE, path)
})

t.test('refused at start, naming the setting and never the value', async (t) => {
  const secretish = 'rg_thisLooksLikeAKeyPastedByMistake0123'
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ API_KEY_HASHES: `${A},${secretish}` }, /^Invalid configuration: API_KEY_HASHES entry 2 is not a SHA-256 digest/],
    [{ API_KEY_HASHES: A.slice(0, 63) }, /^Invalid configuration: API_KEY_HASHES entry 1 /],
    [{ API_KEY_HASHES: `${A}0` }, /^Invalid configuration: API_KEY_HASHES entry 1 /],
    [{ API_KEY_HASHES: `${A.slice(0, 63)}g` }, /^Invalid configuration: API_KEY_HASHES entry 1 /],
    [{ API_KEY_HASHES_FILE: tempFile(t, `${A}\n${secretish}\n`) }, /^Invalid configuration: API_KEY_HASHES_FILE line 2 is not a SHA-256 digest/],
    [{ API_KEY_HASHES_FILE: tempFile(t, '\n# nothing yet\n') }, /^Invalid configuration: API_KEY_HASHES_FILE holds no digest$/],
    [{ API_KEY_HASHES_FILE: '/nonexistent/randgen/hashes' }, /^Invalid configuration: API_KEY_HASHES_FILE cannot be read \(ENOENT\)$/],
    [{ API_KEY_HASHES: A, API_KEY_HASHES_FILE: tempFile(t, B) }, /^Invalid configuration: set API_KEY_HASHES or API_KEY_HASHES_FILE, not both$/]
  ]
  for (const [env, message] of cases) {
    const error = t.throws(() => loadConfig(env)) as Error
    t.ok(error instanceof ConfigError)
    t.match(error.message, message)
    t.notMatch(error.message, /\n/, 'one line')
    t.notOk(error.message.includes(secretish), 'the bad entry is not quoted')
    t.notOk(error.message.includes(A.slice(0, 16)), 'no digest is quoted')
    t.notOk(error.message.includes('/nonexistent'), 'nor the file name')
  }
  // An error without a code still names the setting only
  t.throws(() => accessKeyDigests({ API_KEY_HASHES: '', API_KEY_HASHES_FILE: 'x' }, () => { throw new Error('odd') }),
    { message: 'Invalid configuration: API_KEY_HASHES_FILE cannot be read (error)' })
})

t.test('credentialOf: Bearer, any case, 16..256 printable ASCII but space', async (t) => {
  const key = 'rg_0123456789abcdefXYZ'
  t.same(credentialOf(undefined), { kind: 'missing' })
  t.same(credentialOf(''), { kind: 'missing' })
  t.same(credentialOf(`Bearer ${key}`), { kind: 'key', key })
  t.same(credentialOf(`bearer ${key}`), { kind: 'key', key })
  t.same(credentialOf(`BEARER   ${key}  `), { kind: 'key', key })
  t.same(credentialOf(`Bearer ${'!'.repeat(16)}`), { kind: 'key', key: '!'.repeat(16) })
  t.same(credentialOf(`Bearer ${'~'.repeat(256)}`), { kind: 'key', key: '~'.repeat(256) })
  for (const bad of ['Bearer', 'Bearer ', `Bearer ${'a'.repeat(15)}`, `Bearer ${'a'.repeat(257)}`, `Basic ${key}`, `Bearer${key}`,
    `Bearer ${key} extra`, `Bearer ${key}é`, `Bearer\t${key}`, `Token ${key}`, `Bearer ${key.slice(0, 10)} ${key}`, 'x'.repeat(100_000)]) {
    t.same(credentialOf(bad), { kind: 'malformed' }, JSON.stringify(bad.slice(0, 40)))
  }
})

t.test('matchDigest: the index of the equal digest, or -1', async (t) => {
  const digests = [A, B].map((digest) => Buffer.from(digest, 'hex'))
  t.equal(matchDigest(digests, sha256('rg_first-key-0123456789')), 0)
  t.equal(matchDigest(digests, sha256('rg_second-key-0123456789')), 1)
  t.equal(matchDigest(digests, sha256('rg_other-key-0123456789')), -1)
  t.equal(matchDigest([], sha256('x')), -1)
  t.equal(sha256('abc').toString('hex'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'FIPS 180-2 test vector')
})

t.test('keyId: the first 8 hex characters of the digest', async (t) => {
  t.equal(keyId(Buffer.from(A, 'hex')), A.slice(0, 8))
})
