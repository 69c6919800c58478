// The wireguard recipe: WG_PUBLIC_KEY is what `wg pubkey` (wireguard-tools) prints for
// WG_PRIVATE_KEY, which refuses a key cut short; each key 32 bytes by Python's strict decoder.
import t from 'tap'
import { execFileSync, spawnSync } from 'node:child_process'
import { hasTool } from '../tools.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const KEY = /^[A-Za-z0-9+/]{43}=$/
const NAMES = ['WG_PRIVATE_KEY', 'WG_PUBLIC_KEY', 'WG_PRESHARED_KEY']

t.test('wireguard: the key pair is wg\'s, the pre-shared key 32 bytes', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'wireguard', NAMES)
  checkForms(t, answers, { WG_PRIVATE_KEY: KEY, WG_PUBLIC_KEY: KEY, WG_PRESHARED_KEY: KEY })
  checkDecoded(t, Object.fromEntries(NAMES.map((name) => [name, [valueOf(answers.env, name), 'base64', 32] as const])))
  if (!hasTool(t, 'wg', 'wireguard-tools')) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const printed = execFileSync('wg', ['pubkey'], { input: `${valueOf(values, 'WG_PRIVATE_KEY')}\n` }).toString().trim()
    t.equal(printed, valueOf(values, 'WG_PUBLIC_KEY'), `${label}: wg pubkey prints WG_PUBLIC_KEY`)
  }
  const cut = spawnSync('wg', ['pubkey'], { input: `${valueOf(answers.env, 'WG_PRIVATE_KEY').slice(0, 40)}\n`, encoding: 'utf8' })
  t.not(cut.status, 0, 'wg pubkey refuses a key cut short')
})
