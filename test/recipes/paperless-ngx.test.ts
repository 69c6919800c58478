// The paperless-ngx recipe (CONTRACT §14.3): PAPERLESS_SECRET_KEY is Django's SECRET_KEY, checked
// by Django's own check_secret_key (Debian python3-django: no W009); PAPERLESS_DBPASS letters and
// digits only.
import t from 'tap'
import { DJANGO, djangoCheckSecretKey, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('paperless-ngx: PAPERLESS_SECRET_KEY passes Django\'s check_secret_key', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'paperless-ngx', ['PAPERLESS_SECRET_KEY', 'PAPERLESS_DBPASS'])
  checkForms(t, answers, { PAPERLESS_SECRET_KEY: /^[a-z0-9!@#$%^&*(\-_=+)]{50}$/, PAPERLESS_DBPASS: /^[A-Za-z0-9]{32}$/ })
  if (!hasReader(t, DJANGO)) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    t.same(djangoCheckSecretKey(valueOf(values, 'PAPERLESS_SECRET_KEY')), [], `${label}: no warning (no W009)`)
  }
  t.same(djangoCheckSecretKey(`django-insecure-${valueOf(answers.env, 'PAPERLESS_SECRET_KEY')}`), ['security.W009'], 'the check can fail: startproject\'s prefix is W009')
})
