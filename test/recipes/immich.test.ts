// The immich recipe (CONTRACT §14.3): DB_PASSWORD over A-Z a-z 0-9 only, Immich's rule (its
// example.env: "Please use only the characters A-Za-z0-9"), so the database URL Immich builds
// from it needs no escaping: encodeURIComponent leaves it as it is.
import t from 'tap'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('immich: DB_PASSWORD, 32 characters of A-Za-z0-9', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'immich', ['DB_PASSWORD'])
  checkForms(t, answers, { DB_PASSWORD: /^[A-Za-z0-9]{32}$/ })
  const password = valueOf(answers.env, 'DB_PASSWORD')
  t.equal(encodeURIComponent(password), password, 'nothing to escape in a postgres:// URL')
})
