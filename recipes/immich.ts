import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'immich',
  title: 'Immich',
  docs: 'https://docs.immich.app/install/docker-compose/',
  group: 'apps',
  items: [
    // Immich's rule: only A-Za-z0-9 (other characters break its database connection string)
    { name: 'DB_PASSWORD', type: 'password', params: { length: 32, symbols: false } }
  ],
  notes: {
    DB_PASSWORD: 'The PostgreSQL password: .env beside docker-compose.yml, read by the database container and by immich-server.'
  }
} satisfies Recipe
