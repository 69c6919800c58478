import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { VpnParams, VpnResult } from '../schemas/vpn.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomBytes, randomString } from '../src/random.js'

type Params = Static<typeof VpnParams>

/** RFC 4648 §5 URL-safe alphabet: Shadowsocks passwords that need no escaping in URIs. */
export const URL_SAFE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** A Curve25519 private key exactly as `wg genkey` makes it: 32 random bytes, clamped, Base64. */
export function wireguardPrivateKey (): string {
  const key = randomBytes(32)
  // RFC 7748 clamping: clear the 3 low bits, clear the top bit, set the second-highest bit
  key[0] = (key[0] as number) & 248
  key[31] = ((key[31] as number) & 127) | 64
  return key.toString('base64')
}

const GENERATE: Record<Params['protocol'], (length: number) => string> = {
  shadowsocks: (length) => randomString(URL_SAFE_ALPHABET, length),
  wireguard: () => wireguardPrivateKey(),
  hex: () => randomBytes(32).toString('hex')
}

export function generateVpnSecrets ({ protocol, length, quantity }: Params): string[] {
  return Array.from({ length: quantity }, () => GENERATE[protocol](length))
}

export default fp(async function vpnGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'vpn',
    name: 'Vpn',
    summary: 'Generate VPN secret material',
    description: 'shadowsocks: `length` characters of A-Z a-z 0-9 - _; wireguard: a clamped Curve25519 private key in Base64 (44 characters, as `wg genkey`); hex: 32 random bytes as 64 lowercase hex characters. Never a complete configuration.',
    params: VpnParams,
    result: VpnResult,
    generate: generateVpnSecrets
  })
}, { name: 'generator-vpn', dependencies: ['errors'] })
