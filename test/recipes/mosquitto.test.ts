// The mosquitto recipe: MQTT_PASSWORD_HASH is the `$7$` PBKDF2-SHA512 string mosquitto_passwd
// writes, checked by @noble/hashes' PBKDF2 (test/hash-readers.ts; a broker reads the format in
// test/src/hashing/formats/mosquitto.test.ts); another password does not match it.
import t from 'tap'
import { mosquittoVerifies } from '../hash-readers.js'
import { build } from '../helper.js'
import { checkForms, recipeAnswers, valueOf } from './recipe.js'

t.test('mosquitto: the password and its password_file hash', async (t) => {
  const app = await build(t)
  const answers = await recipeAnswers(t, app, 'mosquitto', ['MQTT_PASSWORD', 'MQTT_PASSWORD_HASH'])
  checkForms(t, answers, {
    MQTT_PASSWORD: /^[A-Za-z0-9!#$%&()*+,\-./:;<=>?@[\]^_{|}~]{32}$/,
    MQTT_PASSWORD_HASH: /^\$7\$101\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{86}==$/
  })
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    t.ok(mosquittoVerifies(valueOf(values, 'MQTT_PASSWORD'), valueOf(values, 'MQTT_PASSWORD_HASH')), `${label}: the hash is the password's`)
  }
  t.notOk(mosquittoVerifies(valueOf(answers.json, 'MQTT_PASSWORD'), valueOf(answers.env, 'MQTT_PASSWORD_HASH')), 'another password does not match')
})
