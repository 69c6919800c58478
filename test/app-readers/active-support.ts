// SECRET_KEY_BASE as Rails derives its keys from it, with ActiveSupport itself (Debian
// ruby-activesupport 6.1): Rails::Application#key_generator is a CachingKeyGenerator over
// `KeyGenerator.new(secret_key_base, iterations: 1000)` (PBKDF2-HMAC-SHA1 in 6.1; Rails 7's
// defaults switch the digest to SHA-256, which 6.1 cannot show), and the encrypted cookie jar
// derives its key with the salt 'authenticated encrypted cookie' at MessageEncryptor.key_len for
// 'aes-256-gcm', Rails' defaults for both. The message is encrypted and signed with the first key
// and decrypted and verified with the key derived from `decryptWith` (the same value unless given):
// a wrong value there is refused (InvalidMessage). Active Record encryption (the
// ACTIVE_RECORD_ENCRYPTION_* lines) is Rails 7's and not in 6.1.
import { askJson, type Reader, type Verdict } from './run.js'

const RUBY_ARGS = ['-ractive_support', '-ractive_support/key_generator', '-ractive_support/message_encryptor']

export const ACTIVE_SUPPORT: Reader = { name: 'ActiveSupport', packages: 'ruby-activesupport', probe: ['ruby', ...RUBY_ARGS, '-e', 'exit 0'] }

const SCRIPT = String.raw`
require 'json'
request = JSON.parse($stdin.read)
if request['op'] == 'generate'
  require 'securerandom'
  # what 'rails secret' prints
  puts JSON.generate(SecureRandom.hex(64))
  exit
end
CIPHER = 'aes-256-gcm'
SALT = 'authenticated encrypted cookie'
def encryptor(secret_key_base)
  generator = ActiveSupport::CachingKeyGenerator.new(ActiveSupport::KeyGenerator.new(secret_key_base, iterations: 1000))
  key = generator.generate_key(SALT, ActiveSupport::MessageEncryptor.key_len(CIPHER))
  [ActiveSupport::MessageEncryptor.new(key, cipher: CIPHER), key.bytesize]
end
encrypting, key_bytes = encryptor(request['secretKeyBase'])
decrypting, = encryptor(request['decryptWith'] || request['secretKeyBase'])
begin
  sealed = encrypting.encrypt_and_sign(request['message'])
  puts JSON.generate({ ok: true, keyBytes: key_bytes, sealed: sealed, decrypted: decrypting.decrypt_and_verify(sealed) })
rescue ActiveSupport::MessageEncryptor::InvalidMessage => refused
  puts JSON.generate({ ok: false, error: "#{refused.class}: #{refused.message}" })
end
`

export interface RailsRoundTrip {
  /** The derived key's length (32 for aes-256-gcm). */
  keyBytes: number
  /** MessageEncryptor's output (ciphertext--iv--tag, Base64). */
  sealed: string
  decrypted: string
}

/** ActiveSupport deriving Rails' encrypted-cookie key from `secretKeyBase`, encrypting and decrypting `message`. */
export function activeSupportRoundTrip (secretKeyBase: string, message = 'randgen', decryptWith?: string): Verdict<RailsRoundTrip> {
  return askJson<Verdict<RailsRoundTrip>>('ActiveSupport', 'ruby', [...RUBY_ARGS, '-e', SCRIPT], { op: 'round-trip', secretKeyBase, message, decryptWith })
}

/** A SECRET_KEY_BASE as `rails secret` makes one (Ruby's SecureRandom.hex(64)). */
export function railsSecret (): string {
  return askJson<string>('Ruby\'s SecureRandom', 'ruby', ['-rsecurerandom', '-e', SCRIPT], { op: 'generate' })
}
