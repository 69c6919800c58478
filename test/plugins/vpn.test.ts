import t, { type Test } from 'tap'
import fc from 'fast-check'
import { createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { URL_SAFE_ALPHABET, generateVpn, generateVpnSecrets } from '../../plugins/vpn.js'
import { VPN_PROTOCOLS } from '../../schemas/vpn.js'
import { build, get, post } from '../helper.js'

const BASE64_44 = /^[A-Za-z0-9+/]{43}=$/
// PKCS#8 wrapping of a raw X25519 private key (RFC 8410)
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex')

const BASE64URL_43 = /^[A-Za-z0-9_-]{43}$/
// SPKI wrapping of a raw X25519 public key (RFC 8410): the base point u = 9
const X25519_SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex')
const BASE_POINT = createPublicKey({ key: Buffer.concat([X25519_SPKI_PREFIX, Buffer.from([9]), Buffer.alloc(31)]), format: 'der', type: 'spki' })

/**
 * X25519(private, 9) by a path of its own: the key wrapped in PKCS#8 DER (not the raw key or JWK the
 * service uses) and a Diffie-Hellman with the base point, whose shared secret is the public key.
 */
function independentPublicKey (privateKey: Buffer): Buffer {
  const key = createPrivateKey({ key: Buffer.concat([X25519_PKCS8_PREFIX, privateKey]), format: 'der', type: 'pkcs8' })
  return diffieHellman({ privateKey: key, publicKey: BASE_POINT })
}

function hasWg (): boolean {
  try {
    execFileSync('wg', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

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

t.test('WireGuard: every public key is what `wg pubkey` prints for its private key', async (t) => {
  if (!hasWg()) {
    // CI installs wireguard-tools (.ci/run): there a missing `wg` is a failure, not a skip
    if (process.env.CI === 'true') t.fail('wg is missing under CI=true: .ci/run must install wireguard-tools')
    else t.pass('wg pubkey comparison', { skip: 'wg (wireguard-tools) is not installed: apt-get install wireguard-tools to run this check' })
    return
  }
  const { values, publicKeys } = generateVpn({ protocol: 'wireguard', length: 32, quantity: 50 })
  t.equal(publicKeys?.length, 50)
  values.forEach((privateKey, index) => {
    const printed = execFileSync('wg', ['pubkey'], { input: privateKey + '\n' }).toString().trim()
    t.equal(publicKeys?.[index], printed, `key ${index}`)
  })
  // And `wg genkey`'s own keys give the same public key through the service's path
  const theirs = execFileSync('wg', ['genkey']).toString().trim()
  const { x25519PublicKey } = await import('../../src/keys/x25519.js')
  t.equal(x25519PublicKey(Buffer.from(theirs, 'base64')).toString('base64'), execFileSync('wg', ['pubkey'], { input: theirs + '\n' }).toString().trim(), 'a wg genkey key')
})

t.test('REALITY: clamped keys in unpadded base64url, public key = X25519(private) by an independent path', async (t) => {
  const { values, publicKeys, entropyBits } = generateVpn({ protocol: 'reality', length: 32, quantity: 50 })
  t.equal(entropyBits, 251)
  values.forEach((value, index) => {
    t.match(value, BASE64URL_43)
    const privateKey = Buffer.from(value, 'base64url')
    t.equal(privateKey.toString('base64url'), value, 'canonical base64url')
    t.equal((privateKey[0] as number) & 7, 0, 'clamped: low 3 bits of byte 0 cleared')
    t.equal((privateKey[31] as number) & 192, 64, 'clamped: top bit cleared, bit 6 set')
    const publicKey = publicKeys?.[index] as string
    t.match(publicKey, BASE64URL_43)
    t.equal(publicKey, independentPublicKey(privateKey).toString('base64url'))
  })
})

t.test('WireGuard public keys also match the independent path', async (t) => {
  const { values, publicKeys } = generateVpn({ protocol: 'wireguard', length: 32, quantity: 20 })
  values.forEach((value, index) => t.equal(publicKeys?.[index], independentPublicKey(Buffer.from(value, 'base64')).toString('base64')))
})

t.test('Shadowsocks 2022 and WireGuard PSK: exact byte lengths, canonical padded Base64', async (t) => {
  const sizes = { '2022-blake3-aes-128-gcm': 16, '2022-blake3-aes-256-gcm': 32, '2022-blake3-chacha20-poly1305': 32, 'wireguard-psk': 32 } as const
  for (const [protocol, size] of Object.entries(sizes) as Array<[keyof typeof sizes, number]>) {
    const { values, publicKeys, entropyBits } = generateVpn({ protocol, length: 2, quantity: 50 })
    t.equal(publicKeys, undefined, `${protocol}: no public keys`)
    t.equal(entropyBits, size * 8)
    for (const value of values) {
      t.equal(value.length, size === 16 ? 24 : 44)
      const bytes = Buffer.from(value, 'base64')
      t.equal(bytes.length, size, `${protocol}: ${size} bytes`)
      t.equal(bytes.toString('base64'), value, `${protocol}: canonical Base64`)
    }
  }
})

t.test('a PSK is not clamped: the low 3 bits of byte 0 and the top 2 bits of byte 31 vary', async (t) => {
  // 400 keys: a clamped generator shows low bits 000 every time; an unclamped one shows all 8
  // patterns (each missing with probability (7/8)^400 < 1e-23)
  const keys = generateVpnSecrets({ protocol: 'wireguard-psk', length: 32, quantity: 50 })
  for (let i = 0; i < 7; i++) keys.push(...generateVpnSecrets({ protocol: 'wireguard-psk', length: 32, quantity: 50 }))
  const low = new Set(keys.map((key) => (Buffer.from(key, 'base64')[0] as number) & 7))
  const high = new Set(keys.map((key) => (Buffer.from(key, 'base64')[31] as number) >> 6))
  t.equal(low.size, 8, 'all 8 low-bit patterns of byte 0')
  t.equal(high.size, 4, 'all 4 top-bit patterns of byte 31')
})

t.test('every protocol over HTTP: POST and GET alike, publicKeys only for key pairs, text/plain pairs', async (t) => {
  const app = await build(t)
  for (const protocol of VPN_PROTOCOLS) {
    for (const send of [post, get]) {
      const response = await send(app, 'vpn', { protocol, quantity: 3 })
      t.equal(response.statusCode, 200, protocol)
      const body = response.json()
      t.equal(body.values.length, 3)
      if (['wireguard', 'reality', 'mlkem768', 'mldsa65'].includes(protocol)) t.equal(body.publicKeys.length, 3, `${protocol}: publicKeys`)
      else t.notOk('publicKeys' in body, `${protocol}: no publicKeys`)
    }
  }
  const plain = await post(app, 'vpn', { protocol: 'reality', quantity: 2 }, { accept: 'text/plain' })
  const lines = plain.body.split('\n')
  t.equal(lines.length, 3, 'two lines and the final line feed')
  for (const line of lines.slice(0, 2)) t.match(line, /^[A-Za-z0-9_-]{43} [A-Za-z0-9_-]{43}$/, 'private key, space, public key')
})
