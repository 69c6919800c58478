// What the OpenAPI document bounds (429 on every operation, maxItems, maxLength, patterns, integer
// formats) is what the service does, and the bounds the document alone carries never reach AJV.
import t from 'tap'
import { readFile } from 'node:fs/promises'
import fc from 'fast-check'
import { build } from '../helper.js'
import { generatePassphrases } from '../../plugins/passphrase.js'
import { PASSPHRASE_SEPARATOR_PATTERN, PHRASE_SEPARATOR_PATTERN, SSH_COMMENT_PATTERN, X_DATA_PATTERN } from '../../plugins/docs.js'
import { generateSshKeys } from '../../plugins/ssh-key.js'
import { isAllowedSeparator } from '../../plugins/phrase.js'
import { generateTokens } from '../../plugins/token.js'
import { generateTotpUris } from '../../plugins/totp.js'
import { ECHOED_TEXT_MAX_LENGTH, FIELD_ERRORS_MAX_ITEMS, PUBLIC_KEY_MAX_LENGTH, QUANTITY_MAX, TITLE_MAX_LENGTH, VALUE_MAX_LENGTH } from '../../schemas/common.js'
import { PassphraseParams } from '../../schemas/passphrase.js'
import { SshKeyParams } from '../../schemas/ssh-key.js'
import { PHRASE_LANGUAGES, PhraseParams } from '../../schemas/phrase.js'
import { TokenParams } from '../../schemas/token.js'
import { TOTP_URI_MAX_LENGTH, TotpParams } from '../../schemas/totp.js'
import { problemDocument, ProblemError } from '../../src/http/errors.js'
import { catalogs } from '../../src/i18n/index.js'
import { BODY_LIMIT, MAX_HEADER_SIZE } from '../../src/server-options.js'
import { MAX_FIELD_PROBLEMS } from '../../src/http/validation-errors.js'
import { decodeBase64Strict } from '../../src/http/x-data.js'

type Json = Record<string, any>

const document: Json = JSON.parse(await readFile(new URL('../../openapi.json', import.meta.url), 'utf8'))
const schemas: Json = document.components.schemas
const json = { 'content-type': 'application/json' }

function operations (): Array<[string, Json]> {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, operation]): [string, Json] => [`${method.toUpperCase()} ${path}`, operation]))
}

/** Every schema object in the document, with where it is. */
function schemaNodes (node: unknown, at = '#'): Array<[string, Json]> {
  if (typeof node !== 'object' || node === null) return []
  const here: Array<[string, Json]> = 'type' in node ? [[at, node as Json]] : []
  return [...here, ...Object.entries(node).flatMap(([key, value]) => schemaNodes(value, `${at}/${key}`))]
}

t.test('every operation can answer 429 RATE_LIMITED with Retry-After', async (t) => {
  for (const [name, operation] of operations()) {
    t.same(operation.responses[429], { $ref: '#/components/responses/RateLimited' }, `${name}: 429`)
  }
  const rateLimited = document.components.responses.RateLimited
  t.same(rateLimited.headers['Retry-After'], { $ref: '#/components/headers/RetryAfter' })
  t.match(document.components.headers.RetryAfter, { required: true, schema: { type: 'integer', format: 'int32', minimum: 0 } }, 'Retry-After: whole seconds')
  const example = rateLimited.content['application/problem+json'].examples.RATE_LIMITED.value
  t.same(example, problemDocument('en', new ProblemError(429, 'RATE_LIMITED')), 'the example comes from the catalog')
  // The edge answers 429 itself: its body must be the documented one
  const edge = await readFile(new URL('../../deploy/nginx/templates/randgen/locations.conf.template', import.meta.url), 'utf8')
  const body = /return 429 '([^']*)'/.exec(edge)?.[1]
  t.same(JSON.parse(body ?? 'null'), example, 'the edge sends the documented body')
})

t.test('arrays are bounded: errors by CONTRACT §4, values and public keys by quantity', async (t) => {
  t.equal(FIELD_ERRORS_MAX_ITEMS, MAX_FIELD_PROBLEMS, 'the document caps errors where the service does')
  t.equal(schemas.Problem.properties.errors.maxItems, 20)
  // Every generator's result, and each as a set's item (CONTRACT §10); the set holds 32 items at most
  const results = Object.keys(schemas).filter((name) => (name.endsWith('Result') && name !== 'SetResult') || name.endsWith('SetResultItem'))
  t.ok(results.length >= 16)
  t.equal(schemas.SetResult.properties.items.maxItems, 32)
  t.equal(schemas.SetRequest.properties.items.maxItems, 32)
  for (const name of results) {
    // CONTRACT §14.2: a jwt item is one token
    t.equal(schemas[name].properties.values.maxItems, name === 'JwtSetResultItem' ? 1 : QUANTITY_MAX, `${name}.values`)
    const publicKeys = schemas[name].properties.publicKeys
    if (publicKeys !== undefined) t.equal(publicKeys.maxItems, QUANTITY_MAX, `${name}.publicKeys`)
  }
  for (const [at, schema] of schemaNodes(document)) {
    if (schema.type === 'array') t.type(schema.maxItems, 'number', `${at}: maxItems`)
  }
})

t.test('strings are bounded, and the bounds hold for what the service sends', async (t) => {
  const exempt = '#/components/schemas/NumberParams/properties/exclusions/items'
  for (const [at, schema] of schemaNodes(document)) {
    if (schema.type !== 'string' || at === exempt) continue
    t.ok(schema.maxLength !== undefined || schema.enum !== undefined || schema.const !== undefined, `${at}: maxLength, enum or const`)
  }
  const app = await build(t)

  const hex = await app.inject({ method: 'POST', url: '/api/generate/seq', headers: json, payload: { byteLength: 256, encoding: 'hex' } })
  t.equal(hex.json().values[0].length, VALUE_MAX_LENGTH, 'the longest unprefixed value any generator makes fills VALUE_MAX_LENGTH')
  const prefixed = await app.inject({ method: 'POST', url: '/api/generate/seq', headers: json, payload: { byteLength: 256, encoding: 'hex', prefix: '~'.repeat(16) } })
  t.equal(prefixed.json().values[0].length, schemas.SeqResult.properties.values.items.maxLength, 'seq\'s longest value, behind the longest prefix, fills its own bound')
  const mldsa = await app.inject({ method: 'POST', url: '/api/generate/vpn', headers: json, payload: { protocol: 'mldsa65' } })
  t.equal(mldsa.json().publicKeys[0].length, PUBLIC_KEY_MAX_LENGTH, 'the longest public key (ML-DSA-65) fills PUBLIC_KEY_MAX_LENGTH')
  t.equal(schemas.VpnResult.properties.publicKeys.items.maxLength, PUBLIC_KEY_MAX_LENGTH)
  // Each key-pair generator's bound is its own longest public key and value
  const ssh = await app.inject({ method: 'POST', url: '/api/generate/ssh-key', headers: json, payload: { comment: '~'.repeat(64) } })
  t.equal(ssh.json().publicKeys[0].length, schemas.SshKeyResult.properties.publicKeys.items.maxLength, 'the longest ssh-key public key fills its bound')
  t.ok(ssh.json().values[0].length <= VALUE_MAX_LENGTH, `the longest ssh-key file (${ssh.json().values[0].length as number} characters) fits VALUE_MAX_LENGTH`)
  const age = await app.inject({ method: 'POST', url: '/api/generate/age-key', headers: json, payload: {} })
  t.equal(age.json().publicKeys[0].length, schemas.AgeKeyResult.properties.publicKeys.items.maxLength, 'an age recipient fills its bound')

  for (const [language, catalog] of Object.entries(catalogs)) {
    for (const title of Object.values(catalog.titles)) t.ok(title.length <= TITLE_MAX_LENGTH, `${language}: "${title}" fits`)
  }

  // A name the client chose is echoed in pointer and detail: the bound follows the request limits
  t.ok(ECHOED_TEXT_MAX_LENGTH >= 2 * Math.max(BODY_LIMIT, MAX_HEADER_SIZE), 'echoed text is bounded by the larger request limit, pointer escapes included')
  const name = '~/'.repeat((BODY_LIMIT - 16) / 2)
  const unknown = await app.inject({ method: 'POST', url: '/api/generate/password', headers: json, payload: JSON.stringify({ [name]: 1 }) })
  const problem = unknown.json()
  t.equal(problem.errors[0].code, 'UNKNOWN_FIELD')
  t.ok(problem.errors[0].pointer.length <= ECHOED_TEXT_MAX_LENGTH && problem.detail.length <= ECHOED_TEXT_MAX_LENGTH, 'the longest field name fits')
  t.match(problem.errors[0].pointer, new RegExp(schemas.FieldError.properties.pointer.pattern), 'pointer pattern')
  t.match(problem.code, new RegExp(schemas.Problem.properties.code.pattern), 'code pattern')
})

t.test('integers carry int32 or int64 and both bounds', async (t) => {
  const exempt = '#/components/schemas/NumberParams/properties/exclusions/items'
  for (const [at, schema] of schemaNodes(document)) {
    if (schema.type !== 'integer' || at === exempt) continue
    t.ok(schema.minimum !== undefined && schema.maximum !== undefined, `${at}: minimum and maximum`)
    const int32 = schema.minimum >= -(2 ** 31) && schema.maximum < 2 ** 31
    t.equal(schema.format, int32 ? 'int32' : 'int64', `${at}: format`)
  }
  t.equal(schemas.NumberParams.properties.min.format, 'int64', 'safe integers need int64')
  t.match(schemas.PhraseParams.properties.words, { minimum: 12, maximum: 24, enum: [12, 15, 18, 21, 24] })
})

t.test('X-Data pattern: every header the service can decode matches it', async (t) => {
  const regex = new RegExp(X_DATA_PATTERN)
  const decodes = (text: string) => {
    try {
      decodeBase64Strict(text)
      return true
    } catch {
      return false
    }
  }
  fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'AZaz09+/_-=.! \n'), maxLength: 12 }), (text) => !decodes(text) || regex.test(text)))
  fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
    const buffer = Buffer.from(bytes)
    return [buffer.toString('base64'), buffer.toString('base64url')].every((text) => regex.test(text) && decodes(text))
  }))
  const app = await build(t)
  const answer = await app.inject({ method: 'GET', url: '/api/generate/uuid', headers: { 'x-data': 'e30.' } })
  t.equal(answer.json().code, 'X_DATA_INVALID', 'a header outside the pattern is refused')
  t.notOk(regex.test('e30.'))
})

t.test('passphrase separator pattern says exactly what the generator accepts', async (t) => {
  const regex = new RegExp(PASSPHRASE_SEPARATOR_PATTERN, 'u')
  const accepted = (separator: string) => {
    try {
      generatePassphrases({ words: 3, wordList: 'eff-large', separator, capitalize: false, includeNumber: false, quantity: 1 })
      return true
    } catch {
      return false
    }
  }
  let differences = 0
  // Most code points are refused, each with a thrown ParameterError: without stack traces the
  // 1,114,112 calls take a few seconds, not half a minute
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    for (let code = 0; code <= 0x10ffff; code++) {
      const character = String.fromCodePoint(code)
      if (regex.test(character) !== accepted(character)) differences++
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit
  }
  t.equal(differences, 0, 'every code point alone, surrogates and unassigned ones included')
  for (const separator of ['', '-', ' \u0301', '\u0301-', '--\u200b', '. ', '🎲']) {
    t.equal(regex.test(separator), accepted(separator), `${JSON.stringify(separator)}`)
  }
})

t.test('phrase separator pattern says exactly what the generator accepts in some language', async (t) => {
  // The pattern holds the language-independent rules only; every list refuses its own words'
  // characters on top. A code point some list accepts must match, and one that matches must be
  // accepted by some list: no list's words hold every character the pattern lets through
  const regex = new RegExp(PHRASE_SEPARATOR_PATTERN, 'u')
  t.equal(schemas.PhraseParams.properties.separator.pattern, PHRASE_SEPARATOR_PATTERN, 'in the document')
  const acceptedSomewhere = (separator: string) => PHRASE_LANGUAGES.some((language) => isAllowedSeparator(separator, language))
  let alone = 0
  let after = 0
  for (let code = 0; code <= 0x10ffff; code++) {
    const character = String.fromCodePoint(code)
    if (regex.test(character) !== acceptedSomewhere(character)) alone++
    // Not first, a character that joins the one before it is allowed (unless a list holds it)
    if (regex.test('-' + character) !== acceptedSomewhere('-' + character)) after++
  }
  t.equal(alone, 0, 'every code point alone, surrogates and unassigned ones included')
  t.equal(after, 0, 'every code point after a hyphen')
  for (const separator of [' ', '\u3000', ' \u0301', '\u0301-', '--\u200b', '\u0e33', '-\u0e33', '\u3164', '\uffa0 ', '\u1100\u1161', '🎲', 'a', '一']) {
    t.equal(regex.test(separator), acceptedSomewhere(separator), `${JSON.stringify(separator)}`)
  }
  t.notOk(isAllowedSeparator('a', 'english'), 'what a list holds is left to the generator')
  t.ok(regex.test('a'))
})

t.test('ssh-key comment pattern says exactly what the generator accepts', async (t) => {
  const regex = new RegExp(SSH_COMMENT_PATTERN, 'u')
  t.equal(schemas.SshKeyParams.properties.comment.pattern, SSH_COMMENT_PATTERN, 'in the document')
  const accepted = (comment: string) => {
    try {
      generateSshKeys({ comment, quantity: 1 })
      return true
    } catch {
      return false
    }
  }
  let differences = 0
  for (let code = 0; code <= 0x10ffff; code += code < 0x800 ? 1 : 97) {
    const character = String.fromCodePoint(code)
    if (regex.test(`a${character}`) !== accepted(`a${character}`)) differences++
  }
  t.equal(differences, 0, 'every code point below U+0800 and a sample above, after a letter')
})

t.test('bounds the document alone carries never change validation', async (t) => {
  t.equal((PassphraseParams.properties.separator as Json).pattern, undefined, 'PassphraseParams has no pattern for AJV')
  t.equal((PhraseParams.properties.separator as Json).pattern, undefined, 'PhraseParams has no pattern for AJV')
  t.equal((PhraseParams.properties.words as Json).minimum, undefined, 'PhraseParams.words is an enum only')
  t.equal((SshKeyParams.properties.comment as Json).pattern, undefined, 'SshKeyParams has no pattern for AJV')
  t.equal((PassphraseParams.properties.quantity as Json).format, undefined, 'no format AJV would have to know')
  const app = await build(t)
  const separator = await app.inject({ method: 'POST', url: '/api/generate/passphrase', headers: json, payload: { separator: 'a' } })
  t.equal(separator.json().errors[0].code, 'NOT_ALLOWED_VALUE', 'a letter in a separator is still NOT_ALLOWED_VALUE')
  for (const [separator, code] of [['a', 'NOT_ALLOWED_VALUE'], ['\u200b', 'NOT_ALLOWED_VALUE'], ['\u0301', 'NOT_ALLOWED_VALUE'], ['', 'TOO_SHORT'], ['-----', 'TOO_LONG']]) {
    const answer = await app.inject({ method: 'POST', url: '/api/generate/phrase', headers: json, payload: { separator } })
    t.match(answer.json().errors[0], { pointer: '#/separator', code }, `phrase separator ${JSON.stringify(separator)}: still ${code}`)
  }
  const words = await app.inject({ method: 'POST', url: '/api/generate/phrase', headers: json, payload: { words: 30 } })
  t.equal(words.json().errors[0].code, 'NOT_ALLOWED_VALUE', 'a word count beyond the enum is still NOT_ALLOWED_VALUE')
})

t.test('npm test runs Spectral with the committed ruleset', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'))
  t.match(pkg.scripts.test, /openapi:lint && npm run openapi:spectral/)
  t.match(pkg.scripts['openapi:spectral'], /--ruleset \.spectral\.mjs/)
  const ruleset = await readFile(new URL('../../.spectral.mjs', import.meta.url), 'utf8')
  t.match(ruleset, /from '@stoplight\/spectral-owasp-ruleset'/, 'the ruleset comes from node_modules, not a URL')
  const off = [...ruleset.matchAll(/'(owasp:[^']+)': 'off'/g)].map((match) => match[1]).sort()
  t.same(off, [
    'owasp:api2:2023-read-restricted',
    'owasp:api2:2023-write-restricted',
    'owasp:api4:2023-integer-format',
    'owasp:api4:2023-integer-limit',
    'owasp:api4:2023-rate-limit',
    'owasp:api4:2023-string-limit',
    'owasp:api8:2023-define-cors-origin',
    'owasp:api8:2023-define-error-responses-401'
  ], 'only these rules are switched off (the api4 limits for exclusions items only)')
})

t.test('token prefix, TOTP issuer and account: the patterns say exactly what the generators accept', async (t) => {
  const prefixPattern = new RegExp(schemas.TokenParams.properties.prefix.pattern, 'u')
  const namePattern = new RegExp(schemas.TotpParams.properties.issuer.pattern, 'u')
  t.equal(schemas.TotpParams.properties.account.pattern, schemas.TotpParams.properties.issuer.pattern, 'one rule for issuer and account')
  const accepts = (generate: () => unknown) => {
    try {
      generate()
      return true
    } catch {
      return false
    }
  }
  const prefixAccepted = (prefix: string) => accepts(() => generateTokens({ prefix, length: 16, quantity: 1 }))
  const nameAccepted = (text: string) => accepts(() => generateTotpUris({ issuer: text, account: 'a', algorithm: 'SHA1', digits: 6, period: 30, byteLength: 16, quantity: 1 })) &&
    accepts(() => generateTotpUris({ issuer: '', account: text, algorithm: 'SHA1', digits: 6, period: 30, byteLength: 16, quantity: 1 }))
  // Every code point of the first plane, where every character either rule refuses or accepts in
  // a special way lies (ASCII, controls, the colon, surrogates), and every 97th beyond it
  const codes = [...Array.from({ length: 0x10000 }, (_, code) => code), ...Array.from({ length: 0x100000 / 97 }, (_, i) => 0x10000 + 97 * i), 0x10ffff]
  // Tens of thousands of refusals: their stack traces would be most of the cost, and nobody reads them
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  let differences = 0
  for (const code of codes) {
    const character = String.fromCodePoint(code)
    if (prefixPattern.test(character) !== prefixAccepted(character)) differences++
    if (prefixPattern.test('a' + character) !== prefixAccepted('a' + character)) differences++
    if (namePattern.test(character) !== nameAccepted(character)) differences++
  }
  Error.stackTraceLimit = stackTraceLimit
  t.equal(differences, 0, `${codes.length} code points alone (and after a letter, for prefixes), surrogates and unassigned ones included`)
  for (const text of ['', 'ghp', 'a0b1', '0a', 'aB', 'a_b', 'a\n', 'a:b', 'a\ud800', '\udc00a', '😀', 'a b']) {
    if (text !== '') t.equal(prefixPattern.test(text), prefixAccepted(text), `prefix ${JSON.stringify(text)}`)
    t.equal(namePattern.test(text), nameAccepted(text), `name ${JSON.stringify(text)}`)
  }
  // The rules only: lengths are the schema's own minLength and maxLength, which AJV enforces
  t.match(schemas.TokenParams.properties.prefix, { minLength: 1, maxLength: 16 })
  t.match(schemas.TotpParams.properties.issuer, { maxLength: 64 })
  t.match(schemas.TotpParams.properties.account, { minLength: 1, maxLength: 64 })
  t.equal((TokenParams.properties.prefix as Json).pattern, undefined, 'TokenParams has no pattern for AJV')
  t.equal((TotpParams.properties.issuer as Json).pattern, undefined, 'TotpParams has no pattern for AJV')
  t.equal((TotpParams.properties.account as Json).pattern, undefined, 'TotpParams has no pattern for AJV')
  const app = await build(t)
  for (const [type, params, pointer] of [['token', { prefix: 'Ab' }, '#/prefix'], ['totp', { issuer: 'a:b' }, '#/issuer'], ['totp', { account: '\u0000' }, '#/account']] as const) {
    const answer = await app.inject({ method: 'POST', url: `/api/generate/${type}`, headers: json, payload: params })
    t.match(answer.json().errors, [{ pointer, code: 'NOT_ALLOWED_VALUE' }], `${type} ${pointer}: NOT_ALLOWED_VALUE, not the code of an AJV pattern`)
  }
})

t.test('the longest TOTP URI fills TotpResult\'s bound, and the text/plain bound holds 50 of them', async (t) => {
  const app = await build(t)
  const longest = '😀'.repeat(64)
  const answer = await app.inject({
    method: 'POST',
    url: '/api/generate/totp',
    headers: { ...json, accept: 'text/plain' },
    payload: { issuer: longest, account: longest, algorithm: 'SHA256', digits: 8, period: 300, byteLength: 64, quantity: 50 }
  })
  t.equal(answer.statusCode, 200)
  const lines = answer.body.slice(0, -1).split('\n')
  t.equal(lines.length, 50)
  t.ok(lines.every((line) => line.length === TOTP_URI_MAX_LENGTH), `every URI is ${TOTP_URI_MAX_LENGTH} characters`)
  t.equal(schemas.TotpResult.properties.values.items.maxLength, TOTP_URI_MAX_LENGTH)
  const plainText = document.paths['/api/generate/totp'].post.responses[200].content['text/plain'].schema
  t.ok(answer.body.length <= plainText.maxLength, `${answer.body.length} characters of text/plain <= ${plainText.maxLength}`)
})
