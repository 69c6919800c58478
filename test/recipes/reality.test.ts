// The reality recipe: REALITY_PUBLIC_KEY is the X25519 public key of REALITY_PRIVATE_KEY as
// `wg pubkey` computes it (wireguard-tools: the same curve and clamping as `xray x25519`, which
// writes both in unpadded Base64url); the short id 8 hex characters; the client id a UUID v4.
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { hasTool } from '../tools.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const KEY = /^[A-Za-z0-9_-]{43}$/
const NAMES = ['REALITY_PRIVATE_KEY', 'REALITY_PUBLIC_KEY', 'REALITY_SHORT_ID', 'CLIENT_ID']
const FORMS = {
  REALITY_PRIVATE_KEY: KEY,
  REALITY_PUBLIC_KEY: KEY,
  REALITY_SHORT_ID: /^[0-9a-f]{8}$/,
  CLIENT_ID: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
}

t.test('reality: the X25519 pair in Base64url, a short id, a client UUID', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'reality', NAMES)
  checkForms(t, answers, FORMS)
  checkDecoded(t, {
    REALITY_PRIVATE_KEY: [valueOf(answers.env, 'REALITY_PRIVATE_KEY'), 'base64url', 32],
    REALITY_PUBLIC_KEY: [valueOf(answers.env, 'REALITY_PUBLIC_KEY'), 'base64url', 32],
    REALITY_SHORT_ID: [valueOf(answers.env, 'REALITY_SHORT_ID'), 'hex', 4]
  })
  if (!hasTool(t, 'wg', 'wireguard-tools')) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const privateKey = Buffer.from(valueOf(values, 'REALITY_PRIVATE_KEY'), 'base64url').toString('base64')
    const printed = execFileSync('wg', ['pubkey'], { input: `${privateKey}\n` }).toString().trim()
    t.equal(Buffer.from(printed, 'base64').toString('base64url'), valueOf(values, 'REALITY_PUBLIC_KEY'), `${label}: X25519 of the private key (wg pubkey) is REALITY_PUBLIC_KEY`)
  }
})
