import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity, StringEnum } from './common.js'

export const VPN_PROTOCOLS = [
  'shadowsocks',
  '2022-blake3-aes-128-gcm',
  '2022-blake3-aes-256-gcm',
  '2022-blake3-chacha20-poly1305',
  'wireguard',
  'wireguard-psk',
  'reality',
  'mlkem768',
  'mldsa65',
  'hex'
] as const

export const VpnParams = Params('VpnParams', {
  protocol: StringEnum(VPN_PROTOCOLS, {
    default: 'shadowsocks',
    description: [
      'shadowsocks: a classic AEAD password of `length` URL-safe characters (A-Z a-z 0-9 - _).',
      '2022-blake3-aes-128-gcm: a Shadowsocks 2022 key, 16 random bytes in standard Base64 (24 characters), as `openssl rand -base64 16`.',
      '2022-blake3-aes-256-gcm, 2022-blake3-chacha20-poly1305: 32 random bytes in standard Base64 (44 characters).',
      'wireguard: a private key as `wg genkey` makes it (32 random bytes, clamped, Base64); its public key, as `wg pubkey` prints it, in `publicKeys`.',
      'wireguard-psk: a preshared key as `wg genpsk` makes it (32 random bytes, not clamped, Base64).',
      'reality: an Xray REALITY X25519 private key as `xray x25519` makes it (clamped, unpadded base64url, 43 characters); its public key in `publicKeys`.',
      'mlkem768: an ML-KEM-768 (FIPS 203) key pair as `xray mlkem768` prints it: the value is the 64-byte seed, unpadded base64url (86 characters), the server\'s private key, last in its VLESS `decryption` string; its public key (1,184 bytes, 1,579 characters), what Xray prints as `Client`, goes last in the client\'s `encryption` string.',
      'mldsa65: an ML-DSA-65 (FIPS 204) key pair as `xray mldsa65` prints it: the value is the 32-byte seed, unpadded base64url (43 characters), the server\'s REALITY `mldsa65Seed`; its public key (1,952 bytes, 2,603 characters), what Xray prints as `Verify`, is the client\'s `mldsa65Verify`.',
      'hex: 32 random bytes as 64 lowercase hex characters.'
    ].join(' ')
  }),
  length: Type.Integer({ minimum: 2, maximum: 256, default: 32, description: 'Characters per shadowsocks password (2..256); ignored by the other protocols.' }),
  quantity: Quantity
}, {
  description: 'VPN secret material and key pairs (never a complete configuration).',
  examples: [{ protocol: 'wireguard' }, { protocol: 'reality', quantity: 2 }, { protocol: 'mlkem768' }, { protocol: 'mldsa65' }, { protocol: '2022-blake3-aes-256-gcm' }]
})

export const VpnResult = GenerationResult('VpnResult', 'vpn', { keyPairs: true, closedAlphabet: true })
