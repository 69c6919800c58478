import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'oidc',
  title: 'OpenID Connect provider keys',
  docs: 'https://www.authelia.com/configuration/identity-providers/openid-connect/provider/',
  group: 'keys',
  items: [
    // A JWK on one line (the .env form takes no multi-line PEM); its public JWK is the derived line
    { name: 'OIDC_PRIVATE_KEY', type: 'signing-key', params: { algorithm: 'RS256' } },
    // What Authelia's hmac_secret asks for: at least 64 random characters
    { name: 'OIDC_HMAC_SECRET', type: 'password', params: { length: 64, symbols: false } }
  ],
  notes: {
    OIDC_PRIVATE_KEY: 'The provider\'s RS256 signing key as a private JWK: the provider\'s jwks configuration (Authelia takes it as PEM: ask signing-key for format pem and save private.pem).',
    OIDC_PUBLIC_KEY: 'Its public JWK, with the kid relying parties find in the provider\'s /jwks.json.',
    OIDC_HMAC_SECRET: 'The provider\'s HMAC secret for its opaque tokens: Authelia\'s identity_providers.oidc.hmac_secret (AUTHELIA_IDENTITY_PROVIDERS_OIDC_HMAC_SECRET).'
  }
} satisfies Recipe
