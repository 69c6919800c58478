// The django recipe (CONTRACT §14.3): SECRET_KEY as get_random_secret_key draws it (50
// characters over a-z 0-9 !@#$%^&*(-_=+)), checked by Django's own check_secret_key (Debian
// python3-django: no W009), which does say W009 of the same key cut to 49 characters.
import t from 'tap'
import { DJANGO, djangoCheckSecretKey, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('django: SECRET_KEY passes check_secret_key', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'django', ['SECRET_KEY'])
  checkForms(t, answers, { SECRET_KEY: /^[a-z0-9!@#$%^&*(\-_=+)]{50}$/ })
  if (!hasReader(t, DJANGO)) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    t.same(djangoCheckSecretKey(valueOf(values, 'SECRET_KEY')), [], `${label}: no warning (no W009)`)
  }
  t.same(djangoCheckSecretKey(valueOf(answers.env, 'SECRET_KEY').slice(0, 49)), ['security.W009'], 'the check can fail: 49 characters are W009')
})
