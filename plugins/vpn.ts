import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { VpnParams, VpnResult } from '../schemas/vpn.js'
import type { Generated } from '../src/http/generator-route.js'
import { BASE64, BASE64URL, HEX } from '../src/random/alphabets.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { x25519PublicKey } from '../src/keys/x25519.js'
import { ML_DSA_65_SEED_BYTES, ML_KEM_768_SEED_BYTES, POST_QUANTUM } from '../src/keys/post-quantum.js'
import { randomChunks, randomStrings } from '../src/random/csprng.js'

type Params = Static<typeof VpnParams>
type Protocol = Params['protocol']

/** RFC 4648 §5 URL-safe alphabet: Shadowsocks passwords that need no escaping in URIs. */
export const URL_SAFE_ALPHABET = BASE64URL

/** RFC 7748 clamping of the X25519 private key in `bytes[start, start + 32)`, in place. */
function clamp (bytes: Buffer, start: number): void {
  // Clear the 3 low bits, clear the top bit, set the second-highest bit (as `wg genkey` does)
  bytes[start] = (bytes[start] as number) & 248
  bytes[start + 31] = ((bytes[start + 31] as number) & 127) | 64
}

/** `quantity` values, each `size` random bytes (one draw, wiped once encoded) in `encoding`. */
function secrets (size: number, encoding: 'base64' | 'hex', quantity: number): string[] {
  return randomChunks(size, quantity, (bytes, start, end) => bytes.toString(encoding, start, end))
}

interface Made { values: string[], publicKeys?: string[] }

/** `quantity` clamped X25519 private keys in `encoding`, with their public keys in the same encoding. */
function keyPairs (encoding: 'base64' | 'base64url', quantity: number): Made {
  const publicKeys: string[] = []
  const values = randomChunks(32, quantity, (bytes, start, end) => {
    clamp(bytes, start)
    const privateKey = bytes.subarray(start, end)
    publicKeys.push(x25519PublicKey(privateKey).toString(encoding))
    return privateKey.toString(encoding)
  })
  return { values, publicKeys }
}

/** Bytes as unpadded base64url, without copying them. */
function base64url (bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url')
}

/**
 * `quantity` post-quantum key pairs as `xray mlkem768` / `xray mldsa65` print them: the seed (the
 * private key Xray stores; one draw, wiped once encoded) and the public key derived from it, both
 * unpadded base64url.
 */
function seededKeyPairs (seedBytes: number, publicKeyOf: (seed: Uint8Array) => Uint8Array, quantity: number): Made {
  const publicKeys: string[] = []
  const values = randomChunks(seedBytes, quantity, (bytes, start, end) => {
    const seed = bytes.subarray(start, end)
    publicKeys.push(base64url(publicKeyOf(seed)))
    return seed.toString('base64url')
  })
  return { values, publicKeys }
}

/** Every character of a value or public key: standard Base64 (keys, PSKs, 2022 keys), base64url (Shadowsocks passwords, REALITY), hex. */
export const VPN_ALPHABET = BASE64 + BASE64URL + HEX

/**
 * Every protocol's values: what each tool people use today makes (CONTRACT §2 vpn). Base64 is
 * standard and padded (what WireGuard and Shadowsocks-2022 configurations take); REALITY keys are
 * unpadded base64url, as `xray x25519` prints them.
 */
const GENERATE: Record<Protocol, (length: number, quantity: number) => string[] | Made> = {
  shadowsocks: (length, quantity) => randomStrings(URL_SAFE_ALPHABET, length, quantity),
  '2022-blake3-aes-128-gcm': (_length, quantity) => secrets(16, 'base64', quantity),
  '2022-blake3-aes-256-gcm': (_length, quantity) => secrets(32, 'base64', quantity),
  '2022-blake3-chacha20-poly1305': (_length, quantity) => secrets(32, 'base64', quantity),
  wireguard: (_length, quantity) => keyPairs('base64', quantity),
  // A preshared key is a plain symmetric secret: not clamped (`wg genpsk`)
  'wireguard-psk': (_length, quantity) => secrets(32, 'base64', quantity),
  reality: (_length, quantity) => keyPairs('base64url', quantity),
  mlkem768: (_length, quantity) => seededKeyPairs(ML_KEM_768_SEED_BYTES, POST_QUANTUM.mlKem768, quantity),
  mldsa65: (_length, quantity) => seededKeyPairs(ML_DSA_65_SEED_BYTES, POST_QUANTUM.mlDsa65, quantity),
  hex: (_length, quantity) => secrets(32, 'hex', quantity)
}

/**
 * Each value's randomness: 64 characters are 6 bits each; a key of n bytes is 8n bits, less the
 * 5 bits clamping fixes in a private key.
 */
const ENTROPY_BITS: Record<Protocol, (length: number) => number> = {
  shadowsocks: (length) => 6 * length,
  '2022-blake3-aes-128-gcm': () => 128,
  '2022-blake3-aes-256-gcm': () => 256,
  '2022-blake3-chacha20-poly1305': () => 256,
  wireguard: () => 251,
  'wireguard-psk': () => 256,
  reality: () => 251,
  // The whole seed is random and every bit of it shapes the key (FIPS 203/204 hash it first)
  mlkem768: () => 512,
  mldsa65: () => 256,
  hex: () => 256
}

/** The protocols whose values are key pairs (`publicKeys` in the answer). */
export const KEY_PAIR_PROTOCOLS: ReadonlySet<Protocol> = new Set(['wireguard', 'reality', 'mlkem768', 'mldsa65'])

export function vpnEntropyBits ({ protocol, length }: Params): number {
  return ENTROPY_BITS[protocol](length)
}

/** The values (and public keys, for key pairs) of one request. */
export function generateVpn (params: Params): Generated {
  const made = GENERATE[params.protocol](params.length, params.quantity)
  return { ...(Array.isArray(made) ? { values: made } : made), entropyBits: vpnEntropyBits(params) }
}

export function generateVpnSecrets (params: Params): string[] {
  return generateVpn(params).values
}

export default fp(async function vpnGenerator (app: FastifyInstance) {
  app.log.info({ postQuantum: POST_QUANTUM.name }, 'mlkem768 and mldsa65 public keys by ' + POST_QUANTUM.name)
  registerGenerator(app, {
    type: 'vpn',
    name: 'Vpn',
    summary: 'Generate VPN secrets and key pairs',
    description: 'shadowsocks: a URL-safe password of `length` characters; 2022-blake3-*: a Shadowsocks 2022 key (16 or 32 random bytes, Base64, as `openssl rand -base64`); wireguard: a private key as `wg genkey` makes it, with its public key (as `wg pubkey`) in `publicKeys`; wireguard-psk: a preshared key as `wg genpsk`; reality: an Xray REALITY X25519 key pair as `xray x25519` (unpadded base64url); mlkem768: an ML-KEM-768 seed and its public key as `xray mlkem768` prints them (Seed, Client), for VLESS Encryption; mldsa65: an ML-DSA-65 seed and its public key as `xray mldsa65` prints them (Seed, Verify), for REALITY; hex: 32 random bytes as 64 hex characters. Never a complete configuration.',
    params: VpnParams,
    result: VpnResult,
    alphabet: VPN_ALPHABET,
    generate: generateVpn,
    keyPairs: ({ protocol }) => KEY_PAIR_PROTOCOLS.has(protocol)
  })
}, { name: 'generator-vpn', dependencies: ['errors'] })
