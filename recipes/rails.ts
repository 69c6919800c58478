import type { Recipe } from '../schemas/recipes.js'

// What `bin/rails db:encryption:init` prints for each key (SecureRandom.alphanumeric(32)). Rails
// reads SECRET_KEY_BASE from the environment, but keeps these three in its credentials: the
// environment names are Mastodon's convention, which an app maps itself (as the notes say)
const encryptionKey = { format: 'alphanumeric', length: 32 }

export default {
  id: 'rails',
  title: 'Ruby on Rails',
  docs: 'https://guides.rubyonrails.org/active_record_encryption.html#setup',
  group: 'apps',
  items: [
    // What `bin/rails secret` prints (SecureRandom.hex(64))
    { name: 'SECRET_KEY_BASE', type: 'seq', params: { byteLength: 64, encoding: 'hex' } },
    { name: 'ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY', type: 'uuid', params: encryptionKey },
    { name: 'ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT', type: 'uuid', params: encryptionKey },
    { name: 'ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY', type: 'uuid', params: encryptionKey }
  ],
  notes: {
    SECRET_KEY_BASE: 'The secret every key of the app is derived from (cookies, signed ids): Rails reads ENV[\'SECRET_KEY_BASE\'] in production.',
    ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY: 'Active Record encryption\'s deterministic key: config.active_record.encryption.deterministic_key, set from this variable in config/application.rb (or the credentials).',
    ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT: 'Active Record encryption\'s key derivation salt: config.active_record.encryption.key_derivation_salt, set from this variable in config/application.rb (or the credentials).',
    ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY: 'Active Record encryption\'s primary key: config.active_record.encryption.primary_key, set from this variable in config/application.rb (or the credentials).'
  }
} satisfies Recipe
