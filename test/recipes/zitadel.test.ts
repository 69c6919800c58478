// The zitadel recipe (CONTRACT §14.3): ZITADEL_MASTERKEY is exactly 32 bytes (ZITADEL refuses
// another length: "masterkey must be 32 bytes"), counted by Python as UTF-8, drawn from A-Za-z0-9
// as the guide's `tr -dc A-Za-z0-9 | head -c 32` does.
import t from 'tap'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('zitadel: the master key is 32 bytes', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'zitadel', ['ZITADEL_MASTERKEY'])
  checkForms(t, answers, { ZITADEL_MASTERKEY: /^[A-Za-z0-9]{32}$/ })
  checkDecoded(t, {
    ZITADEL_MASTERKEY: [valueOf(answers.env, 'ZITADEL_MASTERKEY'), 'utf8', 32],
    ZITADEL_MASTERKEY_JSON: [valueOf(answers.json, 'ZITADEL_MASTERKEY'), 'utf8', 32]
  })
})
