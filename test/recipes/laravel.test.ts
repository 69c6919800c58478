// The laravel recipe (CONTRACT §14.3): APP_KEY through Laravel's own Encrypter (Debian
// php-laravel-framework) after the framework's `base64:` parse, encrypting and decrypting; a key
// of 31 bytes refused by the same path; the form `php artisan key:generate` writes checked too,
// since PHP's base64_decode is lenient.
import t from 'tap'
import { LARAVEL, LARAVEL_APP_KEY_FORM, hasReader, laravelEncrypter } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('laravel: APP_KEY read by Laravel\'s Encrypter', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'laravel', ['APP_KEY'])
  checkForms(t, answers, { APP_KEY: LARAVEL_APP_KEY_FORM })
  const key = valueOf(answers.env, 'APP_KEY')
  checkDecoded(t, { APP_KEY: [key.slice('base64:'.length), 'base64', 32] })
  if (!hasReader(t, LARAVEL)) return
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    const read = laravelEncrypter(valueOf(values, 'APP_KEY'), 'a Laravel session')
    t.same(read.ok && [read.keyBytes, read.decrypted], [32, 'a Laravel session'], `${label}: a 32-byte key; encrypted and decrypted${read.ok ? '' : `: ${read.error}`}`)
  }
  const short = `base64:${Buffer.from(key.slice('base64:'.length), 'base64').subarray(0, 31).toString('base64')}`
  const refused = laravelEncrypter(short)
  t.notOk(refused.ok, 'a 31-byte key is refused')
  if (!refused.ok) t.match(refused.error, /Unsupported cipher or incorrect key length/)
})
