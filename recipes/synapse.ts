import type { Recipe } from '../schemas/recipes.js'

// SYNAPSE_REGISTRATION_SHARED_SECRET and SYNAPSE_MACAROON_SECRET_KEY are the names the Docker
// image's template mode reads (docker/start.py); the other two lines are copied by hand into the
// signing key file and homeserver.yaml. Synapse's own key ids are `a_` and 4 letters (§14.2 draws
// the 4 from letters and digits: read alike). Synapse's own alphabet for the secrets it writes in homeserver.yaml (random_string_with_symbols:
// letters, digits and these symbols, each character drawn uniformly, no minimums)
const synapseSecret = { length: 50, symbolSet: '.,;:^&*-_+=#~@', minUppercase: 0, minLowercase: 0, minNumbers: 0, minSymbols: 0 }

export default {
  id: 'synapse',
  title: 'Synapse (Matrix)',
  docs: 'https://element-hq.github.io/synapse/latest/usage/configuration/config_documentation.html',
  group: 'apps',
  items: [
    { name: 'SYNAPSE_SIGNING_KEY', type: 'signing-key', params: { algorithm: 'EdDSA', format: 'synapse' }, publicKeyName: 'SYNAPSE_VERIFY_KEY' },
    { name: 'SYNAPSE_REGISTRATION_SHARED_SECRET', type: 'password', params: synapseSecret },
    { name: 'SYNAPSE_MACAROON_SECRET_KEY', type: 'password', params: synapseSecret },
    { name: 'SYNAPSE_FORM_SECRET', type: 'password', params: synapseSecret }
  ],
  notes: {
    SYNAPSE_SIGNING_KEY: 'The server\'s Ed25519 signing key line: write it alone into the file signing_key_path names (<server name>.signing.key), which Synapse reads at start.',
    SYNAPSE_VERIFY_KEY: 'The signing key\'s public half (key id and Base64 key): what other servers fetch from /_matrix/key/v2/server, and what a trusted_key_servers entry\'s verify_keys names.',
    SYNAPSE_REGISTRATION_SHARED_SECRET: 'The secret register_new_matrix_user signs admin registrations with: homeserver.yaml\'s registration_shared_secret (the Docker image\'s template mode reads this variable).',
    SYNAPSE_MACAROON_SECRET_KEY: 'The secret Synapse signs its login and access tokens with: homeserver.yaml\'s macaroon_secret_key (the Docker image\'s template mode reads this variable).',
    SYNAPSE_FORM_SECRET: 'The secret of the consent and other HTML forms\' hidden fields: homeserver.yaml\'s form_secret.'
  }
} satisfies Recipe
