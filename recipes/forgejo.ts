import type { Recipe } from '../schemas/recipes.js'

// Forgejo keeps Gitea's settings and their readers (`forgejo generate secret`, the JWT secrets
// decoded to exactly 32 bytes, the internal token compared as a string); its container reads
// FORGEJO__section__KEY variables into app.ini
const jwtSecret = { byteLength: 32, encoding: 'base64url' }

export default {
  id: 'forgejo',
  title: 'Forgejo',
  docs: 'https://forgejo.org/docs/latest/admin/config-cheat-sheet/',
  group: 'apps',
  items: [
    { name: 'FORGEJO__security__SECRET_KEY', type: 'password', params: { length: 64, symbols: false } },
    { name: 'FORGEJO__security__INTERNAL_TOKEN', type: 'password', params: { length: 64, symbols: false } },
    { name: 'FORGEJO__oauth2__JWT_SECRET', type: 'seq', params: jwtSecret },
    { name: 'FORGEJO__server__LFS_JWT_SECRET', type: 'seq', params: jwtSecret }
  ],
  notes: {
    FORGEJO__security__SECRET_KEY: 'The global secret Forgejo encrypts stored credentials with ([security] SECRET_KEY), set from the container\'s environment into app.ini.',
    FORGEJO__security__INTERNAL_TOKEN: 'The token Forgejo\'s own commands authenticate to its internal API with ([security] INTERNAL_TOKEN), set from the container\'s environment into app.ini.',
    FORGEJO__oauth2__JWT_SECRET: 'The secret of the OAuth2 provider\'s access tokens ([oauth2] JWT_SECRET, decoded to exactly 32 bytes), set from the container\'s environment into app.ini.',
    FORGEJO__server__LFS_JWT_SECRET: 'The secret of Git LFS\'s authentication tokens ([server] LFS_JWT_SECRET, decoded to exactly 32 bytes), set from the container\'s environment into app.ini.'
  }
} satisfies Recipe
