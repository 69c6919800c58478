// The vapid recipe: web-push (npm) takes VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY and signs its
// VAPID JWT, which the public key verifies (jose); a pair mixed from two answers does not.
import t from 'tap'
import { webPushVapid } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('vapid: web-push takes the pair', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'vapid', ['VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY'])
  checkForms(t, answers, { VAPID_PRIVATE_KEY: /^[A-Za-z0-9_-]{43}$/, VAPID_PUBLIC_KEY: /^[A-Za-z0-9_-]{87}$/ })
  checkDecoded(t, {
    VAPID_PRIVATE_KEY: [valueOf(answers.env, 'VAPID_PRIVATE_KEY'), 'base64url', 32],
    VAPID_PUBLIC_KEY: [valueOf(answers.env, 'VAPID_PUBLIC_KEY'), 'base64url', 65]
  })
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const read = await webPushVapid(valueOf(values, 'VAPID_PUBLIC_KEY'), valueOf(values, 'VAPID_PRIVATE_KEY'))
    t.ok(read.ok, `${label}: web-push signs with the pair and its JWT verifies${read.ok ? '' : `: ${read.error}`}`)
  }
  const mixed = await webPushVapid(valueOf(answers.json, 'VAPID_PUBLIC_KEY'), valueOf(answers.env, 'VAPID_PRIVATE_KEY'))
  t.notOk(mixed.ok, 'a public key with another pair\'s private key does not verify')
})
