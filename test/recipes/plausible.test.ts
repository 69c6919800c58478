// The plausible recipe (CONTRACT §14.3): SECRET_KEY_BASE as `openssl rand -base64 48` prints it
// (64 characters, what Phoenix wants at least), and TOTP_VAULT_KEY standard padded Base64 of
// exactly 32 bytes (Elixir's Base.decode64 wants the padding), each decoded by Python's strict
// Base64 decoder.
import t from 'tap'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['SECRET_KEY_BASE', 'TOTP_VAULT_KEY']
const FORMS = { SECRET_KEY_BASE: /^[A-Za-z0-9+/]{64}$/, TOTP_VAULT_KEY: /^[A-Za-z0-9+/]{43}=$/ }

t.test('plausible: SECRET_KEY_BASE 64 characters, TOTP_VAULT_KEY 32 bytes', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'plausible', NAMES)
  checkForms(t, answers, FORMS)
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    t.comment(label)
    checkDecoded(t, {
      TOTP_VAULT_KEY: [valueOf(values, 'TOTP_VAULT_KEY'), 'base64', 32],
      SECRET_KEY_BASE: [valueOf(values, 'SECRET_KEY_BASE'), 'base64', 48],
      SECRET_KEY_BASE_UTF8: [valueOf(values, 'SECRET_KEY_BASE'), 'utf8', 64]
    })
  }
})
