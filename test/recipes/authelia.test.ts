// The authelia recipe (CONTRACT §14.3): the four secrets in `authelia crypto rand --charset
// alphanumeric`'s form, and the admin password's Argon2id PHC string at Authelia's defaults
// (m=65536, t=3, p=4, 16-byte salt, 32-byte key) for users_database.yml, verified by argon2-cffi
// with exactly those parameters; another password refused.
import t from 'tap'
import { ARGON2_CFFI, argon2Reads, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['AUTHELIA_SESSION_SECRET', 'AUTHELIA_STORAGE_ENCRYPTION_KEY', 'AUTHELIA_IDENTITY_VALIDATION_RESET_PASSWORD_JWT_SECRET',
  'AUTHELIA_IDENTITY_PROVIDERS_OIDC_HMAC_SECRET', 'AUTHELIA_ADMIN_PASSWORD', 'AUTHELIA_ADMIN_PASSWORD_HASH']
const SECRET = /^[A-Za-z0-9]{64}$/
const FORMS = {
  AUTHELIA_SESSION_SECRET: SECRET,
  AUTHELIA_STORAGE_ENCRYPTION_KEY: SECRET,
  AUTHELIA_IDENTITY_VALIDATION_RESET_PASSWORD_JWT_SECRET: SECRET,
  AUTHELIA_IDENTITY_PROVIDERS_OIDC_HMAC_SECRET: SECRET,
  // §2's default sets: letters, digits and the 28 symbols (no quote, backslash or backtick)
  AUTHELIA_ADMIN_PASSWORD: /^[A-Za-z0-9!#$%&()*+,\-./:;<=>?@[\]^_{|}~]{24}$/,
  AUTHELIA_ADMIN_PASSWORD_HASH: /^\$argon2id\$v=19\$m=65536,t=3,p=4\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/
}

t.test('authelia: the secrets in their form; the admin password\'s hash at Authelia\'s defaults, read by argon2-cffi', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'authelia', NAMES)
  checkForms(t, answers, FORMS)
  t.equal(new Set(NAMES.slice(0, 4).map((name) => valueOf(answers.env, name))).size, 4, 'four different secrets')
  if (!hasReader(t, ARGON2_CFFI)) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const read = argon2Reads(valueOf(values, 'AUTHELIA_ADMIN_PASSWORD'), valueOf(values, 'AUTHELIA_ADMIN_PASSWORD_HASH'))
    t.same(read.ok && [read.verified, read.type, read.version, read.memoryKiB, read.iterations, read.parallelism, read.saltLength, read.hashLength],
      [true, 'ID', 19, 65536, 3, 4, 16, 32], `${label}: argon2-cffi verifies the password; Argon2id v19, m=65536 t=3 p=4, salt 16, key 32 (Authelia's defaults)`)
  }
  const other = argon2Reads(valueOf(answers.json, 'AUTHELIA_ADMIN_PASSWORD'), valueOf(answers.env, 'AUTHELIA_ADMIN_PASSWORD_HASH'))
  t.same(other.ok && other.verified, false, 'another password does not verify')
})
