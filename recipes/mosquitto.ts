import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'mosquitto',
  title: 'Mosquitto user',
  docs: 'https://mosquitto.org/man/mosquitto_passwd-1.html',
  group: 'apps',
  items: [
    // The broker stores only the PBKDF2-SHA512 `$7$` string mosquitto_passwd writes
    { name: 'MQTT_PASSWORD', type: 'password', params: { length: 32, hash: { algorithm: 'mosquitto' } } }
  ],
  notes: {
    MQTT_PASSWORD: 'The password a client logs in with: keep it in a password manager or the client\'s own configuration, not in the broker\'s.',
    MQTT_PASSWORD_HASH: 'The password\'s `$7$` hash: the line <user>:<hash> of the file the broker\'s password_file option names.'
  }
} satisfies Recipe
