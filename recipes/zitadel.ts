import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'zitadel',
  title: 'ZITADEL',
  docs: 'https://zitadel.com/docs/self-hosting/deploy/compose',
  group: 'apps',
  items: [
    // ZITADEL's master key must be exactly 32 bytes ("masterkey must be 32 bytes"), the AES-256 key
    // its keys are encrypted with; the guide draws it with `tr -dc A-Za-z0-9 | head -c 32`. Its
    // compose file passes `--masterkey "<literal>"`: reading this line needs --masterkeyFromEnv
    { name: 'ZITADEL_MASTERKEY', type: 'uuid', params: { format: 'alphanumeric', length: 32 } }
  ],
  notes: {
    ZITADEL_MASTERKEY: 'The master key ZITADEL encrypts its stored keys with (exactly 32 bytes), read from this variable when zitadel starts with --masterkeyFromEnv in place of the guide\'s --masterkey "<literal>".'
  }
} satisfies Recipe
