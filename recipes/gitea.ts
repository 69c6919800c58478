import type { Recipe } from '../schemas/recipes.js'

// What `gitea generate secret JWT_SECRET` prints: 32 bytes, Base64url without padding (43
// characters); Gitea wants exactly 32 bytes back and otherwise draws a secret of its own
const jwtSecret = { byteLength: 32, encoding: 'base64url' }

export default {
  id: 'gitea',
  title: 'Gitea',
  docs: 'https://docs.gitea.com/installation/install-with-docker#managing-deployments-with-environment-variables',
  group: 'apps',
  items: [
    { name: 'GITEA__security__SECRET_KEY', type: 'password', params: { length: 64, symbols: false } },
    { name: 'GITEA__security__INTERNAL_TOKEN', type: 'password', params: { length: 64, symbols: false } },
    { name: 'GITEA__oauth2__JWT_SECRET', type: 'seq', params: jwtSecret },
    { name: 'GITEA__server__LFS_JWT_SECRET', type: 'seq', params: jwtSecret }
  ],
  notes: {
    GITEA__security__SECRET_KEY: 'The global secret Gitea encrypts stored credentials with ([security] SECRET_KEY), set from the container\'s environment into app.ini.',
    GITEA__security__INTERNAL_TOKEN: 'The token Gitea\'s own commands (the SSH hooks, `gitea admin`) authenticate to its internal API with ([security] INTERNAL_TOKEN), set from the container\'s environment into app.ini.',
    GITEA__oauth2__JWT_SECRET: 'The secret of the OAuth2 provider\'s access tokens ([oauth2] JWT_SECRET, decoded to exactly 32 bytes), set from the container\'s environment into app.ini.',
    GITEA__server__LFS_JWT_SECRET: 'The secret of Git LFS\'s authentication tokens ([server] LFS_JWT_SECRET, decoded to exactly 32 bytes), set from the container\'s environment into app.ini.'
  }
} satisfies Recipe
