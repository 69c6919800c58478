import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'zitadel',
  title: 'ZITADEL',
  docs: 'https://zitadel.com/docs/self-hosting/manage/configure',
  group: 'apps',
  items: [
    // ZITADEL's master key must be exactly 32 characters (bytes): the AES-256 key its keys are encrypted with
    { name: 'ZITADEL_MASTERKEY', type: 'uuid', params: { format: 'alphanumeric', length: 32 } }
  ],
  notes: {
    ZITADEL_MASTERKEY: 'The master key ZITADEL encrypts its stored keys with (exactly 32 characters): the ZITADEL_MASTERKEY environment variable of the zitadel container (or --masterkey).'
  }
} satisfies Recipe
