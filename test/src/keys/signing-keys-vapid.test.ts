// VAPID pairs (CONTRACT §13): web-push takes each pair and signs its JWT, which jose verifies
// with the public key. web-push checks only the lengths, so the public point is also derived from
// the scalar by another path (ECDH); and a scalar with a leading zero byte (1 key in 256) must
// keep it, since web-push refuses 31 bytes (ECDH.getPrivateKey() returns them).
import t from 'tap'
import { createECDH } from 'node:crypto'
import webpush from 'web-push'
import { signingKeys } from '../../../src/keys/signing-keys.js'
import { webPushVapid } from '../../app-readers/index.js'

const SUBJECT = 'mailto:a@example.com'
const AUDIENCE = 'https://push.example.com'

/** VAPID pairs until one has a scalar with a leading zero byte (missed once in 10^9 runs: (255/256)^5300). */
function pairsWithLeadingZero (): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (let round = 0; round < 106; round++) {
    const { values, publicKeys } = signingKeys({ algorithm: 'ES256', format: 'vapid', quantity: 50 })
    values.forEach((value, index) => pairs.push([value, publicKeys?.[index] as string]))
    if (values.some((value) => Buffer.from(value, 'base64url')[0] === 0)) break
  }
  return pairs
}

const pairs = pairsWithLeadingZero()
const leadingZero = pairs.find(([value]) => Buffer.from(value, 'base64url')[0] === 0)
// The pair with a leading zero and a few others, for the slower checks
const checked = [...(leadingZero === undefined ? [] : [leadingZero]), ...pairs.slice(0, 10)]

t.test('a scalar with a leading zero byte appears, and keeps its 32 bytes', async (t) => {
  t.ok(leadingZero, `found among ${pairs.length} keys`)
  const [value] = leadingZero as [string, string]
  t.equal(value.length, 43)
  t.equal(Buffer.from(value, 'base64url').length, 32)
  t.ok(pairs.every(([value, publicKey]) => Buffer.from(value, 'base64url').length === 32 && Buffer.from(publicKey, 'base64url').length === 65), 'every pair: 32 and 65 bytes')
})

t.test('the public key is the scalar times G, by ECDH (not by the module\'s path)', async (t) => {
  for (const [value, publicKey] of pairs) {
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(Buffer.from(value, 'base64url'))
    if (ecdh.getPublicKey('base64url') !== publicKey) t.fail(`${publicKey} is not the public key of its scalar`)
  }
  t.pass(`${pairs.length} pairs`)
})

t.test('web-push takes each pair, and the JWT it signs with the scalar verifies with the public key (jose)', async (t) => {
  for (const [value, publicKey] of checked) {
    t.match(await webPushVapid(publicKey, value, AUDIENCE, SUBJECT), { ok: true, k: publicKey, payload: { aud: AUDIENCE, sub: SUBJECT } }, `${publicKey.slice(0, 12)}...: web-push's JWT verifies`)
  }
})

t.test('without its leading zero byte, web-push refuses the scalar: the padding is what makes it work', async (t) => {
  const [value, publicKey] = leadingZero as [string, string]
  const scalar = Buffer.from(value, 'base64url')
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(scalar)
  const unpadded = ecdh.getPrivateKey('base64url')
  t.ok(Buffer.from(unpadded, 'base64url').length < 32, 'ECDH.getPrivateKey() drops the zero byte')
  t.throws(() => webpush.setVapidDetails(SUBJECT, publicKey, unpadded), /32 bytes/)
})
