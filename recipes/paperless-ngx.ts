import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'paperless-ngx',
  title: 'Paperless-ngx',
  docs: 'https://docs.paperless-ngx.com/configuration/#PAPERLESS_SECRET_KEY',
  group: 'apps',
  items: [
    // A Django secret key, as get_random_secret_key makes one (Paperless-ngx is a Django app). Its
    // install script draws 64 characters over a wider set that holds `\`, `[`, `]` and a backtick,
    // which a single-quoted .env line cannot always carry; Django's own form passes W009 as well
    { name: 'PAPERLESS_SECRET_KEY', type: 'password', params: { length: 50, uppercase: false, minLowercase: 0, minNumbers: 0, minSymbols: 0, symbolSet: '!@#$%^&*(-_=+)' } },
    { name: 'PAPERLESS_DBPASS', type: 'password', params: { length: 32, symbols: false } }
  ],
  notes: {
    PAPERLESS_SECRET_KEY: 'Django\'s SECRET_KEY, which signs sessions and links: docker-compose.env, read by the webserver container.',
    PAPERLESS_DBPASS: 'The PostgreSQL password the webserver connects with (docker-compose.env); set the db service\'s POSTGRES_PASSWORD to the same value, since the shipped compose files hard-code paperless there.'
  }
} satisfies Recipe
