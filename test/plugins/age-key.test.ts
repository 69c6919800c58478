import t from 'tap'
import { execFileSync } from 'node:child_process'
import { createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bech32 } from '@scure/base'
import { generateAgeKeys } from '../../plugins/age-key.js'
import { build, get, post } from '../helper.js'
import { hasTool, temporaryDirectory } from '../tools.js'

const IDENTITY = /^AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}$/
const RECIPIENT = /^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$/

/** The 32 key bytes of an identity (Bech32 checksum checked by @scure/base). */
function keyOf (identity: string): Buffer {
  const { prefix, words } = bech32.decode(identity.toLowerCase() as `${string}1${string}`)
  t.equal(prefix, 'age-secret-key-')
  return Buffer.from(bech32.fromWords(words))
}

/** X25519(key, 9) by a path of its own: PKCS#8 DER and a Diffie-Hellman with the base point. */
function recipientOf (key: Buffer): string {
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), key]), format: 'der', type: 'pkcs8' })
  const basePoint = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b656e032100', 'hex'), Buffer.from([9]), Buffer.alloc(31)]), format: 'der', type: 'spki' })
  return bech32.encode('age', bech32.toWords(diffieHellman({ privateKey, publicKey: basePoint })))
}

t.test('generateAgeKeys: Bech32 identities of 32 bytes, each recipient X25519 of its key by an independent path', async (t) => {
  const { values, publicKeys, entropyBits } = generateAgeKeys({ quantity: 50 })
  t.equal(entropyBits, 251)
  t.equal(values.length, 50)
  values.forEach((identity, index) => {
    t.match(identity, IDENTITY)
    t.match(publicKeys?.[index], RECIPIENT)
    t.equal(publicKeys?.[index], recipientOf(keyOf(identity)), `recipient ${index}`)
  })
  t.equal(new Set(values).size, 50, '50 distinct identities')
  t.equal(new Set(publicKeys).size, 50, '50 distinct recipients')
})

t.test('stored as drawn, not clamped (as age-keygen writes them): the clamped bits vary', async (t) => {
  // 400 keys: a clamped generator shows low bits 000 every time; an unclamped one shows all 8
  // patterns (each missing with probability (7/8)^400 < 1e-23)
  const keys = Array.from({ length: 8 }, () => generateAgeKeys({ quantity: 50 }).values).flat().map(keyOf)
  t.equal(new Set(keys.map((key) => (key[0] as number) & 7)).size, 8, 'all 8 low-bit patterns of byte 0')
  t.equal(new Set(keys.map((key) => (key[31] as number) >> 6)).size, 4, 'all 4 top-bit patterns of byte 31')
})

t.test('age-keygen -y: every identity gives the same recipient; age -r / age -d -i round-trips a message', async (t) => {
  if (!hasTool(t, 'age-keygen', 'age')) return
  if (!hasTool(t, 'age', 'age')) return
  const directory = temporaryDirectory(t)
  const { values, publicKeys } = generateAgeKeys({ quantity: 50 })
  values.forEach((identity, index) => {
    const path = join(directory, `key_${index}.txt`)
    writeFileSync(path, `${identity}\n`, { mode: 0o600 })
    const recipient = publicKeys?.[index] as string
    t.equal(execFileSync('age-keygen', ['-y', path]).toString(), `${recipient}\n`, `identity ${index}: age-keygen -y`)
    if (index < 10) {
      const message = `randgen age round trip ${index}`
      const encrypted = execFileSync('age', ['-r', recipient], { input: message })
      t.equal(execFileSync('age', ['-d', '-i', path], { input: encrypted }).toString(), message, `identity ${index}: age -r, then age -d -i`)
    }
  })
})

t.test('age-keygen\'s own identities: the service\'s derivation gives the recipient age-keygen printed', async (t) => {
  if (!hasTool(t, 'age-keygen', 'age')) return
  const { x25519PublicKey } = await import('../../src/keys/x25519.js')
  for (let i = 0; i < 5; i++) {
    const file = execFileSync('age-keygen', { stdio: ['ignore', 'pipe', 'ignore'] }).toString()
    const identity = /^AGE-SECRET-KEY-1\S+$/m.exec(file)?.[0] as string
    const printed = /^# public key: (age1\S+)$/m.exec(file)?.[1]
    t.equal(bech32.encode('age', bech32.toWords(x25519PublicKey(keyOf(identity)))), printed, `age-keygen identity ${i}`)
  }
})

t.test('HTTP: POST and GET', async (t) => {
  const app = await build(t)
  for (const send of [post, get]) {
    const body = (await send(app, 'age-key', { quantity: 3 })).json()
    t.equal(body.type, 'age-key')
    t.equal(body.entropyBits, 251)
    t.equal(body.values.length, 3)
    body.values.forEach((identity: string, index: number) => t.equal(body.publicKeys[index], recipientOf(keyOf(identity))))
  }
})
