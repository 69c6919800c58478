// CONTRACT §2 token and §1.2 hashes. Every checksum is verified by an implementation that is not
// the service's (test/token-checksum.ts: the crc-32 package's CRC-32, the base-62 digits read back
// by the test), every hash recomputed by @noble/hashes (not node:crypto, which the service uses).
import t from 'tap'
import fc from 'fast-check'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { generateTokens, tokenChecksum } from '../../plugins/token.js'
import { checksumHolds, checksumValue, expectedCrc, tokenParts } from '../token-checksum.js'
import { build, get, post } from '../helper.js'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** The shape secret scanners look for (the issue's own pattern), for a random part of `length`. */
const scannerShape = (length: number) => new RegExp(`^[a-z][a-z0-9]{0,15}_[0-9A-Za-z]{${length + 6}}$`)

const independentHash = (token: string) => bytesToHex(sha256(Buffer.from(token, 'utf8')))

const prefixes = fc.tuple(
  fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), maxLength: 15 })
).map(([first, rest]) => first + rest)

t.test('generateTokens: property: scanner shape, the prefix asked, and a checksum crc-32 verifies', async (t) => {
  fc.assert(fc.property(prefixes, fc.integer({ min: 16, max: 128 }), fc.integer({ min: 1, max: 50 }), (prefix, length, quantity) => {
    const tokens = generateTokens({ prefix, length, quantity })
    const shape = scannerShape(length)
    return tokens.length === quantity && tokens.every((token) =>
      shape.test(token) && tokenParts(token).prefix === prefix && tokenParts(token).random.length === length && checksumHolds(token))
  }), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('the checksum is the IEEE CRC-32, in base 62, most significant digit first, padded with 0', async (t) => {
  // The CRC-32 check value of every IEEE implementation: CRC-32("123456789") = 0xCBF43926
  t.equal(expectedCrc('123456789'), 0xcbf43926, 'crc-32 is the IEEE CRC-32')
  t.equal(checksumValue(tokenChecksum('123456789')), 0xcbf43926, 'so is the service\'s checksum')
  t.equal(tokenChecksum('123456789'), '3jZRME', '0xCBF43926 = 3·62^5 + 45·62^4 + 35·62^3 + 27·62^2 + 22·62 + 14, digits 0-9A-Za-z')
  // A CRC below 62^5 has a leading 0: about one random part in five
  const randoms = Array.from({ length: 2000 }, (_, i) => `${i}`.padStart(16, 'x'))
  t.same(randoms.filter((random) => checksumValue(tokenChecksum(random)) !== expectedCrc(random)), [], '2000 random parts: each checksum is its CRC-32')
  const small = randoms.filter((random) => expectedCrc(random) < 62 ** 5)
  t.ok(small.length > 100, `${small.length} CRCs below 62^5`)
  t.same(small.filter((random) => tokenChecksum(random)[0] !== '0'), [], 'each of them padded with a leading 0')
})

t.test('HTTP, POST and GET: every token verified by crc-32, every hash recomputed, 50 at a time', async (t) => {
  const app = await build(t)
  const cases: Array<[Record<string, unknown>, string, number]> = [
    [{ quantity: 50 }, 'rg', 30],
    [{ prefix: 'ghp', quantity: 50 }, 'ghp', 30],
    [{ prefix: 'abcdefghijklmnop', length: 16, quantity: 50 }, 'abcdefghijklmnop', 16],
    [{ prefix: 'x9', length: 128, quantity: 50 }, 'x9', 128]
  ]
  for (const [params, prefix, length] of cases) {
    for (const send of [post, get]) {
      const response = await send(app, 'token', params)
      t.equal(response.statusCode, 200)
      const { values, hashes } = response.json() as { values: string[], hashes: string[] }
      t.equal(values.length, 50)
      t.equal(new Set(values).size, 50, 'no two alike')
      t.ok(values.every((token) => scannerShape(length).test(token) && token.startsWith(`${prefix}_`)), `${JSON.stringify(params)}: scanner shape`)
      t.ok(values.every(checksumHolds), `${JSON.stringify(params)}: every checksum is the CRC-32 crc-32 computes`)
      t.same(hashes, values.map(independentHash), `${JSON.stringify(params)}: hashes are the SHA-256 of each token, in order`)
      t.ok(hashes.every((hash) => /^[0-9a-f]{64}$/.test(hash)), '64 lowercase hex characters')
    }
  }
  // Defaults: prefix rg, 30 random characters
  const token = (await post(app, 'token', {})).json().values[0] as string
  t.match(token, /^rg_[0-9A-Za-z]{36}$/)
})

t.test('a token with one character changed fails the check: every substitution, then every swap of neighbours', async (t) => {
  // CRC-32 catches every error confined to 32 consecutive bits; one character (8 bits), and two
  // neighbours swapped (16 bits), always are. Over 40 tokens, every position of the random part
  // and checksum, every other base-62 character
  const tokens = [...generateTokens({ prefix: 'ghp', length: 30, quantity: 20 }), ...generateTokens({ prefix: 'a', length: 16, quantity: 20 })]
  let changes = 0
  let caught = 0
  let swaps = 0
  let swapsCaught = 0
  for (const token of tokens) {
    t.ok(checksumHolds(token), 'the token itself verifies')
    const start = token.indexOf('_') + 1
    for (let position = start; position < token.length; position++) {
      for (const character of BASE62) {
        if (character === token[position]) continue
        changes++
        if (!checksumHolds(token.slice(0, position) + character + token.slice(position + 1))) caught++
      }
      const next = token[position + 1]
      if (next !== undefined && next !== token[position]) {
        swaps++
        if (!checksumHolds(token.slice(0, position) + next + token[position] + token.slice(position + 2))) swapsCaught++
      }
    }
  }
  t.ok(changes > 70_000, `${changes} single-character changes tried`)
  t.equal(caught, changes, `all ${changes} caught`)
  t.ok(swaps > 1000, `${swaps} swaps of neighbours tried`)
  t.equal(swapsCaught, swaps, `all ${swaps} caught`)
  // A character dropped or added is caught as well: the checksum no longer sits where it should
  const [first] = tokens as [string]
  t.notOk(checksumHolds(first.slice(0, 10) + first.slice(11)), 'a character dropped')
  t.notOk(checksumHolds(first.slice(0, 10) + 'A' + first.slice(10)), 'a character added')
})

t.test('a checksum of another random part is refused: the verification can fail', async (t) => {
  // Proof the verifier is no rubber stamp: the checksum of the reversed random part is refused
  for (const token of generateTokens({ prefix: 'rg', length: 30, quantity: 20 })) {
    const { prefix, random } = tokenParts(token)
    const wrong = `${prefix}_${random}${tokenChecksum([...random].reverse().join(''))}`
    if (wrong !== token) t.notOk(checksumHolds(wrong), `${wrong}: refused`)
  }
})
