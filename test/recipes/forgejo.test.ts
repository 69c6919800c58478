// The forgejo recipe: Forgejo keeps Gitea's settings and readers, under FORGEJO__. The two JWT
// secrets decoded as Gitea's DecodeJwtSecretBase64 decodes them (Go's base64.RawURLEncoding,
// exactly 32 bytes), in the form `forgejo generate secret JWT_SECRET` prints; a padded copy refused
// by the same decoder. SECRET_KEY and INTERNAL_TOKEN are read as they are: their form is the check.
import t from 'tap'
import { GITEA_DECODER, GITEA_JWT_SECRET_FORM, giteaDecodeJwtSecret, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['FORGEJO__security__SECRET_KEY', 'FORGEJO__security__INTERNAL_TOKEN', 'FORGEJO__oauth2__JWT_SECRET', 'FORGEJO__server__LFS_JWT_SECRET']
const FORMS = {
  FORGEJO__security__SECRET_KEY: /^[A-Za-z0-9]{64}$/,
  FORGEJO__security__INTERNAL_TOKEN: /^[A-Za-z0-9]{64}$/,
  FORGEJO__oauth2__JWT_SECRET: GITEA_JWT_SECRET_FORM,
  FORGEJO__server__LFS_JWT_SECRET: GITEA_JWT_SECRET_FORM
}

t.test('forgejo: the JWT secrets decode as Gitea decodes them, to exactly 32 bytes', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'forgejo', NAMES)
  checkForms(t, answers, FORMS)
  if (!hasReader(t, GITEA_DECODER)) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    for (const name of ['FORGEJO__oauth2__JWT_SECRET', 'FORGEJO__server__LFS_JWT_SECRET']) {
      const value = valueOf(values, name)
      const read = giteaDecodeJwtSecret(value)
      t.same(read.ok && read.hex.length, 64, `${label} ${name}: RawURLEncoding decodes it to 32 bytes${read.ok ? '' : `: ${read.error}`}`)
      if (read.ok) t.equal(read.hex, Buffer.from(value, 'base64url').toString('hex'), `${label} ${name}: the bytes it encodes`)
    }
  }
  const padded = giteaDecodeJwtSecret(`${valueOf(answers.env, 'FORGEJO__oauth2__JWT_SECRET')}=`)
  t.notOk(padded.ok, 'a padded secret is refused ("illegal base64 data"): Forgejo would draw its own')
})
