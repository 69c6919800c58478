import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'authentik',
  title: 'authentik',
  docs: 'https://docs.goauthentik.io/install-config/install/docker-compose/',
  group: 'apps',
  items: [
    // The guide's `openssl rand -base64 36 | tr -d '\n'` (48 characters: PostgreSQL takes at most 99)
    { name: 'PG_PASS', type: 'seq', params: { byteLength: 36, encoding: 'base64' } },
    // The guide's `openssl rand -base64 60 | tr -d '\n'` (80 characters)
    { name: 'AUTHENTIK_SECRET_KEY', type: 'seq', params: { byteLength: 60, encoding: 'base64' } }
  ],
  notes: {
    PG_PASS: 'The PostgreSQL password: .env beside compose.yml, which sets it as the postgresql service\'s POSTGRES_PASSWORD and the server\'s and worker\'s AUTHENTIK_POSTGRESQL__PASSWORD.',
    AUTHENTIK_SECRET_KEY: 'The key authentik signs its cookies and tokens with: .env beside compose.yml, read by the server and the worker.'
  }
} satisfies Recipe
