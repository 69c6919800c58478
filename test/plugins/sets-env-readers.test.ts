// CONTRACT §10: the `.env` answer read back by every reader the contract names, each giving every
// value byte for byte: POSIX sh (`set -a; . ./.env`) under dash and bash, dotenv (npm), Node's
// util.parseEnv (what `node --env-file` uses), python-dotenv (Debian's python3-dotenv, with
// interpolate=False) and godotenv (Debian's golang-github-joho-godotenv-dev, built with golang-go;
// Docker Compose's reader derives from it). The values are full of what readers treat specially:
// `$`, `#`, `"`, backticks, spaces, `&`, `=`, `${`, and letters beyond ASCII. .ci/run installs
// dash, python3-dotenv, golang-go and godotenv; without CI=true a missing one is a stated skip.
import t, { type Test } from 'tap'
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import dotenv from 'dotenv'
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

/** The lines as the contract writes them: `NAME='value'`, nothing else; what every reader must give back. */
function expectedValues (text: string): Map<string, string> {
  const values = new Map<string, string>()
  for (const line of text.split('\n').slice(0, -1)) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)='([^'\\\p{Cc}]*)'$/u.exec(line)
    if (match === null) throw new Error(`not a .env line: ${line}`)
    values.set(match[1] as string, match[2] as string)
  }
  return values
}

function installed (command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Under CI a missing reader fails the run (.ci/run installs it); elsewhere it is a stated skip. */
function missing (t: Test, reader: string, install: string): void {
  if (process.env.CI === 'true') t.fail(`${reader} is missing under CI=true: .ci/run must install ${install}`)
  else t.pass(`${reader} reads the .env back`, { skip: `${reader} is not installed: apt-get install ${install} to run this check` })
}

t.test('.env: every reader gives every value byte for byte', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', accept: 'text/plain' }, payload: JSON.stringify({ items: ITEMS }) })
  t.equal(response.statusCode, 200, response.statusCode === 200 ? 'answered' : response.body)
  const text = response.body
  const expected = expectedValues(text)
  t.equal(expected.size, ITEMS.length + 7, 'a line per value, then the public keys (WG, REALITY, AGE, VAPID) and the hashes (VAULTWARDEN_ADMIN, MQTT, API_TOKEN)')
  t.ok(expected.has('REALITY_PUBLIC_KEY') && expected.has('VAPID_PUBLIC_KEY') && expected.has('VAULTWARDEN_ADMIN_HASH'), 'a <stem>_PRIVATE_KEY derives <stem>_PUBLIC_KEY; a hash NAME_HASH')
  // BIP-39 words are NFKD (é as e and U+0301): looked for composed, so either form counts
  const all = [...expected.values()].join('').normalize('NFC')
  for (const character of ['$', '#', '"', '`', ' ', '&', '=', '${', 'é', '€', '\u3000', '😀']) t.ok(all.includes(character), `the values hold ${JSON.stringify(character)}`)
  const names = [...expected.keys()]

  const dir = await mkdtemp(join(tmpdir(), 'randgen-env-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, '.env')
  await writeFile(file, text)

  const same = (t: Test, reader: string, read: Record<string, string | undefined>) => {
    for (const [name, value] of expected) t.equal(read[name], value, `${reader}: ${name}`)
  }

  // POSIX sh: every value printed back with printf, NUL-separated, in a clean environment
  const printAll = `set -a; . ./.env; for name in ${names.join(' ')}; do eval "printf '%s\\0' \\"\\$$name\\""; done`
  for (const shell of ['dash', 'bash']) {
    await t.test(`sh: ${shell} (set -a; . ./.env)`, async (t) => {
      if (!installed(shell, ['-c', 'true'])) return missing(t, shell, shell)
      const printed = execFileSync(shell, ['-c', printAll], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }).toString('utf8').split('\0')
      same(t, shell, Object.fromEntries(names.map((name, index) => [name, printed[index]])))
    })
  }

  await t.test('dotenv (npm)', async (t) => {
    same(t, 'dotenv', dotenv.parse(Buffer.from(text, 'utf8')))
  })

  await t.test('Node\'s util.parseEnv (node --env-file)', async (t) => {
    same(t, 'util.parseEnv', parseEnv(text))
    // The whole of --env-file: the child's environment, read from the file (no variable of these names set)
    const script = `process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, process.env[n]]))))`
    const printed = execFileSync(process.execPath, [`--env-file=${file}`, '-e', script], { env: { PATH: process.env.PATH } }).toString('utf8')
    same(t, 'node --env-file', JSON.parse(printed))
  })

  await t.test('python-dotenv (Debian python3-dotenv), interpolate=False', async (t) => {
    const python = '/usr/bin/python3'
    if (!existsSync(python) || !installed(python, ['-c', 'import dotenv'])) return missing(t, 'python-dotenv', 'python3-dotenv')
    const read = (path: string, interpolate: boolean) => JSON.parse(execFileSync(python, ['-c',
      `import json, sys\nfrom dotenv import dotenv_values\nprint(json.dumps(dotenv_values(sys.argv[1], interpolate=${interpolate ? 'True' : 'False'})))`, path]).toString('utf8'))
    same(t, 'python-dotenv', read(file, false))
    // Why the docs say interpolate=False: by default it expands ${NAME} even between single
    // quotes (a password of \`\${}\` and letters can hold one); shown on a line of that form
    const braces = join(dir, 'braces.env')
    const written = 'x$' + '{HOME}y'
    await writeFile(braces, `A='${written}'\n`)
    t.equal(read(braces, false).A, written, 'interpolate=False: as written')
    t.not(read(braces, true).A, written, 'its default, interpolate=True, expands the name inside single quotes')
  })

  await t.test('godotenv (Debian golang-github-joho-godotenv-dev)', async (t) => {
    const source = '/usr/share/gocode/src/github.com/joho/godotenv'
    if (!installed('go', ['version']) || !existsSync(source)) return missing(t, 'godotenv', 'golang-go golang-github-joho-godotenv-dev')
    const program = join(dir, 'reader')
    await writeFile(join(dir, 'main.go'), [
      'package main',
      'import ("encoding/json"; "os"; "github.com/joho/godotenv")',
      'func main() { values, err := godotenv.Read(os.Args[1]); if err != nil { panic(err) }; json.NewEncoder(os.Stdout).Encode(values) }',
      ''
    ].join('\n'))
    // Debian's Go sources, outside modules: GOPATH mode reads /usr/share/gocode, nothing is downloaded
    const started = Date.now()
    execFileSync('go', ['build', '-o', program, join(dir, 'main.go')], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOCACHE: join(dir, 'go-cache'), GOFLAGS: '', CGO_ENABLED: '0' }
    })
    t.comment(`godotenv reader built in ${Date.now() - started} ms`)
    same(t, 'godotenv', JSON.parse(execFileSync(program, [file]).toString('utf8')))
  })
})
