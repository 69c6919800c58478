import t, { type Test } from 'tap'
import fc from 'fast-check'
import { createPrivateKey, createPublicKey } from 'node:crypto'
import { URL_SAFE_ALPHABET, generateVpnSecrets } from '../../plugins/vpn.js'
import { build, get, post } from '../helper.js'

const BASE64_44 = /^[A-Za-z0-9+/]{43}=$/
// PKCS#8 wrapping of a raw X25519 private key (RFC 8410)
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex')

/** The checks `wg pubkey` relies on: 32 bytes, clamped as RFC 7748 says. */
function checkWireguardKey (t: Test, key: string): void {
  t.match(key, BASE64_44)
  const bytes = Buffer.from(key, 'base64')
  t.equal(bytes.length, 32)
  t.equal(bytes.toString('base64'), key, 'canonical Base64')
  t.equal((bytes[0] as number) & 7, 0, 'low 3 bits of byte 0 cleared')
  t.equal((bytes[31] as number) & 128, 0, 'top bit of byte 31 cleared')
  t.equal((bytes[31] as number) & 64, 64, 'bit 6 of byte 31 set')
}

t.test('URL-safe alphabet', async (t) => {
  t.equal(URL_SAFE_ALPHABET, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_')
})

t.test('WireGuard keys: clamped 32-byte keys, usable as X25519 keys', async (t) => {
  const wireguardKeys = (quantity: number) => generateVpnSecrets({ protocol: 'wireguard', length: 32, quantity })
  // 200 keys: an unclamped generator fails the byte-0 check with probability 1 - (1/8)^200
  for (const key of wireguardKeys(200)) checkWireguardKey(t, key)
  const key = Buffer.from(wireguardKeys(1)[0] as string, 'base64')
  const privateKey = createPrivateKey({ key: Buffer.concat([X25519_PKCS8_PREFIX, key]), format: 'der', type: 'pkcs8' })
  const publicKey = createPublicKey(privateKey).export({ format: 'jwk' })
  t.equal(Buffer.from(publicKey.x as string, 'base64url').length, 32, 'a public key derives from it')
})

t.test('generateVpnSecrets: property: length and alphabet per protocol', async (t) => {
  fc.assert(fc.property(
    fc.constantFrom('shadowsocks', 'wireguard', 'hex'),
    fc.integer({ min: 2, max: 256 }),
    fc.integer({ min: 1, max: 50 }),
    (protocol, length, quantity) => {
      const values = generateVpnSecrets({ protocol, length, quantity })
      const shape = protocol === 'shadowsocks'
        ? new RegExp(`^[A-Za-z0-9_-]{${length}}$`)
        : protocol === 'wireguard' ? BASE64_44 : /^[0-9a-f]{64}$/
      return values.length === quantity && values.every((value) => shape.test(value))
    }
  ), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: a shadowsocks password of 32 URL-safe characters', async (t) => {
    const response = await post(app, 'vpn', {})
    t.match(response.json().values[0], /^[A-Za-z0-9_-]{32}$/)
  })

  t.test('shadowsocks length 2 and 256', async (t) => {
    for (const length of [2, 256]) {
      const response = await get(app, 'vpn', { protocol: 'shadowsocks', length, quantity: 3 })
      for (const value of response.json().values) t.match(value, new RegExp(`^[A-Za-z0-9_-]{${length}}$`))
    }
  })

  t.test('wireguard: clamped keys; length is ignored', async (t) => {
    const response = await post(app, 'vpn', { protocol: 'wireguard', length: 2, quantity: 50 })
    t.equal(response.statusCode, 200)
    for (const value of response.json().values) checkWireguardKey(t, value)
  })

  t.test('hex: 64 lowercase hex characters; length is ignored', async (t) => {
    const response = await get(app, 'vpn', { protocol: 'hex', length: 200, quantity: 5 })
    for (const value of response.json().values) t.match(value, /^[0-9a-f]{64}$/)
  })
})
