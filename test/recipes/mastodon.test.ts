// The mastodon recipe (CONTRACT §14.3): SECRET_KEY_BASE through ActiveSupport's KeyGenerator and
// MessageEncryptor (Rails' cookie key, encrypting and decrypting), the VAPID pair through web-push
// (npm, what Mastodon's web-push gem mirrors), and the Active Record encryption keys in
// `db:encryption:init`'s form (Debian's ActiveSupport 6.1 has no Active Record encryption).
import t from 'tap'
import { ACTIVE_SUPPORT, activeSupportRoundTrip, hasReader, webPushVapid } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['SECRET_KEY_BASE', 'OTP_SECRET', 'VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY', 'ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY',
  'ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT', 'ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY', 'DB_PASS']
const RAILS_SECRET = /^[0-9a-f]{128}$/
const ENCRYPTION_KEY = /^[A-Za-z0-9]{32}$/
const FORMS = {
  SECRET_KEY_BASE: RAILS_SECRET,
  OTP_SECRET: RAILS_SECRET,
  VAPID_PRIVATE_KEY: /^[A-Za-z0-9_-]{43}$/,
  VAPID_PUBLIC_KEY: /^[A-Za-z0-9_-]{87}$/,
  ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY: ENCRYPTION_KEY,
  ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT: ENCRYPTION_KEY,
  ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY: ENCRYPTION_KEY,
  DB_PASS: /^[A-Za-z0-9]{32}$/
}

t.test('mastodon: every line in its form; SECRET_KEY_BASE read by ActiveSupport, the VAPID pair by web-push', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'mastodon', NAMES)
  checkForms(t, answers, FORMS)
  const { env } = answers
  checkDecoded(t, {
    SECRET_KEY_BASE: [valueOf(env, 'SECRET_KEY_BASE'), 'hex', 64],
    OTP_SECRET: [valueOf(env, 'OTP_SECRET'), 'hex', 64],
    VAPID_PRIVATE_KEY: [valueOf(env, 'VAPID_PRIVATE_KEY'), 'base64url', 32],
    VAPID_PUBLIC_KEY: [valueOf(env, 'VAPID_PUBLIC_KEY'), 'base64url', 65]
  })
  const keys = ['ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY', 'ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT', 'ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY'].map((name) => valueOf(env, name))
  t.equal(new Set(keys).size, 3, 'three different encryption keys')

  const vapid = await webPushVapid(valueOf(env, 'VAPID_PUBLIC_KEY'), valueOf(env, 'VAPID_PRIVATE_KEY'))
  t.ok(vapid.ok, `web-push takes the pair and its JWT verifies with the public key${vapid.ok ? '' : `: ${vapid.error}`}`)
  if (vapid.ok) t.equal(vapid.k, valueOf(env, 'VAPID_PUBLIC_KEY'), 'web-push sends the public key as it is')
  const json = await webPushVapid(valueOf(answers.json, 'VAPID_PUBLIC_KEY'), valueOf(answers.json, 'VAPID_PRIVATE_KEY'))
  t.ok(json.ok, 'the JSON answer\'s pair too')
  const mismatched = await webPushVapid(valueOf(answers.json, 'VAPID_PUBLIC_KEY'), valueOf(env, 'VAPID_PRIVATE_KEY'))
  t.notOk(mismatched.ok, 'a public key with another pair\'s private key does not verify')

  if (!hasReader(t, ACTIVE_SUPPORT)) return
  const secret = valueOf(env, 'SECRET_KEY_BASE')
  const read = activeSupportRoundTrip(secret, 'a Mastodon session')
  t.same(read.ok && { keyBytes: read.keyBytes, decrypted: read.decrypted }, { keyBytes: 32, decrypted: 'a Mastodon session' }, 'ActiveSupport derives the cookie key from SECRET_KEY_BASE, encrypts and decrypts')
  t.notOk(activeSupportRoundTrip(secret, 'a Mastodon session', valueOf(env, 'OTP_SECRET')).ok, 'what one secret encrypted, another\'s key refuses')
})
