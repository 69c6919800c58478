import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'n8n',
  title: 'n8n',
  docs: 'https://docs.n8n.io/hosting/configuration/configuration-examples/encryption-key/',
  group: 'apps',
  items: [
    // What n8n writes into ~/.n8n/config when none is given: randomBytes(24) in Base64 (32 characters)
    { name: 'N8N_ENCRYPTION_KEY', type: 'seq', params: { byteLength: 24, encoding: 'base64' } }
  ],
  notes: {
    N8N_ENCRYPTION_KEY: 'The key n8n encrypts stored credentials with, read from the environment of the main process and, in queue mode, of every worker (the same key in each).'
  }
} satisfies Recipe
