// Gitea's recipe and Forgejo's (which keeps Gitea's settings and readers, under FORGEJO__): the
// two JWT secrets decoded as Gitea decodes them (Go's base64.RawURLEncoding, exactly 32 bytes,
// DecodeJwtSecretBase64's steps), in the form `gitea generate secret JWT_SECRET` prints; a padded
// copy refused by the same decoder. SECRET_KEY and INTERNAL_TOKEN are strings read as they are:
// their form is the check.
import t from 'tap'
import { GITEA_DECODER, GITEA_JWT_SECRET_FORM, giteaDecodeJwtSecret, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

/** Recipe `id`, whose names start `<prefix>__` (GITEA, FORGEJO), for `app`. */
export function giteaFamilyTest (id: string, prefix: string, app: string): void {
  const jwtSecrets = [`${prefix}__oauth2__JWT_SECRET`, `${prefix}__server__LFS_JWT_SECRET`]
  const names = [`${prefix}__security__SECRET_KEY`, `${prefix}__security__INTERNAL_TOKEN`, ...jwtSecrets]
  const forms = Object.fromEntries(names.map((name) => [name, jwtSecrets.includes(name) ? GITEA_JWT_SECRET_FORM : /^[A-Za-z0-9]{64}$/]))
  t.test(`${id}: the JWT secrets decode as Gitea decodes them, to exactly 32 bytes`, async (t) => {
    const server = await build(t)
    const answers = await recipeAnswers(t, server, id, names)
    checkForms(t, answers, forms)
    if (!hasReader(t, GITEA_DECODER)) return
    for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
      for (const name of jwtSecrets) {
        const value = valueOf(values, name)
        const read = giteaDecodeJwtSecret(value)
        t.same(read.ok && read.hex.length, 64, `${label} ${name}: RawURLEncoding decodes it to 32 bytes${read.ok ? '' : `: ${read.error}`}`)
        if (read.ok) t.equal(read.hex, Buffer.from(value, 'base64url').toString('hex'), `${label} ${name}: the bytes it encodes`)
      }
    }
    const padded = giteaDecodeJwtSecret(`${valueOf(answers.env, jwtSecrets[0] as string)}=`)
    t.notOk(padded.ok, `a padded secret is refused ("illegal base64 data"): ${app} would draw its own`)
  })
}
