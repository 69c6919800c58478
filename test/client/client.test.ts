// A generated client, used for real: types from openapi.json by openapi-typescript, a small
// openapi-fetch client (fixture/randgen-client.ts) type-checked strictly against them, compiled,
// and run against the service listening on an ephemeral port.
import t from 'tap'
import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { WORDLIST } from '../../plugins/passphrase.js'
import { build } from '../helper.js'

const root = new URL('../../', import.meta.url)
const openapiFile = new URL('openapi.json', root)

interface Call {
  name: string
  status: number
  contentType: string | null
  cacheControl: string | null
  contentLanguage: string | null
  sent: Record<string, any>
  body: any
}

/** Generated types + the client in a fresh directory that resolves packages from this project. */
async function prepareClient (): Promise<{ dir: string, diagnostics: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'randgen-client-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await symlink(fileURLToPath(new URL('node_modules', root)), join(dir, 'node_modules'), 'dir')
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n')
  // Properties with a default are optional in requests; openapi-typescript would otherwise make
  // them required (README: --default-non-nullable=false)
  const ast = await openapiTS(openapiFile, { defaultNonNullable: false })
  await writeFile(join(dir, 'openapi.ts'), astToString(ast))
  await copyFile(fileURLToPath(new URL('fixture/randgen-client.ts', import.meta.url)), join(dir, 'randgen-client.ts'))

  const program = ts.createProgram([join(dir, 'randgen-client.ts')], {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
    outDir: dir,
    rootDir: dir
  })
  const emitted = program.emit()
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((diagnostic) => {
    const where = diagnostic.file === undefined
      ? ''
      : `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
  })
  return { dir, diagnostics }
}

const EFF_WORDS = new Set(WORDLIST)
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

t.test('a client generated from openapi.json type-checks and talks to the service', async (t) => {
  const { dir, diagnostics } = await prepareClient()
  t.same(diagnostics, [], 'the client type-checks strictly against the generated types (TypeScript ' + ts.version + ')')

  const app = await build(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const client = await import(pathToFileURL(join(dir, 'randgen-client.js')).href)
  const started = Date.now()
  const calls: Call[] = await client.exercise(`http://127.0.0.1:${port}`)
  const finished = Date.now()

  // The bodies also satisfy the document's own schemas (JSON Schema 2020-12, as OpenAPI 3.1)
  const document = JSON.parse(await readFile(openapiFile, 'utf8'))
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema(document, 'openapi.json')
  const conforms = (name: string, body: unknown) => {
    const valid = ajv.validate({ $ref: `openapi.json#/components/schemas/${name}` }, body)
    return valid ? [] : ajv.errors
  }

  const byName = new Map(calls.map((call) => [call.name, call]))
  const success = (name: string, type: string, component: string): string[] => {
    const call = byName.get(name) as Call
    t.equal(call.status, 200, `${name}: 200`)
    t.equal(call.contentType, 'application/json; charset=utf-8', `${name}: JSON`)
    t.equal(call.cacheControl, 'no-store', `${name}: not cached`)
    t.same(conforms(component, call.body), [], `${name}: body matches ${component}`)
    t.equal(call.body.type, type, `${name}: type`)
    t.equal(call.body.values.length, call.sent.quantity ?? 1, `${name}: quantity values`)
    t.match(call.body.generatedAt, ISO_MS, `${name}: generatedAt in ISO 8601 with milliseconds`)
    const at = Date.parse(call.body.generatedAt)
    t.ok(at >= started - 1000 && at <= finished + 1000, `${name}: generatedAt is now`)
    return call.body.values
  }

  for (const value of success('password', 'password', 'PasswordResult')) {
    t.match(value, /^[A-Za-z0-9]{24}$/, 'password: 24 characters, no symbols')
    t.ok(/[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value), 'password: every enabled set present')
  }
  for (const value of success('passphrase', 'passphrase', 'PassphraseResult')) {
    const words = value.split(' ')
    t.equal(words.length, 7, 'passphrase: 7 words joined by one space')
    t.ok(words.every((word) => /^[A-Z][a-z]*(-[a-z]+)?[0-9]?$/.test(word)), 'passphrase: capitalized words')
    t.equal(words.filter((word) => /[0-9]$/.test(word)).length, 1, 'passphrase: one word carries the digit')
    t.ok(words.every((word) => EFF_WORDS.has(word.replace(/[0-9]$/, '').toLowerCase())), 'passphrase: EFF list words')
  }
  const numbers = success('number', 'number', 'NumberResult')
  t.equal(new Set(numbers).size, 5, 'number: unique')
  for (const value of numbers) {
    t.match(value, /^-?[0-9]+$/, 'number: decimal string')
    t.ok(Number(value) >= -5 && Number(value) <= 5 && value !== '0' && value !== '3', `number: ${value} in range, not excluded`)
  }
  for (const value of success('vpn', 'vpn', 'VpnResult')) {
    t.match(value, /^[A-Za-z0-9+/]{43}=$/, 'vpn: a WireGuard key is 44 characters of Base64')
    const key = Buffer.from(value, 'base64')
    t.ok(key.length === 32 && ((key[0] as number) & 7) === 0 && ((key[31] as number) & 0xc0) === 0x40, 'vpn: a clamped Curve25519 key')
  }
  for (const value of success('uuid', 'uuid', 'UuidResult')) {
    t.match(value, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'uuid: RFC 9562 v4 by default')
  }
  for (const value of success('phrase', 'phrase', 'PhraseResult')) {
    const words = value.split('-')
    t.equal(words.length, 24, 'phrase: 24 words')
    t.ok(validateMnemonic(words.join(' '), wordlist), 'phrase: a valid BIP-39 mnemonic')
  }
  for (const value of success('seq', 'seq', 'SeqResult')) t.match(value, /^[0-9a-f]{32}$/, 'seq: 16 bytes as hex')
  for (const value of success('short-id', 'short-id', 'ShortIdResult')) t.match(value, /^[0-9a-f]{16}$/, 'short-id: 16 hex characters')
  for (const value of success('pin', 'pin', 'PinResult')) t.match(value, /^[0-9]{4}$/, 'pin: 4 digits')
  for (const value of success('ssh-key', 'ssh-key', 'SshKeyResult')) t.match(value, /^-----BEGIN OPENSSH PRIVATE KEY-----\n[\s\S]+\n-----END OPENSSH PRIVATE KEY-----\n$/, 'ssh-key: a private key file')
  t.match(byName.get('ssh-key')?.body.publicKeys, [/^ssh-ed25519 \S+ deploy@ci$/], 'ssh-key: the public key line with the comment')
  for (const value of success('age-key', 'age-key', 'AgeKeyResult')) t.match(value, /^AGE-SECRET-KEY-1[0-9A-Z]{58}$/, 'age-key: an identity')
  t.match(byName.get('age-key')?.body.publicKeys, [/^age1[0-9a-z]{58}$/, /^age1[0-9a-z]{58}$/], 'age-key: a recipient for each')
  for (const value of success('token', 'token', 'TokenResult')) t.match(value, /^myapp_[0-9A-Za-z]{36}$/, 'token: prefix, 30 random characters, checksum')
  t.equal((byName.get('token') as Call).body.hashes.length, 2, 'token: a hash per token')
  for (const value of success('totp', 'totp', 'TotpResult')) {
    t.match(value, /^otpauth:\/\/totp\/Example%20Co:alice%40example\.com\?secret=[A-Z2-7]{32}&issuer=Example%20Co&algorithm=SHA1&digits=8&period=30$/, 'totp: a Key URI')
  }
  for (const value of success('seq via X-Data', 'seq', 'SeqResult')) t.match(value, /^[A-Za-z0-9_-]{11}$/, 'GET with X-Data: 8 bytes as base64url')

  const tooShort = byName.get('password too short') as Call
  t.equal(tooShort.status, 400)
  t.equal(tooShort.contentType, 'application/problem+json; charset=utf-8')
  t.equal(tooShort.contentLanguage, 'de', 'X-Language from the typed header parameter')
  t.same(conforms('Problem', tooShort.body), [], 'the error matches Problem')
  t.match(tooShort.body, { status: 400, code: 'VALIDATION_FAILED', errors: [{ pointer: '#/length', code: 'OUT_OF_RANGE' }] })

  const badXData = byName.get('seq with bad X-Data') as Call
  t.equal(badXData.status, 400)
  t.equal(badXData.contentType, 'application/problem+json; charset=utf-8')
  t.same(conforms('Problem', badXData.body), [], 'the error matches Problem')
  t.match(badXData.body, { status: 400, code: 'X_DATA_INVALID' })
  for (const name of ['set', 'set via X-Data']) {
    const setCall = byName.get(name) as Call
    t.equal(setCall.status, 200, `${name}: 200`)
    t.same(conforms('SetResult', setCall.body), [], `${name}: the answer matches SetResult`)
    t.match(setCall.body, {
      items: [
        { name: 'DB_PASSWORD', type: 'password', values: [/^[A-Za-z0-9]{32}$/] },
        { name: 'WG', type: 'vpn', values: [/^[A-Za-z0-9+/]{43}=$/], publicKeys: [/^[A-Za-z0-9+/]{43}=$/] },
        { name: 'API_TOKEN', type: 'token', values: [/^myapp_/], hashes: [/^[0-9a-f]{64}$/] },
        { name: 'ID', type: 'uuid' }
      ],
      generatedAt: ISO_MS
    }, `${name}: every item, typed by its generator`)
  }
  t.equal(calls.length, 18, 'every call the client makes was checked')
})

t.test('access keys: a key made by /api/generate/token, its hash configured, sent by the generated client', async (t) => {
  const { dir, diagnostics } = await prepareClient()
  t.same(diagnostics, [], 'the client type-checks')
  // docs/deploy.md's recipe: a token is the key, its `hashes` entry the digest to configure
  const maker = await build(t)
  const made = (await maker.inject({ method: 'POST', url: '/api/generate/token', headers: { 'content-type': 'application/json' }, payload: '{"prefix":"randgen"}' })).json()
  const [key] = made.values as string[]
  const [digest] = made.hashes as string[]
  const app = await build(t, { API_KEY_HASHES: digest as string })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const client = await import(pathToFileURL(join(dir, 'randgen-client.js')).href)
  const { refused, accepted } = await client.withAccessKey(`http://127.0.0.1:${port}`, key)
  t.equal(refused.status, 401)
  t.equal(refused.challenge, 'Bearer realm="randgen"')
  t.equal(refused.contentType, 'application/problem+json; charset=utf-8')
  t.equal(refused.body.code, 'UNAUTHORIZED')
  t.equal(accepted.status, 200)
  t.equal(accepted.body.type, 'short-id')
  t.equal(accepted.body.values.length, 2)
})
