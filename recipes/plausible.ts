import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'plausible',
  title: 'Plausible Community Edition',
  docs: 'https://github.com/plausible/community-edition',
  group: 'apps',
  items: [
    // `openssl rand -base64 48`: 64 characters (Phoenix wants a secret_key_base of at least 64 bytes)
    { name: 'SECRET_KEY_BASE', type: 'seq', params: { byteLength: 48, encoding: 'base64' } },
    // `openssl rand -base64 32`: decoded (Elixir's Base.decode64, padding required), exactly the
    // 32 bytes of the vault's AES-256 key. Optional in current Plausible (derived from
    // SECRET_KEY_BASE when absent, and no longer in the README); older CE releases require it
    { name: 'TOTP_VAULT_KEY', type: 'seq', params: { byteLength: 32, encoding: 'base64' } }
  ],
  notes: {
    SECRET_KEY_BASE: 'The Phoenix secret Plausible signs its sessions with (64 characters): .env, read by the plausible container.',
    TOTP_VAULT_KEY: 'The AES key (Base64 of 32 bytes) Plausible encrypts its users\' two-factor secrets with, read by the plausible container from .env: optional in current releases, and never to be changed once two-factor logins exist.'
  }
} satisfies Recipe
