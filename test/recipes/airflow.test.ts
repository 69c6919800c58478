// The airflow recipe (CONTRACT §14.3, Airflow 3's names): the Fernet key through cryptography's
// Fernet and through the MultiFernet Airflow builds from a comma list (key rotation); an unpadded
// copy refused by Fernet; the form Fernet.generate_key writes checked too. The two secrets decoded
// by Python's strict hex decoder.
import t from 'tap'
import { FERNET, FERNET_KEY_FORM, airflowMultiFernet, fernetRoundTrip, hasReader } from '../app-readers/index.js'
import { build } from '../helper.js'
import { checkDecoded, checkForms, recipeAnswers, valueOf } from './recipe.js'

const NAMES = ['AIRFLOW__CORE__FERNET_KEY', 'AIRFLOW__API__SECRET_KEY', 'AIRFLOW__API_AUTH__JWT_SECRET']
const FORMS = { AIRFLOW__CORE__FERNET_KEY: FERNET_KEY_FORM, AIRFLOW__API__SECRET_KEY: /^[0-9a-f]{64}$/, AIRFLOW__API_AUTH__JWT_SECRET: /^[0-9a-f]{128}$/ }

t.test('airflow: the Fernet key read by Fernet and Airflow\'s MultiFernet', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'airflow', NAMES)
  checkForms(t, answers, FORMS)
  checkDecoded(t, {
    AIRFLOW__API__SECRET_KEY: [valueOf(answers.env, 'AIRFLOW__API__SECRET_KEY'), 'hex', 32],
    AIRFLOW__API_AUTH__JWT_SECRET: [valueOf(answers.env, 'AIRFLOW__API_AUTH__JWT_SECRET'), 'hex', 64]
  })
  if (!hasReader(t, FERNET)) return
  const key = valueOf(answers.env, 'AIRFLOW__CORE__FERNET_KEY')
  const other = valueOf(answers.json, 'AIRFLOW__CORE__FERNET_KEY')
  for (const [label, value] of [['.env', key], ['JSON', other]] as const) {
    const read = fernetRoundTrip(value, 'a connection password')
    t.same(read.ok && read.decrypted, 'a connection password', `${label}: Fernet encrypts and decrypts${read.ok ? '' : `: ${read.error}`}`)
  }
  const rotated = airflowMultiFernet(`${key},${other}`, 'a variable')
  t.same(rotated.ok && [rotated.keys, rotated.decrypted, rotated.firstKeyEncrypts, rotated.eachKeyDecrypts], [2, 'a variable', true, true], 'MultiFernet over both keys, as Airflow reads a comma list')
  const unpadded = fernetRoundTrip(key.replace(/=$/, ''))
  t.notOk(unpadded.ok, 'the key without its `=` is refused')
})
