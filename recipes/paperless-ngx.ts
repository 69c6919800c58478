import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'paperless-ngx',
  title: 'Paperless-ngx',
  docs: 'https://docs.paperless-ngx.com/configuration/',
  group: 'apps',
  items: [
    // A Django secret key, as get_random_secret_key makes one (Paperless-ngx is a Django app)
    { name: 'PAPERLESS_SECRET_KEY', type: 'password', params: { length: 50, uppercase: false, minLowercase: 0, minNumbers: 0, minSymbols: 0, symbolSet: '!@#$%^&*(-_=+)' } },
    { name: 'PAPERLESS_DBPASS', type: 'password', params: { length: 32, symbols: false } }
  ],
  notes: {
    PAPERLESS_SECRET_KEY: 'Django\'s SECRET_KEY, which signs sessions and links: docker-compose.env, read by the webserver container.',
    PAPERLESS_DBPASS: 'The PostgreSQL password: docker-compose.env for the webserver, and the same as POSTGRES_PASSWORD for the db container.'
  }
} satisfies Recipe
