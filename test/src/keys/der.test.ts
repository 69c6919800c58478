// The DER reader behind the JWKs refuses every shape node:crypto does not write, rather than read
// a wrong key out of it. (The shapes it does write are read in signing-keys*.test.ts.)
import t from 'tap'
import { generateKeyPairSync } from 'node:crypto'
import { ecScalar, ed25519Seed, elements, pkcs8PrivateKey, rsaIntegers, single, spkiPublicKey, uncompressedPoint } from '../../../src/keys/der.js'

/** One DER element of `tag` around `parts` (short or long form length). */
function tlv (tag: number, ...parts: Buffer[]): Buffer {
  const contents = Buffer.concat(parts)
  const length = contents.length < 0x80 ? Buffer.of(contents.length) : Buffer.of(0x82, contents.length >> 8, contents.length & 0xff)
  return Buffer.concat([Buffer.of(tag), length, contents])
}
const integer = (...bytes: number[]) => tlv(0x02, Buffer.from(bytes))
const octets = (length: number, fill = 1) => tlv(0x04, Buffer.alloc(length, fill))
const sequence = (...parts: Buffer[]) => tlv(0x30, ...parts)
const unexpected = { message: /^unexpected DER from node:crypto/ }

t.test('lengths: short and long form read; truncated or oversized ones refused', async (t) => {
  const long = tlv(0x04, Buffer.alloc(300, 7))
  t.same(elements(long).map(({ tag, contents }) => [tag, contents.length]), [[0x04, 300]], 'a two-byte long-form length')
  t.same(elements(Buffer.concat([integer(1), integer(2)])).length, 2, 'elements one after another')
  t.throws(() => elements(Buffer.of(0x30)), unexpected, 'a header cut short')
  t.throws(() => elements(Buffer.of(0x30, 0x80)), unexpected, 'an indefinite length (BER, never DER)')
  t.throws(() => elements(Buffer.of(0x30, 0x85, 1, 1, 1, 1, 1)), unexpected, 'a length of five bytes')
  t.throws(() => elements(Buffer.of(0x30, 0x82, 0x01)), unexpected, 'a long-form length cut short')
  t.throws(() => elements(Buffer.of(0x30, 0x05, 0x00)), unexpected, 'contents cut short')
  t.throws(() => single(Buffer.concat([integer(1), integer(2)]), 0x02, 'one'), unexpected, 'two elements where one belongs')
  t.throws(() => single(integer(1), 0x04, 'an octet string'), unexpected, 'the wrong tag')
  t.throws(() => single(Buffer.alloc(0), 0x04, 'an octet string'), unexpected, 'nothing')
})

t.test('PKCS#8 and SPKI: the expected members, a public key of whole bytes', async (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'der' }, publicKeyEncoding: { type: 'spki', format: 'der' } })
  t.equal(ed25519Seed(pkcs8PrivateKey(privateKey)).length, 32)
  t.equal(spkiPublicKey(publicKey).length, 32)
  t.throws(() => pkcs8PrivateKey(publicKey), unexpected, 'an SPKI is no PKCS#8')
  t.throws(() => spkiPublicKey(privateKey), unexpected, 'a PKCS#8 is no SPKI')
  const partial = Buffer.from(publicKey)
  partial[11] = 1
  t.throws(() => spkiPublicKey(partial), unexpected, 'a BIT STRING with unused bits')
  t.throws(() => ed25519Seed(octets(31)), unexpected, 'a 31-byte seed')
})

t.test('ECPrivateKey: version 1 and a scalar of the curve\'s length; the point uncompressed', async (t) => {
  t.equal(ecScalar(sequence(integer(1), octets(32)), 32).length, 32)
  t.throws(() => ecScalar(sequence(integer(2), octets(32)), 32), unexpected, 'version 2')
  t.throws(() => ecScalar(sequence(integer(1), octets(31)), 32), unexpected, 'a scalar without its leading zero')
  t.throws(() => ecScalar(sequence(integer(1)), 32), unexpected, 'no scalar')
  const point = Buffer.concat([Buffer.of(4), Buffer.alloc(32, 1), Buffer.alloc(32, 2)])
  const { x, y } = uncompressedPoint(point, 32)
  t.ok(x.equals(Buffer.alloc(32, 1)) && y.equals(Buffer.alloc(32, 2)), 'x then y')
  t.throws(() => uncompressedPoint(Buffer.concat([Buffer.of(2), Buffer.alloc(32, 1)]), 32), unexpected, 'a compressed point')
  t.throws(() => uncompressedPoint(Buffer.concat([Buffer.of(3), point.subarray(1)]), 32), unexpected, 'a wrong prefix')
})

t.test('RSAPrivateKey: version 0, eight positive integers, each without DER\'s sign byte', async (t) => {
  const members = [[0x00, 0xc1, 0x01], [0x01, 0x00, 0x01], [0x05], [0x00, 0x80], [0x07], [0x08], [0x09], [0x0a]]
  t.same(rsaIntegers(sequence(integer(0), ...members.map((bytes) => integer(...bytes)))).map((b) => b.toString('hex')), ['c101', '010001', '05', '80', '07', '08', '09', '0a'])
  t.throws(() => rsaIntegers(sequence(integer(1), ...members.map((bytes) => integer(...bytes)))), unexpected, 'version 1 (more than two primes)')
  t.throws(() => rsaIntegers(sequence(integer(0), ...members.slice(1).map((bytes) => integer(...bytes)))), unexpected, 'a member missing')
  t.throws(() => rsaIntegers(sequence(integer(0), ...members.map((bytes) => integer(...bytes)), integer(1))), unexpected, 'a member too many')
  t.throws(() => rsaIntegers(sequence(integer(0), integer(0xff), ...members.slice(1).map((bytes) => integer(...bytes)))), unexpected, 'a negative integer')
  t.throws(() => rsaIntegers(sequence(integer(0), integer(), ...members.slice(1).map((bytes) => integer(...bytes)))), unexpected, 'an empty integer')
})
