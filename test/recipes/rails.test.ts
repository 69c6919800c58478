// The rails recipe (CONTRACT §14.3): SECRET_KEY_BASE through ActiveSupport's KeyGenerator and
// MessageEncryptor (Debian ruby-activesupport 6.1: Rails' encrypted cookie key, encrypting and
// decrypting), and the three Active Record encryption keys in `bin/rails db:encryption:init`'s
// form (SecureRandom.alphanumeric(32)); 6.1 has no Active Record encryption to hand them to.
import t from 'tap'
import { ACTIVE_SUPPORT, activeSupportRoundTrip, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['SECRET_KEY_BASE', 'ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY', 'ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT', 'ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY']
const ENCRYPTION_KEY = /^[A-Za-z0-9]{32}$/
const FORMS = {
  SECRET_KEY_BASE: /^[0-9a-f]{128}$/,
  ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY: ENCRYPTION_KEY,
  ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT: ENCRYPTION_KEY,
  ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY: ENCRYPTION_KEY
}

t.test('rails: every line in its form; SECRET_KEY_BASE read by ActiveSupport', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'rails', NAMES)
  checkForms(t, answers, FORMS)
  const secret = valueOf(answers.env, 'SECRET_KEY_BASE')
  checkDecoded(t, { SECRET_KEY_BASE: [secret, 'hex', 64] })
  if (!hasReader(t, ACTIVE_SUPPORT)) return
  for (const [label, value] of [['.env', secret], ['JSON', valueOf(answers.json, 'SECRET_KEY_BASE')]] as const) {
    const read = activeSupportRoundTrip(value, 'a Rails cookie')
    t.same(read.ok && { keyBytes: read.keyBytes, decrypted: read.decrypted }, { keyBytes: 32, decrypted: 'a Rails cookie' }, `${label}: ActiveSupport derives the cookie key, encrypts and decrypts`)
  }
  const other = activeSupportRoundTrip(secret, 'a Rails cookie', valueOf(answers.json, 'SECRET_KEY_BASE'))
  t.notOk(other.ok, 'another SECRET_KEY_BASE\'s key refuses the message (InvalidMessage)')
})
