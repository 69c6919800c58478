// CONTRACT §9 with access keys on, the Authorization header fuzzed: over a real socket (what
// inject would normalise: 100 KB, raw non-ASCII bytes, control characters, many headers) and as
// arbitrary strings through inject. Never a 5xx, never a hang (each exchange bounded), every
// answer a problem document or the key's 200; the service answers afterwards.
import t from 'tap'
import fc from 'fast-check'
import { createHash } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { build, rawRequest } from '../helper.js'

const KEY = 'rg_FuzzKey7b2e9d41c0a5f3e8'
const ENV = { API_KEY_HASHES: createHash('sha256').update(KEY).digest('hex') }
const INJECT_TIMEOUT_MS = 5000

t.test('Authorization over a real socket: odd, huge, non-ASCII, repeated', async (t) => {
  const app = await build(t, ENV)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  const send = async (headerLines: Buffer[]): Promise<{ status: number, text: string }> => {
    const head = Buffer.concat([
      Buffer.from('POST /api/generate/password HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n'),
      ...headerLines.map((line) => Buffer.concat([line, Buffer.from('\r\n')])),
      Buffer.from('\r\n{}')
    ])
    // rawRequest rejects after 5 s without an answer: a hang fails the test
    const text = await rawRequest(port, head.toString('latin1'))
    return { status: Number(/^HTTP\/1\.1 ([0-9]{3})/.exec(text)?.[1]), text }
  }
  const line = (value: string | Buffer) => Buffer.concat([Buffer.from('Authorization: '), typeof value === 'string' ? Buffer.from(value, 'latin1') : value])
  const cases: Array<[string, Buffer[], number[]]> = [
    ['no header', [], [401]],
    ['empty', [line('')], [401]],
    ['Bearer alone', [line('Bearer')], [401]],
    ['Bearer and spaces', [line('Bearer    ')], [401]],
    ['wrong scheme', [line(`Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`)], [401]],
    ['scheme only, no space', [line(`Bearer${KEY}`)], [401]],
    ['digest as key', [line(`Bearer ${ENV.API_KEY_HASHES}`)], [401]],
    ['key too short', [line('Bearer abcdefghijklmno')], [401]],
    ['key too long', [line(`Bearer ${'k'.repeat(257)}`)], [401]],
    ['60 KB', [line(`Bearer ${'A'.repeat(60_000)}`)], [401]],
    ['100 KB: over the header limit', [line(`Bearer ${'A'.repeat(100_000)}`)], [431]],
    ['UTF-8 bytes', [line(Buffer.from(`Bearer ${KEY}é☃`, 'utf8'))], [401]],
    ['raw 0x80-0xff bytes', [line(Buffer.concat([Buffer.from('Bearer '), Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i))]))], [401]],
    ['NUL and control bytes', [line(Buffer.from(`Bearer ${KEY}\u0000\u0007`, 'latin1'))], [400]],
    ['100 Authorization headers, all wrong', Array.from({ length: 100 }, (_, i) => line(`Bearer wrong-key-number-${i}-padding`)), [401]],
    // Node keeps the first Authorization of a request and drops the repeats (RFC 9110 allows one)
    ['100 Authorization headers, the key first', [line(`Bearer ${KEY}`), ...Array.from({ length: 99 }, (_, i) => line(`Bearer wrong-key-number-${i}-padding`))], [200]],
    ['the key after a wrong one', [line('Bearer wrong-key-number-x-padding'), line(`Bearer ${KEY}`)], [401]],
    ['obsolete line folding', [line('Bearer'), Buffer.from(` ${KEY}`)], [400]],
    ['the key', [line(`Bearer ${KEY}`)], [200]]
  ]
  for (const [name, headers, allowed] of cases) {
    const { status, text } = await send(headers)
    t.ok(allowed.includes(status), `${name}: ${status}`)
    t.ok(status < 500, `${name}: no 5xx`)
    if (status !== 200) t.match(text, /\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/i, `${name}: a problem document`)
    if (status === 401) t.match(text, /\r\nWWW-Authenticate: Bearer realm="randgen"/i, `${name}: the challenge`)
    t.notOk(text.includes(KEY), `${name}: the key is not echoed`)
  }
  t.equal((await send([line(`Bearer ${KEY}`)])).status, 200, 'still answers')
})

t.test('Authorization as arbitrary strings through inject: 401 unless it is the key', async (t) => {
  const app = await build(t, ENV)
  const header = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 400 }),
    fc.string({ unit: 'grapheme-ascii', maxLength: 300 }).map((s) => `Bearer ${s}`),
    fc.constantFrom('bearer', 'Bearer', 'BEARER', 'Basic', 'Token', '').chain((scheme) =>
      fc.string({ minLength: 0, maxLength: 300 }).map((s) => `${scheme} ${s}`)),
    fc.string({ unit: 'grapheme-ascii', minLength: 16, maxLength: 256 }).filter((s) => !s.includes(' ')).map((s) => `Bearer ${s}`)
  )
  const statuses = new Map<number, number>()
  const result = await fc.check(fc.asyncProperty(header, fc.constantFrom('POST', 'GET', 'HEAD'), async (authorization, method) => {
    const response = await Promise.race([
      app.inject({ method, url: '/api/generate/short-id', headers: { authorization } }),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('hang')), INJECT_TIMEOUT_MS).unref())
    ])
    statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
    if (response.statusCode !== 401) return false
    if (method !== 'HEAD' && response.json().code !== 'UNAUTHORIZED') return false
    return /^Bearer realm="randgen"(, error="invalid_token")?$/.test(String(response.headers['www-authenticate']))
  }), { numRuns: 3000 })
  t.notOk(result.failed, result.failed ? String(fc.defaultReportMessage(result)) : `${result.numRuns} cases: ${JSON.stringify(Object.fromEntries(statuses))}`)
  t.equal((await app.inject({ method: 'GET', url: '/api/generate/short-id', headers: { authorization: `Bearer ${KEY}` } })).statusCode, 200, 'still answers')
})
