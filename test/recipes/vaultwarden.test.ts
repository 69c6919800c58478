// The vaultwarden recipe (CONTRACT §14.3): ADMIN_TOKEN, the passphrase's Argon2id PHC string at
// `vaultwarden hash`'s default `bitwarden` preset (m=65540, t=3, p=4), verified by argon2-cffi
// (the reference C library, as Vaultwarden's argon2 crate reads the same string) with exactly
// those parameters read back from it; another passphrase refused.
import t from 'tap'
import { ARGON2_CFFI, argon2Reads, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['VAULTWARDEN_ADMIN_PASSWORD', 'ADMIN_TOKEN']
const FORMS = {
  // Six words of the EFF list (four of its words hold a hyphen of their own), joined by `-`
  VAULTWARDEN_ADMIN_PASSWORD: /^[a-z]+(?:-[a-z]+){5,9}$/,
  ADMIN_TOKEN: /^\$argon2id\$v=19\$m=65540,t=3,p=4\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/
}

t.test('vaultwarden: ADMIN_TOKEN is the passphrase\'s Argon2id hash at the bitwarden preset, read by argon2-cffi', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'vaultwarden', NAMES)
  checkForms(t, answers, FORMS)
  t.same(answers.items.map(({ name, type }) => [name, type]), [['VAULTWARDEN_ADMIN_PASSWORD', 'passphrase']], 'JSON: one passphrase item; its hash answered beside it')
  if (!hasReader(t, ARGON2_CFFI)) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const read = argon2Reads(valueOf(values, 'VAULTWARDEN_ADMIN_PASSWORD'), valueOf(values, 'ADMIN_TOKEN'))
    t.same(read.ok && [read.verified, read.type, read.version, read.memoryKiB, read.iterations, read.parallelism, read.hashLength],
      [true, 'ID', 19, 65540, 3, 4, 32], `${label}: argon2-cffi verifies the passphrase; Argon2id v19, m=65540 t=3 p=4, 32-byte hash`)
  }
  const other = argon2Reads(valueOf(answers.json, 'VAULTWARDEN_ADMIN_PASSWORD'), valueOf(answers.env, 'ADMIN_TOKEN'))
  t.same(other.ok && other.verified, false, 'another passphrase does not verify')
})
