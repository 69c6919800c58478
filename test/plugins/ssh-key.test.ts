import t from 'tap'
import fc from 'fast-check'
import { execFileSync } from 'node:child_process'
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateSshKeys } from '../../plugins/ssh-key.js'
import { opensshPrivateKey, opensshPublicKey } from '../../src/keys/openssh.js'
import { build, get, post } from '../helper.js'
import { hasTool, temporaryDirectory } from '../tools.js'

/** Printable ASCII, space to `~`: what a comment may hold (CONTRACT §2 ssh-key). */
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 64 })

interface Parsed { checkInts: [number, number], seed: Buffer, publicKey: Buffer, comment: string, padding: Buffer }

/** `condition`, or throw: the parser below refuses what is not the expected file. */
function expect (condition: boolean, what: string): void {
  if (!condition) throw new Error(`not an unencrypted OpenSSH Ed25519 key file: ${what}`)
}

/** Reads an unencrypted openssh-key-v1 Ed25519 file field by field (OpenSSH's PROTOCOL.key). */
function parse (file: string): Parsed {
  const lines = file.split('\n')
  expect(lines[0] === '-----BEGIN OPENSSH PRIVATE KEY-----', 'first line')
  const blob = Buffer.from(lines.slice(1, -2).join(''), 'base64')
  expect(blob.subarray(0, 15).toString('latin1') === 'openssh-key-v1\0', 'magic')
  let offset = 15
  const uint32 = (from: Buffer) => { offset += 4; return from.readUInt32BE(offset - 4) }
  const string = (from: Buffer) => { const length = uint32(from); offset += length; return from.subarray(offset - length, offset) }
  expect(string(blob).toString() === 'none' && string(blob).toString() === 'none', 'cipher and KDF none')
  expect(string(blob).length === 0 && uint32(blob) === 1, 'no KDF options, one key')
  string(blob)
  const section = string(blob)
  expect(offset === blob.length, 'nothing after the private section')
  offset = 0
  const checkInts: [number, number] = [uint32(section), uint32(section)]
  expect(string(section).toString() === 'ssh-ed25519', 'key type')
  const publicKey = string(section)
  const secret = string(section)
  const comment = string(section).toString('latin1')
  expect(secret.length === 64 && secret.subarray(32).equals(publicKey), 'the private key is seed ‖ public key')
  return { checkInts, seed: Buffer.from(secret.subarray(0, 32)), publicKey, comment, padding: section.subarray(offset) }
}

/** The Ed25519 public key of a seed by node:crypto's PKCS#8 path (the service uses raw keys or a JWK, src/keys/x25519.ts). */
function publicKeyOfSeed (seed: Buffer): Buffer {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed])
  return createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })).export({ format: 'der', type: 'spki' }).subarray(12)
}

t.test('generateSshKeys: each value is an openssh-key-v1 file of its own key, comment and padding 1, 2, 3, ...', async (t) => {
  fc.assert(fc.property(printable, fc.integer({ min: 1, max: 5 }), (comment, quantity) => {
    const { values, publicKeys, entropyBits } = generateSshKeys({ comment, quantity })
    if (values.length !== quantity || publicKeys?.length !== quantity || entropyBits !== 256) return false
    return values.every((value, index) => {
      const { checkInts, seed, publicKey, comment: stored, padding } = parse(value)
      const lines = value.split('\n')
      return checkInts[0] === checkInts[1] &&
        stored === comment &&
        publicKey.equals(publicKeyOfSeed(seed)) &&
        padding.equals(Buffer.from(Array.from({ length: padding.length }, (_, i) => i + 1))) &&
        padding.length < 8 &&
        lines.slice(1, -3).every((line) => line.length === 70) &&
        value.endsWith('\n-----END OPENSSH PRIVATE KEY-----\n') &&
        publicKeys[index] === `ssh-ed25519 ${Buffer.concat([Buffer.from('0000000b', 'hex'), Buffer.from('ssh-ed25519'), Buffer.from('00000020', 'hex'), publicKey]).toString('base64')}${comment === '' ? '' : ' ' + comment}`
    })
  }), { numRuns: 100 })
  t.pass('100 runs')
})

t.test('check integers are random, as ssh-keygen draws them; seeds are all distinct', async (t) => {
  const parsed = generateSshKeys({ comment: '', quantity: 50 }).values.map(parse)
  // 50 draws of 32 bits: a repeat has probability below 50² / 2^33 ≈ 3e-7
  t.equal(new Set(parsed.map(({ checkInts }) => checkInts[0])).size, 50, '50 different check integers')
  t.equal(new Set(parsed.map(({ seed }) => seed.toString('hex'))).size, 50, '50 different seeds')
})

t.test('a key signs, and its public key verifies (node:crypto)', async (t) => {
  const { values } = generateSshKeys({ comment: 'x', quantity: 1 })
  const { seed, publicKey } = parse(values[0] as string)
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' })
  const message = Buffer.from('randgen')
  const spki = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]), format: 'der', type: 'spki' })
  t.ok(verify(null, message, spki, sign(null, message, privateKey)))
})

t.test('ssh-keygen: every private key file reads back (-y -f) as its public key and comment', async (t) => {
  if (!hasTool(t, 'ssh-keygen', 'openssh-client')) return
  const directory = temporaryDirectory(t)
  const comments = ['', 'deploy@ci', ' spaces  inside ', '~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}', 'x'.repeat(64), ...fc.sample(printable, 15)]
  let checked = 0
  for (const [index, comment] of comments.entries()) {
    const { values, publicKeys } = generateSshKeys({ comment, quantity: index === 0 ? 50 : 3 })
    values.forEach((value, key) => {
      const path = join(directory, `id_${index}_${key}`)
      writeFileSync(path, value, { mode: 0o600 })
      const printed = execFileSync('ssh-keygen', ['-y', '-f', path], { stdio: ['ignore', 'pipe', 'pipe'] }).toString()
      t.equal(printed, `${publicKeys?.[key] as string}\n`, `${JSON.stringify(comment)} #${key}`)
      checked++
    })
  }
  t.ok(checked >= 100, `${checked} keys read by ssh-keygen`)
})

t.test('ssh-keygen\'s own files: the same key, check integer and comment encode to the same bytes', async (t) => {
  if (!hasTool(t, 'ssh-keygen', 'openssh-client')) return
  const directory = temporaryDirectory(t)
  // Comment lengths that give each padding length 0..7 (the private section is 131 + length bytes)
  const comments = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'abcdef', 'abcdefg', 'user@host', 'x'.repeat(64)]
  for (const [index, comment] of comments.entries()) {
    const path = join(directory, `theirs_${index}`)
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', path], { stdio: 'ignore' })
    const theirs = readFileSync(path, 'utf8')
    const { checkInts, seed, publicKey } = parse(theirs)
    t.equal(opensshPrivateKey(seed, publicKey, checkInts[0], comment), theirs, `${JSON.stringify(comment)}: the private key file, byte for byte`)
    // The .pub file writes the separating space even before an empty comment; `-y` (and the contract) do not
    t.equal(`${opensshPublicKey(publicKey, comment)}\n`, readFileSync(`${path}.pub`, 'utf8').replace(/ \n$/, '\n'), `${JSON.stringify(comment)}: the .pub line`)
    t.equal(`${opensshPublicKey(publicKey, comment)}\n`, execFileSync('ssh-keygen', ['-y', '-f', path]).toString(), `${JSON.stringify(comment)}: as ssh-keygen -y prints it`)
  }
})

t.test('HTTP: POST and GET, comment default empty, 50 distinct keys', async (t) => {
  const app = await build(t)
  const plain = (await post(app, 'ssh-key', {})).json()
  t.equal(plain.values.length, 1)
  t.match(plain.publicKeys[0], /^ssh-ed25519 [A-Za-z0-9+/]{68}$/, 'no comment: the key alone')
  const many = (await get(app, 'ssh-key', { comment: 'ops', quantity: 50 })).json()
  t.equal(many.entropyBits, 256)
  t.equal(new Set(many.values).size, 50, '50 distinct private keys')
  t.equal(new Set(many.publicKeys).size, 50, '50 distinct public keys')
  for (const key of many.publicKeys) t.match(key, / ops$/)
})

t.test('the bytes of the private key file are wiped once it is encoded', async (t) => {
  const allocated: Buffer[] = []
  const alloc = Buffer.alloc
  Buffer.alloc = ((...args: Parameters<typeof Buffer.alloc>) => { const buffer = alloc(...args); allocated.push(buffer); return buffer }) as typeof Buffer.alloc
  let file: string
  try {
    file = opensshPrivateKey(Buffer.alloc(32, 0xaa), Buffer.alloc(32, 0xbb), 0x01020304, 'c')
  } finally {
    Buffer.alloc = alloc
  }
  t.ok(parse(file).seed.equals(Buffer.alloc(32, 0xaa)), 'the file holds the seed')
  const written = allocated.filter((buffer) => buffer.length > 64)
  t.equal(written.length, 1, 'one buffer held the whole file')
  t.ok(written.every((buffer) => buffer.every((byte) => byte === 0)), 'and it is all zeros')
})
