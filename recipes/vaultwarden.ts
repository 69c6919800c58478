import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'vaultwarden',
  title: 'Vaultwarden',
  docs: 'https://github.com/dani-garcia/vaultwarden/wiki/Enabling-admin-page',
  group: 'apps',
  items: [
    // `vaultwarden hash`'s `bitwarden` preset: m=64 MiB + 4 KiB (65540), t=3, p=4. Its own salt is
    // 32 bytes, §12's 16: Vaultwarden verifies with the salt and parameters the PHC string holds
    { name: 'VAULTWARDEN_ADMIN_PASSWORD', type: 'passphrase', params: { hash: { algorithm: 'argon2id', memoryKiB: 65540, iterations: 3, parallelism: 4 } }, hashName: 'ADMIN_TOKEN' }
  ],
  notes: {
    VAULTWARDEN_ADMIN_PASSWORD: 'The passphrase you type on /admin: keep it in a password manager, not in Vaultwarden\'s configuration.',
    ADMIN_TOKEN: 'The passphrase\'s Argon2id PHC string, which Vaultwarden reads from its ADMIN_TOKEN environment variable (its .env or the container\'s environment) to check what is typed on /admin.'
  }
} satisfies Recipe
