// The authentik recipe: PG_PASS and AUTHENTIK_SECRET_KEY as the guide's `openssl rand -base64 36`
// and `-base64 60` print them (48 and 80 characters, no line feed), decoded by Python's strict
// Base64 decoder; PG_PASS under PostgreSQL's 99 characters, as the guide warns.
import t from 'tap'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('authentik: the database password and the secret key', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'authentik', ['PG_PASS', 'AUTHENTIK_SECRET_KEY'])
  checkForms(t, answers, { PG_PASS: /^[A-Za-z0-9+/]{48}$/, AUTHENTIK_SECRET_KEY: /^[A-Za-z0-9+/]{80}$/ })
  checkDecoded(t, {
    PG_PASS: [valueOf(answers.env, 'PG_PASS'), 'base64', 36],
    AUTHENTIK_SECRET_KEY: [valueOf(answers.env, 'AUTHENTIK_SECRET_KEY'), 'base64', 60]
  })
})
