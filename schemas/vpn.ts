import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity, StringEnum } from './common.js'

export const VPN_PROTOCOLS = ['shadowsocks', 'wireguard', 'hex'] as const

export const VpnParams = Params('VpnParams', {
  protocol: StringEnum(VPN_PROTOCOLS, {
    default: 'shadowsocks',
    description: 'shadowsocks: URL-safe password of `length` characters; wireguard: a private key as `wg genkey` makes it; hex: 32 random bytes as 64 hex characters.'
  }),
  length: Type.Integer({ minimum: 2, maximum: 256, default: 32, description: 'Characters per shadowsocks password (2..256); ignored by the other protocols.' }),
  quantity: Quantity
}, {
  description: 'VPN secret material (never a complete configuration).',
  examples: [{ protocol: 'wireguard' }]
})

export const VpnResult = GenerationResult('VpnResult', 'vpn')
