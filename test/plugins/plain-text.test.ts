// text/plain answers (CONTRACT §1.2) over HTTP, for every generator and both request forms: one
// value per line when Accept prefers text/plain, JSON otherwise, problem documents for every error
// whatever Accept says, and `Vary: Accept` on every answer of a generator route (GET, HEAD, POST).
import t, { type Test } from 'tap'
import { createPrivateKey, createPublicKey } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { LightMyRequestResponse } from 'fastify'
import { Params, Quantity } from '../../schemas/common.js'
import { plainText, registerGenerator } from '../../src/http/generator-route.js'
import { BODY_LIMIT } from '../../src/server-options.js'
import { build, buildUnready, get, post, GENERATORS, ISO_MILLIS, xData, type Generator } from '../helper.js'

const SYMBOLS = '!#$%&()*+,-./:;<=>?@[]^_{|}~'
const escape = (text: string) => text.replace(/[\\\]^-]/g, '\\$&')

const SSH_FILE = /^-----BEGIN OPENSSH PRIVATE KEY-----\n(?:[A-Za-z0-9+/]{70}\n)*[A-Za-z0-9+/]{1,70}={0,2}\n-----END OPENSSH PRIVATE KEY-----\n$/

/**
 * Parameters asking for several values, and what each value looks like with them (CONTRACT §2);
 * for key pairs, what each public key looks like.
 */
const SHAPES: Record<Generator, { params: Record<string, unknown>, value: RegExp, publicKey?: RegExp }> = {
  password: { params: { length: 12, quantity: 3 }, value: new RegExp(`^[A-Za-z0-9${escape(SYMBOLS)}]{12}$`) },
  passphrase: { params: { words: 4, separator: '.', quantity: 3 }, value: /^[a-z-]+(\.[a-z-]+){3}$/ },
  number: { params: { min: -5, max: 5, quantity: 4 }, value: /^(-[1-5]|[0-5])$/ },
  vpn: { params: { protocol: 'hex', quantity: 2 }, value: /^[0-9a-f]{64}$/ },
  uuid: { params: { format: 'standard', quantity: 3 }, value: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/ },
  phrase: { params: { words: 12, quantity: 2 }, value: /^[a-z]+( [a-z]+){11}$/ },
  seq: { params: { byteLength: 6, encoding: 'base64', quantity: 3 }, value: /^[A-Za-z0-9+/]{8}$/ },
  'short-id': { params: { length: 10, quantity: 5 }, value: /^[0-9a-f]{10}$/ },
  pin: { params: { length: 5, quantity: 4 }, value: /^[0-9]{5}$/ },
  // A comment JSON escapes, on a value of several lines
  'ssh-key': { params: { comment: 'ci "deploy" \\ key', quantity: 3 }, value: SSH_FILE, publicKey: /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]{43} ci "deploy" \\ key$/ },
  'age-key': { params: { quantity: 3 }, value: /^AGE-SECRET-KEY-1[0-9A-Z]{58}$/, publicKey: /^age1[0-9a-z]{58}$/ },
  token: { params: { prefix: 'ab1', length: 16, quantity: 3 }, value: /^ab1_[0-9A-Za-z]{22}$/ },
  totp: {
    params: { issuer: 'A b', account: 'c@d', quantity: 3 },
    value: /^otpauth:\/\/totp\/A%20b:c%40d\?secret=[A-Z2-7]{32}&issuer=A%20b&algorithm=SHA1&digits=6&period=30$/
  },
  'signing-key': { params: { algorithm: 'ES256', format: 'vapid', quantity: 3 }, value: /^[A-Za-z0-9_-]{43}$/, publicKey: /^[A-Za-z0-9_-]{87}$/ }
}

/** A pattern's source without its anchors, to be put inside another. */
const inner = (pattern: RegExp) => pattern.source.slice(1, -1)

const TEXT = 'text/plain; charset=utf-8'
const PROBLEM = 'application/problem+json; charset=utf-8'

/** The lines of a text/plain body, each of which must have ended in `\n`. */
function lines (t: Test, body: string): string[] {
  t.ok(body.endsWith('\n'), 'the last line ends in \\n')
  t.notMatch(body, /\r/, 'no carriage return')
  return body.slice(0, -1).split('\n')
}

function isText (t: Test, response: LightMyRequestResponse, label: string): void {
  t.equal(response.statusCode, 200, `${label}: 200`)
  t.equal(response.headers['content-type'], TEXT, `${label}: text/plain, UTF-8`)
  t.equal(response.headers['cache-control'], 'no-store', `${label}: no-store`)
  t.match(response.headers.vary, /(^|,\s*)accept(\s*,|$)/i, `${label}: Vary names Accept`)
}

function isProblem (t: Test, response: LightMyRequestResponse, status: number, code: string, label: string): void {
  t.equal(response.statusCode, status, `${label}: ${status}`)
  t.equal(response.headers['content-type'], PROBLEM, `${label}: problem+json whatever Accept says`)
  t.equal(response.headers['cache-control'], 'no-store', `${label}: no-store`)
  t.equal(response.json().code, code, `${label}: ${code}`)
}

t.test('every generator, POST and GET: text/plain holds exactly `quantity` lines shaped as the JSON values', async (t) => {
  const app = await build(t)
  for (const name of GENERATORS) {
    const shape = SHAPES[name]
    if (shape === undefined) {
      t.fail(`${name}: add its parameters and value shape to SHAPES`)
      continue
    }
    const { params, value, publicKey } = shape
    const quantity = params.quantity as number
    for (const [form, send] of [['POST', post], ['GET', get]] as const) {
      const label = `${form} ${name}`
      const text = await send(app, name, params, { accept: 'text/plain' })
      isText(t, text, label)
      if (publicKey === undefined) {
        const values = lines(t, text.body)
        t.equal(values.length, quantity, `${label}: ${quantity} lines`)
        for (const line of values) t.match(line, value, `${label}: ${JSON.stringify(line)} has the shape of a value`)
      } else {
        // `value publicKey` lines; a value of several lines ends in its line feed, and its public key has a line of its own
        const pair = value.source.endsWith('\\n$') ? `${inner(value)}${inner(publicKey)}` : `${inner(value)} ${inner(publicKey)}`
        lines(t, text.body)
        t.match(text.body, new RegExp(`^(?:${pair}\n){${quantity}}$`), `${label}: ${quantity} key pairs shaped as the values and public keys`)
      }
      t.equal(Buffer.byteLength(text.body), Number(text.headers['content-length']), `${label}: Content-Length`)

      const json = await send(app, name, params)
      t.equal(json.statusCode, 200)
      t.equal(json.headers['content-type'], 'application/json; charset=utf-8', `${label} without Accept: JSON`)
      t.equal(json.headers.vary, 'Accept', `${label} without Accept: Vary: Accept too`)
      const body = json.json()
      // Tokens' hashes are in the JSON only: text/plain holds the values alone
      const fields = ['type', 'values', 'entropyBits', 'generatedAt', ...(publicKey === undefined ? [] : ['publicKeys']), ...(name === 'token' ? ['hashes'] : [])]
      t.same(Object.keys(body), fields, `${label}: the JSON result's fields`)
      t.equal(body.type, name)
      t.equal(body.values.length, quantity)
      for (const jsonValue of body.values) t.match(jsonValue, value, `${label}: the JSON values have the same shape`)
      if (publicKey !== undefined) {
        t.equal(body.publicKeys.length, quantity)
        for (const jsonKey of body.publicKeys) t.match(jsonKey, publicKey, `${label}: the JSON public keys have the same shape`)
      }
      t.match(body.generatedAt, ISO_MILLIS)
    }
  }
})

/** The X25519 public key of a raw 32-byte private key, as unpadded base64url (node:crypto). */
function publicKeyOf (privateKey: Buffer): string {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), privateKey])
  return createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })).export({ format: 'jwk' }).x as string
}

t.test('vpn key pairs: each line is a private key, one space, and its own public key', async (t) => {
  const app = await build(t)
  const encodings = { wireguard: 'base64', reality: 'base64url' } as const
  for (const [protocol, encoding] of Object.entries(encodings)) {
    for (const send of [post, get]) {
      const text = await send(app, 'vpn', { protocol, quantity: 3 }, { accept: 'text/plain' })
      isText(t, text, protocol)
      const pairs = lines(t, text.body)
      t.equal(pairs.length, 3, `${protocol}: 3 lines`)
      for (const line of pairs) {
        const [value, publicKey, ...rest] = line.split(' ')
        t.equal(rest.length, 0, `${protocol}: two fields`)
        const derived = publicKeyOf(Buffer.from(value!, encoding))
        t.equal(Buffer.from(publicKey!, encoding).toString('base64url'), derived, `${protocol}: the public key on the line is its value's`)
      }
    }
  }
})

t.test('number: the text lines are the decimal values, in range', async (t) => {
  const app = await build(t)
  const text = await post(app, 'number', { min: 10, max: 12, unique: true, quantity: 3 }, { accept: 'text/plain' })
  isText(t, text, 'number')
  t.same(lines(t, text.body).sort(), ['10', '11', '12'], 'every value once: the text is not quoted or reordered into JSON')
})

t.test('Accept forms over HTTP: negotiation wired as src/http/result-format.ts decides', async (t) => {
  const app = await build(t)
  const text: Array<string | string[]> = [
    'text/plain', 'text/*', 'TEXT/PLAIN', 'text/plain; charset=utf-8', 'application/json;q=0.5, text/plain',
    '*/*;q=0.1, text/plain', 'application/*;q=0.2, text/plain;q=0.3', 'application/*;q=0.5, */*',
    // Two Accept fields are one list (RFC 9110 §5.3)
    ['application/json;q=0.1', 'text/plain']
  ]
  const json: Array<string | string[]> = [
    '*/*', 'application/json', 'text/plain, application/json', 'application/json, text/plain', 'text/plain, */*',
    'text/plain;q=0.5, application/json', 'text/plain;q=0', 'text/plain;q=high', 'text/html', 'garbage', '',
    'application/problem+json', `${'image/png;q=0.5, '.repeat(1000)}text/plain;q=0.4, application/json;q=0.5`
  ]
  for (const accept of text) {
    const response = await post(app, 'short-id', {}, { accept } as unknown as Record<string, string>)
    isText(t, response, `Accept: ${String(accept)}`)
    t.match(response.body, /^[0-9a-f]{8}\n$/)
  }
  for (const accept of json) {
    const response = await get(app, 'short-id', {}, { accept } as unknown as Record<string, string>)
    t.equal(response.statusCode, 200)
    t.equal(response.headers['content-type'], 'application/json; charset=utf-8', `Accept: ${accept.slice(0, 60)}: JSON`)
    t.equal(response.headers.vary, 'Accept')
    t.match(response.json().values[0], /^[0-9a-f]{8}$/)
  }
})

t.test('errors are problem documents whatever Accept says', async (t) => {
  const app = await build(t)
  for (const accept of ['text/plain', 'text/*', 'application/json;q=0, text/plain', '*/*', 'text/plain;q=0.9, application/problem+json;q=0.1']) {
    const headers = { accept }
    for (const name of GENERATORS) {
      const url = `/api/generate/${name}`
      const label = `${name}, Accept ${accept}`
      // Generator routes: Vary: Accept on these too (every answer of a GET, HEAD or POST there)
      const answers: Array<[LightMyRequestResponse, number, string, string]> = [
        [await post(app, name, { quantity: 0 }, headers), 400, 'VALIDATION_FAILED', 'POST invalid parameter'],
        [await get(app, name, { quantity: 51 }, headers), 400, 'VALIDATION_FAILED', 'GET invalid parameter'],
        [await post(app, name, { lenght: 8 }, headers), 400, 'VALIDATION_FAILED', 'unknown field'],
        [await app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: '[' }), 400, 'BODY_INVALID', 'body not JSON'],
        [await app.inject({ method: 'GET', url, headers: { ...headers, 'x-data': '!' } }), 400, 'X_DATA_INVALID', 'X-Data not Base64'],
        [await app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'length=8' }), 415, 'UNSUPPORTED_MEDIA_TYPE', 'text/plain body'],
        [await app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: `"${'x'.repeat(BODY_LIMIT)}"` }), 413, 'PAYLOAD_TOO_LARGE', 'body too large']
      ]
      for (const [response, status, code, what] of answers) {
        isProblem(t, response, status, code, `${label}: ${what}`)
        t.equal(response.headers.vary, 'Accept', `${label}: ${what}: Vary: Accept, as every answer of the route`)
      }

      // Not answers of a generator route: 405 (a method no route takes) and 404 (no such route)
      const put = await app.inject({ method: 'PUT', url, headers })
      isProblem(t, put, 405, 'METHOD_NOT_ALLOWED', `${label}: PUT`)
      t.equal(put.headers.vary, undefined, `${label}: PUT: no Vary (no representation to negotiate)`)
    }
    const missing = await app.inject({ method: 'GET', url: '/api/generate/nope', headers })
    isProblem(t, missing, 404, 'NOT_FOUND', `unknown generator, Accept ${accept}`)
    t.equal(missing.headers.vary, undefined, 'no route, no Vary')
  }
})

t.test('HEAD: the headers a GET would get, no body', async (t) => {
  const app = await build(t)
  const params = { length: 8, quantity: 3 }
  const head = await app.inject({ method: 'HEAD', url: '/api/generate/short-id', headers: { accept: 'text/plain', 'x-data': xData(params) } })
  isText(t, head, 'HEAD text')
  t.equal(head.body, '', 'no body')
  t.equal(head.headers['content-length'], String(3 * 9), 'the length of the three lines a GET would send')

  const headJson = await app.inject({ method: 'HEAD', url: '/api/generate/short-id', headers: { 'x-data': xData(params) } })
  t.equal(headJson.statusCode, 200)
  t.equal(headJson.headers['content-type'], 'application/json; charset=utf-8', 'HEAD without Accept: JSON headers')
  t.equal(headJson.headers.vary, 'Accept')
  t.equal(headJson.body, '')

  const bad = await app.inject({ method: 'HEAD', url: '/api/generate/short-id', headers: { accept: 'text/plain', 'x-data': xData({ length: 1 }) } })
  t.equal(bad.statusCode, 400, 'HEAD validates X-Data as GET does')
  t.equal(bad.headers['content-type'], PROBLEM)
  t.equal(bad.headers.vary, 'Accept')
  t.equal(bad.body, '')

  for (const name of GENERATORS) {
    const response = await app.inject({ method: 'HEAD', url: `/api/generate/${name}`, headers: { accept: 'text/plain' } })
    isText(t, response, `HEAD ${name}`)
    t.equal(response.body, '')
  }
})

t.test('OPTIONS stays a bare 204 with Allow', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'OPTIONS', url: '/api/generate/password', headers: { accept: 'text/plain' } })
  t.equal(response.statusCode, 204)
  t.equal(response.body, '')
  t.equal(response.headers['content-type'], undefined)
})

// Key pairs, odd characters and a failing generator, through the real route code: a generator
// registered by this test on the production app
t.test('a test generator: key pair lines, values sent verbatim, a throw is a 500 problem', async (t) => {
  const app = await buildUnready(t)
  const PairsParams = Params('TestPairsParams', { quantity: Quantity })
  const PairsResult = Type.Object({
    type: Type.Literal('test-pairs'),
    values: Type.Array(Type.String()),
    entropyBits: Type.Number(),
    publicKeys: Type.Array(Type.String()),
    generatedAt: Type.String()
  }, { $id: 'TestPairsResult', additionalProperties: false })
  const VALUES = ['aB3+/=', 'ключ "ü" \\ é', 'z']
  const KEYS = ['PUB1', 'pub ✓', 'P3']
  registerGenerator(app, {
    type: 'test-pairs',
    name: 'TestPairs',
    summary: 'test',
    description: 'test',
    params: PairsParams,
    result: PairsResult,
    generate: ({ quantity }) => ({ values: VALUES.slice(0, quantity), publicKeys: KEYS.slice(0, quantity), entropyBits: 1.5 })
  })
  const FailingParams = Params('TestFailingParams', { quantity: Quantity })
  registerGenerator(app, {
    type: 'test-failing',
    name: 'TestFailing',
    summary: 'test',
    description: 'test',
    params: FailingParams,
    result: Type.Object({ type: Type.Literal('test-failing') }, { $id: 'TestFailingResult' }),
    generate: () => { throw new Error('boom') }
  })
  await app.ready()

  for (const send of [post, get]) {
    const text = await send(app, 'test-pairs', { quantity: 3 }, { accept: 'text/plain' })
    isText(t, text, 'pairs')
    t.equal(text.body, 'aB3+/= PUB1\nключ "ü" \\ é pub ✓\nz P3\n', 'value, one space, public key; nothing escaped')
    const json = await send(app, 'test-pairs', { quantity: 2 })
    t.match(json.json(), { type: 'test-pairs', values: VALUES.slice(0, 2), publicKeys: KEYS.slice(0, 2), entropyBits: 1.5 })

    const failed = await send(app, 'test-failing', {}, { accept: 'text/plain' })
    isProblem(t, failed, 500, 'INTERNAL_ERROR', 'a generator that throws')
    t.equal(failed.headers.vary, 'Accept')
    t.notMatch(failed.body, 'boom')
  }
})

t.test('plainText: one line per value, `value publicKey` for key pairs', async (t) => {
  t.equal(plainText({ values: ['a'], entropyBits: 0 }), 'a\n')
  t.equal(plainText({ values: ['a', 'b c'], entropyBits: 0 }), 'a\nb c\n')
  t.equal(plainText({ values: ['a', 'b'], publicKeys: ['A', 'B'], entropyBits: 0 }), 'a A\nb B\n')
  t.equal(plainText({ values: [], entropyBits: 0 }), '')
  // CONTRACT §1.2: a value of several lines as it is, its public key on a line of its own
  t.equal(plainText({ values: ['x\ny\n', 'z\n'], publicKeys: ['X', 'Z'], entropyBits: 0 }), 'x\ny\nX\nz\nZ\n')
  t.equal(plainText({ values: ['x\ny\n', 'b'], publicKeys: ['X', 'B'], entropyBits: 0 }), 'x\ny\nX\nb B\n')
})
