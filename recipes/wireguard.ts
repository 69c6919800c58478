import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'wireguard',
  title: 'WireGuard peer',
  docs: 'https://www.wireguard.com/quickstart/',
  group: 'vpn',
  items: [
    // As `wg genkey` (and `wg pubkey` for the derived WG_PUBLIC_KEY) and `wg genpsk` make them
    { name: 'WG_PRIVATE_KEY', type: 'vpn', params: { protocol: 'wireguard' } },
    { name: 'WG_PRESHARED_KEY', type: 'vpn', params: { protocol: 'wireguard-psk' } }
  ],
  notes: {
    WG_PRIVATE_KEY: 'This peer\'s private key: PrivateKey in the [Interface] section of its wg-quick configuration (wg0.conf).',
    WG_PUBLIC_KEY: 'This peer\'s public key: PublicKey in the [Peer] section that names it in the other side\'s configuration.',
    WG_PRESHARED_KEY: 'The pair\'s pre-shared key: PresharedKey in the [Peer] section on both sides.'
  }
} satisfies Recipe
