// CONTRACT §10: the `.env` answer read back by every reader the contract names, each giving every
// value byte for byte: POSIX sh (`set -a; . ./.env`) under dash and bash, dotenv (npm), Node's
// util.parseEnv (what `node --env-file` uses), python-dotenv (Debian's python3-dotenv, with
// interpolate=False) and godotenv (Debian's golang-github-joho-godotenv-dev, built with golang-go;
// Docker Compose's reader derives from it), as test/env-readers.ts asks them. The values are full
// of what readers treat specially: `$`, `#`, `"`, backticks, spaces, `&`, `=`, `${`, and letters
// beyond ASCII.
import t from 'tap'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { envValues, hasPythonDotenv, pythonDotenvValues, readBackByEveryReader } from '../env-readers.js'
import { build } from '../helper.js'

/** Each item makes one value (the .env form's rule); the sets are chosen for the characters they bring. */
const ITEMS = [
  { name: 'PW_SHELL', type: 'password', params: { length: 128, symbolSet: '$#"`&=!{}()|*?~^%@;<>', minSymbols: 100 } },
  { name: 'PW_ALL_BUT_TWO', type: 'password', params: { length: 128, symbolSet: '!"#$%&()*+,-./:;<=>?@[]^_`{|}~', minSymbols: 90 } },
  { name: 'PW_DOLLAR_BRACE', type: 'password', params: { length: 64, symbolSet: '${}', uppercase: false, numbers: false, minSymbols: 40 } },
  { name: 'PW_DEFAULT', type: 'password' },
  { name: 'PASS_SPACES', type: 'passphrase', params: { words: 8, separator: ' $ ', capitalize: true, includeNumber: true } },
  { name: 'PASS_HASH', type: 'passphrase', params: { words: 8, separator: ' #' } },
  { name: 'PASS_QUOTE', type: 'passphrase', params: { words: 8, separator: '"`' } },
  { name: 'PASS_INTERPOLATE', type: 'passphrase', params: { words: 8, separator: '${' } },
  { name: 'PASS_AMP_EQ', type: 'passphrase', params: { words: 8, separator: '&=' } },
  { name: 'PASS_FRENCH', type: 'passphrase', params: { words: 10, wordList: 'bip39-french', separator: '€ ', capitalize: true } },
  { name: 'PASS_JAPANESE', type: 'passphrase', params: { words: 10, wordList: 'bip39-japanese', separator: '\u3000' } },
  { name: 'PASS_CHINESE', type: 'passphrase', params: { words: 10, wordList: 'bip39-chinese_simplified', separator: '·' } },
  { name: 'PASS_EMOJI', type: 'passphrase', params: { words: 6, separator: '😀#' } },
  { name: 'PHRASE_SPANISH', type: 'phrase', params: { language: 'spanish', words: 24, separator: '`$' } },
  // A composed é for certain: French and Spanish words bring theirs (decomposed) only by chance
  { name: 'PHRASE_KOREAN', type: 'phrase', params: { language: 'korean', separator: ' é ' } },
  { name: 'PHRASE_CZECH', type: 'phrase', params: { language: 'czech', separator: '" #' } },
  { name: 'NUMBER', type: 'number', params: { min: -1000000, max: -1 } },
  { name: 'WG', type: 'vpn', params: { protocol: 'wireguard' } },
  { name: 'WG_PSK', type: 'vpn', params: { protocol: 'wireguard-psk' } },
  { name: 'REALITY_PRIVATE_KEY', type: 'vpn', params: { protocol: 'reality' } },
  // CONTRACT §12: a PHC string's `$` signs, read back literally by every reader
  { name: 'VAULTWARDEN_ADMIN', type: 'password', params: { length: 48, hash: { algorithm: 'argon2id', memoryKiB: 7168, iterations: 1 } } },
  { name: 'MQTT', type: 'passphrase', params: { hash: { algorithm: 'mosquitto' } } },
  // CONTRACT §13: a JWK is a line of JSON (its `"`, `{` and `:` kept); VAPID_PRIVATE_KEY derives VAPID_PUBLIC_KEY
  { name: 'JWT_SECRET', type: 'signing-key', params: { algorithm: 'HS256' } },
  { name: 'VAPID_PRIVATE_KEY', type: 'signing-key', params: { algorithm: 'ES256', format: 'vapid' } },
  { name: 'SS', type: 'vpn', params: { protocol: 'shadowsocks', length: 64 } },
  { name: 'ID', type: 'uuid' },
  { name: 'SEQ', type: 'seq', params: { encoding: 'base64', byteLength: 64 } },
  { name: 'SHORT_ID', type: 'short-id' },
  { name: 'PIN', type: 'pin' },
  { name: 'AGE', type: 'age-key' },
  { name: 'API_TOKEN', type: 'token' },
  { name: 'TOTP', type: 'totp', params: { issuer: 'Société Générale & Co', account: 'jürgen=müller@example.com' } }
]

t.test('.env: every reader gives every value byte for byte', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', accept: 'text/plain' }, payload: JSON.stringify({ items: ITEMS }) })
  t.equal(response.statusCode, 200, response.statusCode === 200 ? 'answered' : response.body)
  const text = response.body
  const expected = envValues(text)
  t.equal(expected.size, ITEMS.length + 7, 'a line per value, then the public keys (WG, REALITY, AGE, VAPID) and the hashes (VAULTWARDEN_ADMIN, MQTT, API_TOKEN)')
  t.ok(expected.has('REALITY_PUBLIC_KEY') && expected.has('VAPID_PUBLIC_KEY') && expected.has('VAULTWARDEN_ADMIN_HASH'), 'a <stem>_PRIVATE_KEY derives <stem>_PUBLIC_KEY; a hash NAME_HASH')
  // BIP-39 words are NFKD (é as e and U+0301): looked for composed, so either form counts
  const all = [...expected.values()].join('').normalize('NFC')
  for (const character of ['$', '#', '"', '`', ' ', '&', '=', '${', 'é', '€', '\u3000', '😀']) t.ok(all.includes(character), `the values hold ${JSON.stringify(character)}`)

  await readBackByEveryReader(t, [{ label: 'the set', text }])

  await t.test('python-dotenv: why the docs say interpolate=False', async (t) => {
    if (!hasPythonDotenv(t)) return
    // By default it expands ${NAME} even between single quotes (a password of `${}` and letters
    // can hold one); shown on a line of that form
    const dir = await mkdtemp(join(tmpdir(), 'randgen-env-'))
    t.teardown(() => rm(dir, { recursive: true, force: true }))
    const braces = join(dir, 'braces.env')
    const written = 'x$' + '{HOME}y'
    await writeFile(braces, `A='${written}'\n`)
    t.equal(pythonDotenvValues([braces], false)[0]?.A, written, 'interpolate=False: as written')
    t.not(pythonDotenvValues([braces], true)[0]?.A, written, 'its default, interpolate=True, expands the name inside single quotes')
  })
})
