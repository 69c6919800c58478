import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { VpnParams, VpnResult } from '../schemas/vpn.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomChunks, randomStrings } from '../src/random.js'

type Params = Static<typeof VpnParams>

/** RFC 4648 §5 URL-safe alphabet: Shadowsocks passwords that need no escaping in URIs. */
export const URL_SAFE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** The Curve25519 private key made of `bytes[start, start + 32)`, clamped in place, in Base64. */
function clampedKey (bytes: Buffer, start: number): string {
  // RFC 7748 clamping: clear the 3 low bits, clear the top bit, set the second-highest bit
  bytes[start] = (bytes[start] as number) & 248
  bytes[start + 31] = ((bytes[start + 31] as number) & 127) | 64
  return bytes.toString('base64', start, start + 32)
}

const GENERATE: Record<Params['protocol'], (length: number, quantity: number) => string[]> = {
  shadowsocks: (length, quantity) => randomStrings(URL_SAFE_ALPHABET, length, quantity),
  wireguard: (_length, quantity) => randomChunks(32, quantity, clampedKey),
  hex: (_length, quantity) => randomChunks(32, quantity, (bytes, start, end) => bytes.toString('hex', start, end))
}

export function generateVpnSecrets ({ protocol, length, quantity }: Params): string[] {
  return GENERATE[protocol](length, quantity)
}

/** The alphabet has 64 characters (6 bits each); clamping fixes 5 of a key's 256 bits. */
const ENTROPY_BITS: Record<Params['protocol'], (length: number) => number> = {
  shadowsocks: (length) => 6 * length,
  wireguard: () => 251,
  hex: () => 256
}

export function vpnEntropyBits ({ protocol, length }: Params): number {
  return ENTROPY_BITS[protocol](length)
}

export default fp(async function vpnGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'vpn',
    name: 'Vpn',
    summary: 'Generate VPN secret material',
    description: 'shadowsocks: `length` characters of A-Z a-z 0-9 - _; wireguard: a clamped Curve25519 private key in Base64 (44 characters, as `wg genkey`); hex: 32 random bytes as 64 lowercase hex characters. Never a complete configuration.',
    params: VpnParams,
    result: VpnResult,
    generate: (params) => ({ values: generateVpnSecrets(params), entropyBits: vpnEntropyBits(params) })
  })
}, { name: 'generator-vpn', dependencies: ['errors'] })
