// CONTRACT §14.2: signing-key's `synapse` format. Each line is read by what Synapse reads it with,
// python's signedjson (Debian python3-signedjson, with Debian's /usr/bin/python3): its
// read_signing_keys takes the line, derives the public key we gave, and a JSON signed with the key
// verifies with that public key. The key id's characters are held to a chi-square test.
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SIGNING_ALGORITHMS } from '../../schemas/signing-key.js'
import { SYNAPSE_KEY_ID_ALPHABET, SYNAPSE_KEY_ID_LENGTH, synapseKeyIds } from '../../src/keys/signing-keys.js'
import { randomStrings } from '../../src/random/csprng.js'
import { goodnessOfFit } from '../stats/chi-square.js'
import { ALPHA, assertFits, assertPower, countByPosition } from '../stats/fit.js'
import { build, callTool, get, post } from '../helper.js'

const PYTHON = '/usr/bin/python3'
/** CONTRACT §14.2's line: `ed25519`, the key id, the 32-byte seed in unpadded standard Base64. */
const LINE = /^ed25519 (a_[A-Za-z0-9]{4}) ([A-Za-z0-9+/]{43})$/
const PUBLIC_KEY = /^ed25519:(a_[A-Za-z0-9]{4}) ([A-Za-z0-9+/]{43})$/

interface Answer { values: string[], publicKeys: string[], entropyBits: number }

interface Read {
  /** The key id signedjson read from the line. */
  version?: string
  /** The public key signedjson derives from the seed, unpadded Base64. */
  derived?: string
  /** A JSON signed with the key verifies with the public key we gave, under our key id. */
  verifies?: boolean
  /** The same JSON, changed after signing, does not. */
  tamperedRefused?: boolean
  /** The signature does not verify with the next key's public key. */
  otherKeyRefused?: boolean
  error?: string
}

/**
 * signedjson reads each line as Synapse reads its signing key file (read_signing_keys), signs a
 * JSON with it (sign_json) and verifies that with the public key we gave (decode_verify_key_base64
 * of its key id and Base64, verify_signed_json); a refusal is its error message.
 */
function signedjsonRead (pairs: ReadonlyArray<{ value: string, publicKey: string }>): Read[] {
  const script = String.raw`
import io, json, sys
from signedjson.key import read_signing_keys, get_verify_key, encode_verify_key_base64, decode_verify_key_base64
from signedjson.sign import sign_json, verify_signed_json, SignatureVerifyException
pairs = json.load(sys.stdin)
def verify_key_of(public_key):
    key_id, key_base64 = public_key.split(' ')
    algorithm, version = key_id.split(':')
    return decode_verify_key_base64(algorithm, version, key_base64)
out = []
for index, pair in enumerate(pairs):
    try:
        [key] = read_signing_keys(io.StringIO(pair['value'] + '\n'))
        verify_key = verify_key_of(pair['publicKey'])
        signed = sign_json({'server_name': 'randgen.test', 'n': index}, 'randgen.test', key)
        verify_signed_json(signed, 'randgen.test', verify_key)
        def refused(document, key):
            try:
                verify_signed_json(document, 'randgen.test', key)
                return False
            except SignatureVerifyException:
                return True
        other = verify_key_of(pairs[(index + 1) % len(pairs)]['publicKey'])
        other.version = verify_key.version
        out.append({
            'version': key.version,
            'derived': encode_verify_key_base64(get_verify_key(key)),
            'verifies': True,
            'tamperedRefused': refused(dict(signed, n=index + 1), verify_key),
            'otherKeyRefused': len(pairs) > 1 and refused(signed, other),
        })
    except Exception as error:
        out.append({'error': type(error).__name__ + ': ' + str(error)})
json.dump(out, sys.stdout)
`
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(pairs) }).toString()) as Read[]
}

t.test('signedjson reads every line, derives our public key, and verifies what the key signs', async (t) => {
  const app = await build(t)
  for (const send of [post, get]) {
    const response = await send(app, 'signing-key', { format: 'synapse', quantity: 50 })
    t.equal(response.statusCode, 200)
    const { values, publicKeys, entropyBits } = response.json() as Answer
    t.equal(entropyBits, 256, 'entropyBits: the seed\'s 256 bits, the key id counts nothing')
    t.equal(new Set(values).size, 50)
    const read = signedjsonRead(values.map((value, index) => ({ value, publicKey: publicKeys[index] as string })))
    for (const [index, value] of values.entries()) {
      const line = LINE.exec(value)
      const publicKey = PUBLIC_KEY.exec(publicKeys[index] as string)
      if (line === null || publicKey === null) {
        t.fail(`not the contract's form: ${value.slice(0, 14)}… / ${publicKeys[index] as string}`)
        continue
      }
      const { version, derived, verifies, tamperedRefused, otherKeyRefused, error } = read[index] as Read
      if (error !== undefined) t.fail(`signedjson: ${error}`)
      // One assertion per key keeps the output short; any difference fails it
      t.same([version, publicKey[1], derived, verifies, tamperedRefused, otherKeyRefused], [line[1], line[1], publicKey[2], true, true, true],
        `key ${index}: key id read back and the same in the public key, public key derived, signed JSON verified, tampered and foreign refused`)
    }
  }
})

t.test('signedjson can refuse: a seed of the wrong length, a line of more fields', async (t) => {
  const app = await build(t)
  const { values, publicKeys } = (await post(app, 'signing-key', { format: 'synapse' })).json() as Answer
  const [value, publicKey] = [values[0] as string, publicKeys[0] as string]
  const [short, plainTextLine] = signedjsonRead([{ value: value.slice(0, -4), publicKey }, { value: `${value} ${publicKey}`, publicKey }])
  t.match(short?.error, /\w+/, `a seed 3 bytes short: ${short?.error ?? ''}`)
  t.match(plainTextLine?.error, /ValueError/, `the plain-text line whole (key and public key): ${plainTextLine?.error ?? ''}`)
})

t.test('plain text: each line the key line, one space, its public key; the first three fields are what signedjson reads', async (t) => {
  const app = await build(t)
  const response = await post(app, 'signing-key', { format: 'synapse', quantity: 3 }, { accept: 'text/plain' })
  t.equal(response.headers['content-type'], 'text/plain; charset=utf-8')
  const lines = response.body.split('\n')
  t.same([lines.length, lines[3]], [4, ''], 'three lines, each ending in a line feed')
  const pairs = lines.slice(0, 3).map((line) => {
    const fields = line.split(' ')
    t.equal(fields.length, 5, 'five fields: ed25519, key id, seed, ed25519:<key id>, public key')
    t.match(fields.slice(0, 3).join(' '), LINE)
    t.match(fields.slice(3).join(' '), PUBLIC_KEY)
    t.equal(fields[3], `ed25519:${fields[1] as string}`, 'the same key id')
    return { value: fields.slice(0, 3).join(' '), publicKey: fields.slice(3).join(' ') }
  })
  // What docs/signing-keys.md tells a user to run for Synapse's key file
  const cut = execFileSync('cut', ['-d', ' ', '-f', '1-3'], { input: response.body }).toString().split('\n').slice(0, 3)
  t.same(cut, pairs.map(({ value }) => value), 'cut -d " " -f 1-3 gives the key lines')
  t.ok(signedjsonRead(pairs).every(({ verifies }) => verifies === true), 'each read and verified by signedjson')
})

t.test('refusals: synapse is EdDSA\'s alone, on the route, in a set and over MCP, in every language', async (t) => {
  const app = await build(t)
  for (const algorithm of SIGNING_ALGORITHMS.filter((candidate) => candidate !== 'EdDSA')) {
    const response = await post(app, 'signing-key', { algorithm, format: 'synapse' })
    t.same([response.statusCode, response.json().errors.map(({ pointer, code }: { pointer: string, code: string }) => [pointer, code])], [400, [['#/format', 'NOT_ALLOWED_VALUE']]], algorithm)
  }
  const set = await app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json' }, payload: { items: [{ name: 'KEY', type: 'signing-key', params: { format: 'synapse' } }, { name: 'BAD', type: 'signing-key', params: { algorithm: 'ES256', format: 'synapse' } }] } })
  t.same(set.json().errors.map(({ pointer, code }: { pointer: string, code: string }) => [pointer, code]), [['#/items/1/params/format', 'NOT_ALLOWED_VALUE']], 'in a set')
  const tool = (await callTool(app, 'generate_signing_key', { algorithm: 'RS256', format: 'synapse' })).json().result
  t.same([tool.isError, JSON.parse(tool.content[0].text).errors[0].pointer], [true, '#/format'], 'over MCP')
  for (const language of ['en', 'ru', 'de', 'fr', 'es']) {
    const { detail } = (await post(app, 'signing-key', { algorithm: 'HS256', format: 'synapse' }, { 'x-language': language })).json()
    t.match(detail, /synapse[^.]*EdDSA/, `${language}: ${detail as string}`)
  }
})

t.test('.env form: one line for the key and one for its public key, read back by sh and by signedjson', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', accept: 'text/plain' }, payload: { items: [{ name: 'SYNAPSE_SIGNING_KEY', type: 'signing-key', params: { format: 'synapse' } }] } })
  t.equal(response.statusCode, 200, response.body)
  const lines = response.body.split('\n')
  t.equal(lines.length, 3)
  t.match(lines[0], /^SYNAPSE_SIGNING_KEY='ed25519 a_[A-Za-z0-9]{4} [A-Za-z0-9+/]{43}'$/)
  t.match(lines[1], /^SYNAPSE_SIGNING_KEY_PUBLIC_KEY='ed25519:a_[A-Za-z0-9]{4} [A-Za-z0-9+/]{43}'$/)
  const directory = mkdtempSync(join(tmpdir(), 'randgen-synapse-'))
  t.teardown(() => rmSync(directory, { recursive: true, force: true }))
  writeFileSync(join(directory, '.env'), response.body)
  const read = execFileSync('/bin/sh', ['-c', 'set -a; . ./.env; printf "%s\\n" "$SYNAPSE_SIGNING_KEY" "$SYNAPSE_SIGNING_KEY_PUBLIC_KEY"'], { cwd: directory, env: {}, stdio: ['ignore', 'pipe', 'pipe'] }).toString().split('\n')
  t.same(read.slice(0, 2), lines.slice(0, 2).map((line) => line.slice(line.indexOf('=') + 2, -1)), 'sh reads both values byte for byte')
  t.equal(signedjsonRead([{ value: read[0] as string, publicKey: read[1] as string }])[0]?.verifies, true, 'signedjson reads what sh read')
})

t.test('Accept: application/jwk-set+json gives the public keys as EdDSA JWKs, as for any format', async (t) => {
  const app = await build(t)
  const response = await post(app, 'signing-key', { format: 'synapse', quantity: 2 }, { accept: 'application/jwk-set+json' })
  t.equal(response.headers['content-type'], 'application/jwk-set+json; charset=utf-8')
  const { keys } = response.json() as { keys: Array<Record<string, string>> }
  t.same(keys.map(({ kty, crv, alg, use }) => [kty, crv, alg, use, Buffer.from(keys[0]?.x ?? '', 'base64url').length]), [['OKP', 'Ed25519', 'EdDSA', 'sig', 32], ['OKP', 'Ed25519', 'EdDSA', 'sig', 32]])
})

t.test('MCP: generate_signing_key makes synapse lines', async (t) => {
  const app = await build(t)
  const { structuredContent } = (await callTool(app, 'generate_signing_key', { format: 'synapse' })).json().result as { structuredContent: Answer }
  t.match(structuredContent.values[0], LINE)
  t.equal(signedjsonRead([{ value: structuredContent.values[0] as string, publicKey: structuredContent.publicKeys[0] as string }])[0]?.verifies, true)
})

// The key id's 4 characters, each uniform over the 62 of A-Z a-z 0-9: alpha = 1e-6 split evenly
// over the 4 positions (Bonferroni); the sample catches a 1% bias at any one position (total
// variation 0.01, Cohen's w >= 0.02) with probability >= 0.99, checked by assertPower before
// sampling. Drawn by synapseKeyIds, the sampler signingKeys takes each synapse key's id from
// (an Ed25519 key pair costs ~0.3 ms here: 317,000 of them would take minutes).
const N = 317_000
const UNIFORM = new Array<number>(SYNAPSE_KEY_ID_ALPHABET.length).fill(1 / SYNAPSE_KEY_ID_ALPHABET.length)

t.test(`key id: every one of its ${SYNAPSE_KEY_ID_LENGTH} characters uniform over A-Z a-z 0-9 (alpha 1e-6 over ${SYNAPSE_KEY_ID_LENGTH} positions, power >= 0.99 against a 1% bias)`, async (t) => {
  t.same([...SYNAPSE_KEY_ID_ALPHABET].sort(), [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].sort(), 'the 62 characters of synapse.config.key\'s ids')
  assertPower(t, SYNAPSE_KEY_ID_ALPHABET.length - 1, ALPHA / SYNAPSE_KEY_ID_LENGTH, N)
  const ids = synapseKeyIds(N)
  t.ok(ids.every((id) => id.startsWith('a_')), 'each id starts with a_')
  countByPosition(ids.map((id) => id.slice(2)), SYNAPSE_KEY_ID_ALPHABET, SYNAPSE_KEY_ID_LENGTH)
    .forEach((row, position) => assertFits(t, row, UNIFORM, ALPHA / SYNAPSE_KEY_ID_LENGTH, `position ${position}`))
})

t.test('negative control: key ids with a modulo bias (a uniform byte % 62) are rejected at every position', async (t) => {
  // 256 = 4·62 + 8: the first 8 characters come 5/256 of the time, the other 54 only 4/256
  const bytes = String.fromCharCode(...Array.from({ length: 256 }, (_, code) => code))
  const biased = randomStrings(bytes, SYNAPSE_KEY_ID_LENGTH, N)
    .map((draw) => Array.from(draw, (character) => SYNAPSE_KEY_ID_ALPHABET[character.charCodeAt(0) % 62]).join(''))
  const pValues = countByPosition(biased, SYNAPSE_KEY_ID_ALPHABET, SYNAPSE_KEY_ID_LENGTH).map((row) => goodnessOfFit(row, UNIFORM).pValue)
  t.ok(pValues.every((p) => p <= ALPHA / SYNAPSE_KEY_ID_LENGTH), `every position rejected (largest p = ${Math.max(...pValues).toExponential(3)})`)
})
