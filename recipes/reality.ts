import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'reality',
  title: 'Xray REALITY inbound',
  docs: 'https://xtls.github.io/en/config/transports/reality.html',
  group: 'vpn',
  items: [
    // As `xray x25519` makes the pair, and `openssl rand -hex 8` a short id
    { name: 'REALITY_PRIVATE_KEY', type: 'vpn', params: { protocol: 'reality' } },
    { name: 'REALITY_SHORT_ID', type: 'short-id' },
    { name: 'CLIENT_ID', type: 'uuid' }
  ],
  notes: {
    REALITY_PRIVATE_KEY: 'The server\'s X25519 private key: realitySettings.privateKey of the inbound in Xray\'s config.json.',
    REALITY_PUBLIC_KEY: 'The server\'s public key: realitySettings.publicKey (password in newer clients) of each client\'s outbound.',
    REALITY_SHORT_ID: 'One short id: an entry of the inbound\'s realitySettings.shortIds and the client outbound\'s shortId.',
    CLIENT_ID: 'The client\'s VLESS user id: settings.clients[].id of the inbound and the client outbound\'s id.'
  }
} satisfies Recipe
