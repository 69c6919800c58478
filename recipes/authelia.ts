import type { Recipe } from '../schemas/recipes.js'

// What `authelia crypto rand --length 64 --charset alphanumeric` prints. The guide prefers the
// *_FILE form of each variable (a file holding the secret); the plain names work since 4.30.0
const secret64 = { length: 64, symbols: false }

export default {
  id: 'authelia',
  title: 'Authelia',
  docs: 'https://www.authelia.com/configuration/methods/secrets/',
  group: 'apps',
  items: [
    { name: 'AUTHELIA_SESSION_SECRET', type: 'password', params: secret64 },
    { name: 'AUTHELIA_STORAGE_ENCRYPTION_KEY', type: 'password', params: secret64 },
    { name: 'AUTHELIA_IDENTITY_VALIDATION_RESET_PASSWORD_JWT_SECRET', type: 'password', params: secret64 },
    { name: 'AUTHELIA_IDENTITY_PROVIDERS_OIDC_HMAC_SECRET', type: 'password', params: secret64 },
    // `authelia crypto hash generate argon2`'s defaults: m=64 MiB, t=3, p=4
    { name: 'AUTHELIA_ADMIN_PASSWORD', type: 'password', params: { length: 24, hash: { algorithm: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 } } }
  ],
  notes: {
    AUTHELIA_SESSION_SECRET: 'The secret session cookies are encrypted with (session.secret), read from the environment of the Authelia container.',
    AUTHELIA_STORAGE_ENCRYPTION_KEY: 'The key the storage backend\'s sensitive columns are encrypted with (storage.encryption_key), read from the environment of the Authelia container.',
    AUTHELIA_IDENTITY_VALIDATION_RESET_PASSWORD_JWT_SECRET: 'The HMAC secret of the password-reset links\' JWTs (identity_validation.reset_password.jwt_secret), read from the environment of the Authelia container.',
    AUTHELIA_IDENTITY_PROVIDERS_OIDC_HMAC_SECRET: 'The OpenID Connect provider\'s HMAC secret (identity_providers.oidc.hmac_secret), read from the environment of the Authelia container: drop this line unless the configuration file sets up the provider\'s clients and jwks, since the variable alone opens that section and Authelia then refuses to start without them.',
    AUTHELIA_ADMIN_PASSWORD: 'The admin user\'s password, typed at Authelia\'s login: keep it in a password manager, not in Authelia\'s configuration.',
    AUTHELIA_ADMIN_PASSWORD_HASH: 'The password\'s Argon2id PHC string: the admin user\'s password field in users_database.yml, which the file authentication backend reads.'
  }
} satisfies Recipe
