// The n8n recipe: N8N_ENCRYPTION_KEY as n8n writes its own (randomBytes(24) in Base64, 32
// characters), decoded by Python's strict Base64 decoder.
import t from 'tap'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('n8n: the encryption key', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'n8n', ['N8N_ENCRYPTION_KEY'])
  checkForms(t, answers, { N8N_ENCRYPTION_KEY: /^[A-Za-z0-9+/]{32}$/ })
  checkDecoded(t, {
    N8N_ENCRYPTION_KEY: [valueOf(answers.env, 'N8N_ENCRYPTION_KEY'), 'base64', 24],
    N8N_ENCRYPTION_KEY_JSON: [valueOf(answers.json, 'N8N_ENCRYPTION_KEY'), 'base64', 24]
  })
})
