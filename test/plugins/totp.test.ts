// CONTRACT §2 totp. Every URI is read back by the otpauth package (a maintained parser) to the
// settings asked, is byte for byte what the test's own encoder writes (test/otpauth-uri.ts), and
// gives, from what otpauth read, the codes Debian's `oathtool --totp` computes from the secret.
import t from 'tap'
import fc from 'fast-check'
import { execFileSync } from 'node:child_process'
import { base32nopad } from '@scure/base'
import { generateTotpUris, percentEncode } from '../../plugins/totp.js'
import { LANGUAGES } from '../../src/i18n/index.js'
import { expectedUri, parseUri, percentEncodeBytes, secretOf } from '../otpauth-uri.js'
import { build, get, post } from '../helper.js'

type Params = Parameters<typeof generateTotpUris>[0]
const ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const

/** The parameters AJV would hand the generator: the contract's defaults, then `params`. */
const withDefaults = (params: Partial<Params>): Params =>
  ({ issuer: '', account: 'user', algorithm: 'SHA1', digits: 6, period: 30, byteLength: 20, quantity: 1, ...params })

/** Names the rule allows: no control character, no colon, no lone surrogate. */
const allowed = (text: string) => !/[\p{Cc}:]|\p{Cs}/u.test(text)

// What the encoding treats apart (unreserved, reserved, `%`, spaces, 2-, 3- and 4-byte UTF-8),
// and any code point at all
const nameCharacter = fc.oneof(
  fc.constantFrom(...'AZaz09-._~ !"#$%&\'()*+,/;<=>?@[\\]^`{|}', 'é', 'ж', '中', '☃', '😀', '\u00a0', '\u200b', '\u2028', '\ufeff'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })
)
const name = (minLength: number) => fc.array(nameCharacter, { minLength, maxLength: 64 }).map((parts) => parts.join('')).filter(allowed)
  .filter((text) => [...text].length <= 64)

const settings = fc.record({
  issuer: name(0),
  account: name(1),
  algorithm: fc.constantFrom(...ALGORITHMS),
  digits: fc.constantFrom(6 as const, 8 as const),
  period: fc.integer({ min: 15, max: 300 }),
  byteLength: fc.integer({ min: 16, max: 64 }),
  quantity: fc.integer({ min: 1, max: 5 })
})

/** What is wrong with `uri` for `params`, or undefined: otpauth must read back every setting. */
function problemOf (uri: string, params: Params): string | undefined {
  const secret = secretOf(uri)
  if (uri !== expectedUri(secret, params)) return `not the contract's URI: ${uri}`
  if (base32nopad.decode(secret).length !== params.byteLength) return `the secret is not ${params.byteLength} bytes`
  const parsed = parseUri(uri)
  for (const setting of ['issuer', 'account', 'algorithm', 'digits', 'period'] as const) {
    if (parsed[setting] !== params[setting]) return `otpauth reads ${setting} ${JSON.stringify(parsed[setting])}, not ${JSON.stringify(params[setting])}`
  }
  return parsed.secret === secret ? undefined : `otpauth reads secret ${parsed.secret}, not ${secret}`
}

t.test('generateTotpUris: property: otpauth reads every URI back to the issuer, account, secret, algorithm, digits and period asked', async (t) => {
  fc.assert(fc.property(settings, (params) => {
    const uris = generateTotpUris(params)
    if (uris.length !== params.quantity) return false
    for (const uri of uris) {
      const problem = problemOf(uri, params)
      if (problem !== undefined) throw new Error(problem)
    }
    return true
  }), { numRuns: 500 })
  t.pass('500 runs')
})

t.test('HTTP, POST and GET: every URI of 50 read back by otpauth, secrets all different', async (t) => {
  const app = await build(t)
  const cases: Array<Partial<Params>> = [
    {},
    { issuer: 'Example Co', account: 'alice@example.com' },
    { issuer: 'ACME & Sons / R+D', account: 'bob #2?', algorithm: 'SHA256', digits: 8, period: 60, byteLength: 32 },
    { issuer: '😀'.repeat(64), account: 'ж'.repeat(64), algorithm: 'SHA512', digits: 8, period: 300, byteLength: 64 },
    { account: '%41 100%', byteLength: 16, period: 15 }
  ]
  for (const asked of cases) {
    const params = withDefaults({ ...asked, quantity: 50 })
    for (const send of [post, get]) {
      const response = await send(app, 'totp', { ...asked, quantity: 50 })
      t.equal(response.statusCode, 200)
      const { values } = response.json() as { values: string[] }
      t.equal(values.length, 50)
      t.same(values.map((uri) => problemOf(uri, params)).filter((problem) => problem !== undefined), [], `${JSON.stringify(asked)}: every URI reads back`)
      t.equal(new Set(values.map(secretOf)).size, 50, 'no two secrets alike')
    }
  }
  const [uri] = (await post(app, 'totp', {})).json().values as [string]
  t.match(uri, /^otpauth:\/\/totp\/user\?secret=[A-Z2-7]{32}&algorithm=SHA1&digits=6&period=30$/, 'defaults: account user, no issuer, 20 bytes, SHA1, 6 digits, 30 s')
})

t.test('label and issuer encoding: UTF-8, every byte but A-Z a-z 0-9 - . _ ~ as upper-case %XX, the colon literal', async (t) => {
  // Written out from RFC 3986 and the UTF-8 tables, not computed
  const cases: Array<[string, string]> = [
    [' ', '%20'], ['@', '%40'], ['%', '%25'], ['/', '%2F'], ['?', '%3F'], ['#', '%23'], ['&', '%26'], ['+', '%2B'],
    ['=', '%3D'], [';', '%3B'], [',', '%2C'], ['"', '%22'], ['\\', '%5C'], ['!\'()*', '%21%27%28%29%2A'],
    ['AZaz09-._~', 'AZaz09-._~'],
    ['é', '%C3%A9'], ['ж', '%D0%B6'], ['☃', '%E2%98%83'], ['中', '%E4%B8%AD'], ['😀', '%F0%9F%98%80'], ['\u00a0', '%C2%A0'],
    ['e\u0301', 'e%CC%81'], ['Zürich Bank', 'Z%C3%BCrich%20Bank'], ['a b@c.d', 'a%20b%40c.d']
  ]
  for (const [text, encoded] of cases) {
    t.equal(percentEncode(text), encoded, `${JSON.stringify(text)} → ${encoded}`)
    t.equal(percentEncodeBytes(text), encoded, 'the test\'s own encoder agrees')
    const params = withDefaults({ issuer: `I${text}`, account: `A${text}` })
    const [uri] = generateTotpUris(params) as [string]
    t.ok(uri.startsWith(`otpauth://totp/I${encoded}:A${encoded}?secret=`), `label: ${uri.slice(0, 60)}`)
    t.ok(uri.includes(`&issuer=I${encoded}&algorithm=`), 'issuer parameter')
    t.equal(problemOf(uri, params), undefined, 'otpauth reads issuer and account back')
  }
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }).filter(allowed), (text) => percentEncode(text) === percentEncodeBytes(text)), { numRuns: 2000 })
  t.pass('2000 strings of any code points: the service\'s encoding is the byte-wise one')
})

t.test('no issuer: the label is the account alone and there is no issuer parameter', async (t) => {
  const params = withDefaults({ account: 'a b@c' })
  const [uri] = generateTotpUris(params) as [string]
  t.match(uri, /^otpauth:\/\/totp\/a%20b%40c\?secret=[A-Z2-7]{32}&algorithm=SHA1&digits=6&period=30$/)
  t.notMatch(uri, /issuer=/)
  const parsed = parseUri(uri)
  t.equal(parsed.issuer, '', 'otpauth reads no issuer')
  t.equal(parsed.account, 'a b@c')
})

t.test('a refusal names the field, never the value, in every language', async (t) => {
  const app = await build(t)
  const issuer = 'Canary:Issuer-41f0'
  const account = 'canary\u0007account-9e3c'
  for (const language of LANGUAGES) {
    for (const send of [post, get]) {
      const response = await send(app, 'totp', { issuer, account }, { 'x-language': language })
      t.equal(response.statusCode, 400)
      const body = response.json()
      t.same(body.errors.map((error: { pointer: string, code: string }) => [error.pointer, error.code]),
        [['#/issuer', 'NOT_ALLOWED_VALUE'], ['#/account', 'NOT_ALLOWED_VALUE']], `${language}: both refused`)
      t.match(body.errors[0].detail, /issuer/, `${language}: the detail names the field`)
      for (const part of ['Canary', 'Issuer-41f0', 'account-9e3c', '41f0', '9e3c']) t.notOk(response.body.includes(part), `${language}: ${part} not echoed`)
    }
  }
  // Schema errors echo no value either
  for (const params of [{ issuer: 'x'.repeat(65) + 'Canary' }, { account: ['Canary'] }, { issuer: 'Canary', digits: 7 }]) {
    const response = await post(app, 'totp', params)
    t.equal(response.statusCode, 400)
    t.notOk(response.body.includes('Canary'), `${JSON.stringify(params).slice(0, 40)}: not echoed`)
  }
})

/** Whether Debian's oathtool runs here. */
function hasOathtool (): boolean {
  try {
    execFileSync('oathtool', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** The code `oathtool --totp` computes for a Base32 secret at Unix time `seconds`. */
function oathtool (secret: string, algorithm: string, digits: number, period: number, seconds: number): string {
  return execFileSync('oathtool', [`--totp=${algorithm}`, `--digits=${digits}`, `--time-step-size=${period}s`, '-N', `@${seconds}`, '-b', secret]).toString().trim()
}

// Fixed times: the epoch's first step, RFC 6238's test times, the 32-bit rollover and beyond
const TIMES = [0, 59, 1_111_111_109, 1_234_567_890, 2_000_000_000, 2_147_483_647, 2_147_483_648, 20_000_000_000]

t.test('codes from the URI, as otpauth reads it, are what `oathtool --totp` computes from the secret: SHA1, SHA256, SHA512, 6 and 8 digits', async (t) => {
  if (!hasOathtool()) {
    // CI installs oathtool (.ci/run): there a missing one is a failure, not a skip
    if (process.env.CI === 'true') t.fail('oathtool is missing under CI=true: .ci/run must install oathtool')
    else t.pass('oathtool comparison', { skip: 'oathtool is not installed: apt-get install oathtool to run this check' })
    return
  }
  // oathtool itself, on RFC 6238's SHA1 test vector (secret "12345678901234567890", T = 59)
  t.equal(oathtool(base32nopad.encode(Buffer.from('12345678901234567890')), 'SHA1', 8, 30, 59), '94287082', 'oathtool gives RFC 6238\'s code')

  const app = await build(t)
  let compared = 0
  for (const algorithm of ALGORITHMS) {
    for (const digits of [6, 8] as const) {
      for (const [period, byteLength] of [[30, 20], [15, 16], [60, 32], [300, 64]] as const) {
        const asked = { issuer: 'Example Co', account: 'alice@example.com', algorithm, digits, period, byteLength, quantity: 2 }
        const { values } = (await post(app, 'totp', asked)).json() as { values: string[] }
        for (const uri of values) {
          const { otp, secret } = parseUri(uri)
          const ours = TIMES.map((seconds) => otp.generate({ timestamp: seconds * 1000 }))
          const theirs = TIMES.map((seconds) => oathtool(secret, algorithm, digits, period, seconds))
          t.same(ours, theirs, `${algorithm}, ${digits} digits, ${period} s, ${byteLength} bytes: ${TIMES.length} times`)
          t.ok(ours.every((code) => code.length === digits && /^[0-9]+$/.test(code)), `${digits}-digit codes`)
          compared += TIMES.length
        }
      }
    }
  }
  t.equal(compared, 3 * 2 * 4 * 2 * TIMES.length, `${compared} codes compared`)
})
