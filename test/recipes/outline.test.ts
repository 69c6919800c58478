// The outline recipe (CONTRACT §14.3): SECRET_KEY and UTILS_SECRET as `openssl rand -hex 32`
// prints them, decoded by Python's strict hex decoder to 32 bytes. Outline's own check is
// class-validator's IsByteLength(32, 64) on the string: 64 characters of ASCII are 64 bytes.
import t from 'tap'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['SECRET_KEY', 'UTILS_SECRET']
const FORMS = { SECRET_KEY: /^[0-9a-f]{64}$/, UTILS_SECRET: /^[0-9a-f]{64}$/ }

t.test('outline: two 32-byte keys in hex', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'outline', NAMES)
  checkForms(t, answers, FORMS)
  checkDecoded(t, {
    SECRET_KEY: [valueOf(answers.env, 'SECRET_KEY'), 'hex', 32],
    UTILS_SECRET: [valueOf(answers.env, 'UTILS_SECRET'), 'hex', 32],
    SECRET_KEY_UTF8: [valueOf(answers.env, 'SECRET_KEY'), 'utf8', 64]
  })
})
