// The synapse recipe (CONTRACT §14.3): the signing key line read by signedjson (Debian
// python3-signedjson, what Synapse reads its .signing.key file with), a JSON signed with it and
// verified with SYNAPSE_VERIFY_KEY, a changed JSON and another key's public half refused; the
// line's form checked here too, since signedjson also takes a padded seed. The three secrets
// over Synapse's own alphabet.
import t from 'tap'
import { SIGNEDJSON, SYNAPSE_SIGNING_KEY_FORM, hasReader, signedjsonReads } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['SYNAPSE_SIGNING_KEY', 'SYNAPSE_VERIFY_KEY', 'SYNAPSE_REGISTRATION_SHARED_SECRET', 'SYNAPSE_MACAROON_SECRET_KEY', 'SYNAPSE_FORM_SECRET']
const SECRET = /^[A-Za-z0-9.,;:^&*\-_+=#~@]{50}$/
const FORMS = {
  SYNAPSE_SIGNING_KEY: SYNAPSE_SIGNING_KEY_FORM,
  SYNAPSE_VERIFY_KEY: /^ed25519:a_[A-Za-z0-9]{4} [A-Za-z0-9+/]{43}$/,
  SYNAPSE_REGISTRATION_SHARED_SECRET: SECRET,
  SYNAPSE_MACAROON_SECRET_KEY: SECRET,
  SYNAPSE_FORM_SECRET: SECRET
}

t.test('synapse: signedjson reads the key line, signs with it, and the verify key verifies', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'synapse', NAMES)
  checkForms(t, answers, FORMS)
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const [, keyId, seed] = valueOf(values, 'SYNAPSE_SIGNING_KEY').split(' ') as [string, string, string]
    t.equal(valueOf(values, 'SYNAPSE_VERIFY_KEY').split(' ')[0], `ed25519:${keyId}`, `${label}: the verify key names the line's key id`)
    checkDecoded(t, { [`${label}_SEED`]: [seed, 'base64-unpadded', 32] })
  }
  if (!hasReader(t, SIGNEDJSON)) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const line = valueOf(values, 'SYNAPSE_SIGNING_KEY')
    const read = signedjsonReads(line, valueOf(values, 'SYNAPSE_VERIFY_KEY'))
    t.same(read.ok && [read.keys, read.keyId, read.verified, read.tamperedVerified], [1, `ed25519:${line.split(' ')[1]}`, true, false],
      `${label}: one key read; the JSON it signed verifies with the verify key, a changed one does not${read.ok ? '' : `: ${read.error}`}`)
  }
  const crossed = signedjsonReads(valueOf(answers.env, 'SYNAPSE_SIGNING_KEY'), valueOf(answers.json, 'SYNAPSE_VERIFY_KEY'))
  t.same(crossed.ok && crossed.verified, false, 'another key\'s verify key does not verify')
})
