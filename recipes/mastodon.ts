import type { Recipe } from '../schemas/recipes.js'

// What `rails secret` prints (SecureRandom.hex(64)), and what `bin/rails db:encryption:init` prints
// for each of its three lines (SecureRandom.alphanumeric(32))
const railsSecret = { byteLength: 64, encoding: 'hex' }
const encryptionKey = { format: 'alphanumeric', length: 32 }

export default {
  id: 'mastodon',
  title: 'Mastodon',
  docs: 'https://docs.joinmastodon.org/admin/config/',
  group: 'apps',
  items: [
    { name: 'SECRET_KEY_BASE', type: 'seq', params: railsSecret },
    // The guide still lists OTP_SECRET, but Mastodon 4.4.0 removed it (CHANGELOG: "Remove
    // OTP_SECRET environment variable and legacy OTP code"); 4.3 aborts without it. Kept for 4.3
    { name: 'OTP_SECRET', type: 'seq', params: railsSecret },
    { name: 'VAPID_PRIVATE_KEY', type: 'signing-key', params: { algorithm: 'ES256', format: 'vapid' } },
    { name: 'ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY', type: 'uuid', params: encryptionKey },
    { name: 'ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT', type: 'uuid', params: encryptionKey },
    { name: 'ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY', type: 'uuid', params: encryptionKey },
    { name: 'DB_PASS', type: 'password', params: { length: 32, symbols: false } }
  ],
  notes: {
    SECRET_KEY_BASE: 'The Rails secret every cookie and session is signed with: .env.production, read by the web, streaming and sidekiq processes.',
    OTP_SECRET: 'The secret of the two-factor codes that Mastodon 4.3 and older read from .env.production (4.4 and later ignore it).',
    VAPID_PRIVATE_KEY: 'The web push private key (32 bytes, Base64url) Mastodon signs push notifications with: .env.production.',
    VAPID_PUBLIC_KEY: 'The web push public key browsers subscribe with: .env.production, beside VAPID_PRIVATE_KEY.',
    ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY: 'Active Record encryption\'s key for the columns it encrypts deterministically: .env.production.',
    ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT: 'Active Record encryption\'s salt for deriving its keys: .env.production.',
    ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY: 'Active Record encryption\'s primary key, which encrypts the two-factor secrets and other columns: .env.production.',
    DB_PASS: 'The PostgreSQL password of Mastodon\'s database user: .env.production, and the same password in PostgreSQL.'
  }
} satisfies Recipe
