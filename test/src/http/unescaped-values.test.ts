// Values from closed alphabets are serialised without fast-json-stringify's escape scan
// (schemas/common.ts UNESCAPED_FORMAT). That is safe only if no character any such value can
// hold is one JSON escapes: this test walks every such alphabet character by character, checks
// that real values hold nothing else, and that the answer is byte for byte what JSON.stringify
// writes. Values with characters a client chose (passphrase and phrase separators) keep the scan.
import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import { GenerationResult, UNESCAPED_FORMAT } from '../../../schemas/common.js'
import { NumberResult } from '../../../schemas/number.js'
import { PassphraseResult } from '../../../schemas/passphrase.js'
import { PasswordResult } from '../../../schemas/password.js'
import { PhraseResult } from '../../../schemas/phrase.js'
import { SEQ_PREFIX_CHARACTERS, SeqResult } from '../../../schemas/seq.js'
import { ShortIdResult } from '../../../schemas/short-id.js'
import { PinResult } from '../../../schemas/pin.js'
import { TokenResult } from '../../../schemas/token.js'
import { TotpResult } from '../../../schemas/totp.js'
import { UuidResult } from '../../../schemas/uuid.js'
import { VpnResult } from '../../../schemas/vpn.js'
import { AgeKeyResult } from '../../../schemas/age-key.js'
import { SshKeyResult } from '../../../schemas/ssh-key.js'
import { NUMBER_ALPHABET } from '../../../plugins/number.js'
import { PASSWORD_ALPHABET, PUNCTUATION, passwordPlan } from '../../../plugins/password.js'
import { SEQ_ALPHABET } from '../../../plugins/seq.js'
import { SHORT_ID_ALPHABET } from '../../../plugins/short-id.js'
import { PIN_ALPHABET } from '../../../plugins/pin.js'
import { TOKEN_ALPHABET } from '../../../plugins/token.js'
import { TOTP_ALPHABET } from '../../../plugins/totp.js'
import { UUID_ALPHABET } from '../../../plugins/uuid.js'
import { VPN_ALPHABET } from '../../../plugins/vpn.js'
import { AGE_KEY_ALPHABET } from '../../../plugins/age-key.js'
import { isJsonVerbatim, registerGenerator } from '../../../src/http/generator-route.js'
import { build, post, xData } from '../../helper.js'

type Schema = { properties: Record<string, { items?: { format?: string } }> }
const unescaped = (result: unknown): boolean => (result as Schema).properties.values?.items?.format === UNESCAPED_FORMAT

/** Each closed-alphabet generator's alphabet, and the parameters that reach every part of it. */
const CLOSED: Record<string, { alphabet: string, result: unknown, params: Array<Record<string, unknown>> }> = {
  password: {
    alphabet: PASSWORD_ALPHABET,
    result: PasswordResult,
    params: [{ length: 128, quantity: 50 }, { length: 128, avoidAmbiguous: true, quantity: 50 }, { length: 128, minSymbols: 120, quantity: 50 },
      // Every punctuation character but the two JSON escapes, through symbolSet: still the fast path
      { length: 128, symbolSet: PUNCTUATION.replace(/["\\]/g, ''), minSymbols: 120, quantity: 50 }, { length: 128, symbolSet: '\'`', exclude: 'abc', quantity: 50 }]
  },
  number: {
    alphabet: NUMBER_ALPHABET,
    result: NumberResult,
    params: [{ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, quantity: 50 }, { min: -100, max: 100, quantity: 50 }]
  },
  vpn: {
    alphabet: VPN_ALPHABET,
    result: VpnResult,
    params: ['shadowsocks', '2022-blake3-aes-128-gcm', '2022-blake3-aes-256-gcm', '2022-blake3-chacha20-poly1305', 'wireguard', 'wireguard-psk', 'reality', 'mlkem768', 'mldsa65', 'hex']
      .map((protocol) => ({ protocol, length: 256, quantity: 50 }))
  },
  uuid: {
    alphabet: UUID_ALPHABET,
    result: UuidResult,
    params: ['standard', 'v7', 'ulid', 'numeric', 'alpha', 'alphanumeric', 'urlsafe'].map((format) => ({ format, length: 256, quantity: 50 }))
  },
  seq: {
    alphabet: SEQ_ALPHABET,
    result: SeqResult,
    // Both paddings, and every character a prefix may hold (CONTRACT §14.2), 16 at a time
    params: ['hex', 'base64', 'base64url', 'base32'].flatMap((encoding) => [255, 256].flatMap((byteLength) => [
      { encoding, byteLength, quantity: 50 },
      ...(encoding === 'hex' ? [] : [{ encoding, byteLength, padding: encoding !== 'base64', quantity: 50 }])
    ])).concat(Array.from({ length: Math.ceil(SEQ_PREFIX_CHARACTERS.length / 16) }, (_, index) => ({ encoding: 'base64', byteLength: 2, prefix: SEQ_PREFIX_CHARACTERS.slice(16 * index, 16 * index + 16), quantity: 50 })))
  },
  'short-id': { alphabet: SHORT_ID_ALPHABET, result: ShortIdResult, params: [{ length: 256, quantity: 50 }] },
  pin: { alphabet: PIN_ALPHABET, result: PinResult, params: [{ length: 12, quantity: 50 }, { length: 4, avoidWeak: false, quantity: 50 }] },
  'age-key': { alphabet: AGE_KEY_ALPHABET, result: AgeKeyResult, params: [{ quantity: 50 }] },
  token: { alphabet: TOKEN_ALPHABET, result: TokenResult, params: [{ prefix: 'abcdefghijklmnop', length: 128, quantity: 50 }, { prefix: 'qrstuvwxyz012345', length: 128, quantity: 50 }, { prefix: 'z6789' }] },
  totp: {
    alphabet: TOTP_ALPHABET,
    result: TotpResult,
    // Names with every kind of character the encoding treats apart: unreserved, reserved, JSON's quote and backslash, spaces, non-ASCII, invisible characters
    params: [
      { issuer: 'AZaz09-._~ "\\\u00a0é😀', account: '!#$%&\'()*+,/;=?@[]^`{|}\u0020', algorithm: 'SHA512', digits: 8, period: 300, byteLength: 64, quantity: 50 },
      { account: 'a\u200bb\u00adc\ud83d\ude00', byteLength: 16, quantity: 50 }
    ]
  }
}

// fast-json-stringify's own test for strings that need escaping (asString's slow path)
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const ESCAPED_BY_FAST_JSON_STRINGIFY = /[\u0000-\u001f\u0022\u005c\ud800-\udfff]/

t.test('the closed-alphabet results are exactly the generators above; separators keep the scan', async (t) => {
  for (const [type, { result }] of Object.entries(CLOSED)) t.ok(unescaped(result), `${type}: written without escape scan`)
  t.notOk(unescaped(PassphraseResult), 'passphrase: the separator is the client\'s, scanned')
  t.notOk(unescaped(PhraseResult), 'phrase: the separator is the client\'s, scanned')
  t.notOk(unescaped(SshKeyResult), 'ssh-key: line feeds, and the comment is the client\'s, scanned')
  t.notOk(unescaped(GenerationResult('PlainResult', 'plain')), 'the default keeps the scan')
  t.equal((VpnResult as unknown as Schema).properties.publicKeys?.items?.format, UNESCAPED_FORMAT, 'vpn public keys too')
  t.equal((TokenResult as unknown as Schema).properties.hashes?.items?.format, UNESCAPED_FORMAT, 'token hashes too (lowercase hex)')
})

t.test('every character of every closed alphabet is one JSON writes as it is', async (t) => {
  for (const [type, { alphabet }] of Object.entries(CLOSED)) {
    const unsafe = [...alphabet].filter((character) => JSON.stringify(character) !== `"${character}"` || ESCAPED_BY_FAST_JSON_STRINGIFY.test(character))
    t.same(unsafe, [], `${type}: ${new Set(alphabet).size} characters, none escaped`)
  }
})

t.test('values hold only their alphabet, and the answer is what JSON.stringify writes', async (t) => {
  const app = await build(t)
  for (const [type, { alphabet, params }] of Object.entries(CLOSED)) {
    const allowed = new Set(alphabet)
    for (const parameters of params) {
      for (const response of [await post(app, type, parameters), await app.inject({ method: 'GET', url: `/api/generate/${type}`, headers: { 'x-data': xData(parameters) } })]) {
        t.equal(response.statusCode, 200, `${type} ${JSON.stringify(parameters)}`)
        const body = response.json()
        const characters = [...body.values, ...(body.publicKeys ?? []), ...(body.hashes ?? [])].join('')
        const outside = [...new Set(characters)].filter((character) => !allowed.has(character))
        t.same(outside, [], `${type} ${JSON.stringify(parameters)}: nothing outside the alphabet`)
        t.equal(response.body, JSON.stringify(body), 'byte for byte the standard serialisation')
      }
    }
  }
})

t.test('an alphabet known only per request: password sets with " or \\ take the escaping path, all others the fast one', async (t) => {
  t.equal(PASSWORD_ALPHABET.length, 92, 'letters, digits and 30 punctuation characters: all but " and \\')
  const DEFAULTS = { length: 20, uppercase: true, lowercase: true, numbers: true, symbols: true, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, exclude: '', quantity: 1 }
  // Every symbol alone: the plan writes it verbatim exactly when JSON does, and the fast path's
  // alphabet holds it exactly then
  for (const symbol of PUNCTUATION) {
    const plan = passwordPlan({ ...DEFAULTS, symbolSet: symbol })
    t.equal(plan.verbatim, isJsonVerbatim(symbol), `${symbol}: ${plan.verbatim ? 'fast path' : 'escaped'}`)
    t.equal(plan.verbatim, PASSWORD_ALPHABET.includes(symbol))
  }
  // Excluded, a quote or backslash of the symbolSet no longer counts; with symbols off neither
  t.ok(passwordPlan({ ...DEFAULTS, symbolSet: '"!', exclude: '"' }).verbatim, '" excluded')
  t.ok(passwordPlan({ ...DEFAULTS, symbolSet: '\\', symbols: false }).verbatim, 'symbols off')
  const app = await build(t)
  for (const symbolSet of ['"', '\\', '!"#\\']) {
    const response = await post(app, 'password', { symbolSet, length: 128, minSymbols: 100, quantity: 50 })
    t.equal(response.statusCode, 200)
    t.equal(response.body, JSON.stringify(response.json()), `${JSON.stringify(symbolSet)}: byte for byte the standard serialisation`)
    t.ok(response.json().values.some((value: string) => /["\\]/.test(value)), 'the escaped characters are there')
  }
})

t.test('a generator whose alphabet JSON would escape, or that leaves it out, does not start', async (t) => {
  const definition = {
    type: 'sample',
    name: 'Sample',
    summary: 's',
    description: 'd',
    params: Type.Object({}, { $id: 'SampleParams' }),
    generate: () => ({ values: ['a'], entropyBits: 0 })
  }
  const closed = GenerationResult('SampleResult', 'sample', { closedAlphabet: true })
  const cases = [
    { why: 'a quote in the alphabet', result: closed, alphabet: 'ab"' },
    { why: 'a backslash in the alphabet', result: closed, alphabet: 'ab\\' },
    { why: 'a control character in the alphabet', result: closed, alphabet: 'ab\n' },
    { why: 'a lone surrogate in the alphabet', result: closed, alphabet: 'ab\ud800' },
    { why: 'a closed result without its alphabet', result: closed, alphabet: undefined },
    { why: 'an alphabet for a scanned result', result: GenerationResult('SampleResult', 'sample'), alphabet: 'ab' }
  ]
  for (const { why, result, alphabet } of cases) {
    const app = Fastify()
    t.throws(() => registerGenerator(app, { ...definition, result, ...(alphabet === undefined ? {} : { alphabet }) }), why)
    await app.close()
  }
  t.ok(isJsonVerbatim('AZaz09-_+/=!#$%&()*,.:;<>?@[]^{|}~'), 'printable ASCII without quote and backslash is verbatim')
})
