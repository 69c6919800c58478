// CONTRACT §4 and §1.1: every error path gives one problem document format.
import t, { type Test } from 'tap'
import type { Socket } from 'node:net'
import Fastify, { type LightMyRequestResponse } from 'fastify'
import errors from '../../../plugins/errors.js'
import security from '../../../plugins/security.js'
import { loadConfig } from '../../../src/ops/config.js'
import { serverOptions } from '../../../src/server-options.js'
import { clientErrorHandler, localizeFieldProblems, ProblemError, validationProblem, problemDocument } from '../../../src/http/errors.js'
import { SECURITY_HEADERS } from '../../../src/http/security-headers.js'
import { build, buildUnready, GENERATORS, post, rawRequest, xData } from '../../helper.js'

const GENERATOR_ALLOW = 'GET, HEAD, OPTIONS, POST'

function isProblem (t: Test, response: LightMyRequestResponse, status: number, code: string, language = 'en'): any {
  t.equal(response.statusCode, status, `status ${status}`)
  t.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.equal(response.headers['cache-control'], 'no-store')
  t.equal(response.headers['content-language'], language)
  if (response.body === '') return undefined
  const body = response.json()
  t.equal(body.status, status)
  t.equal(body.code, code)
  t.type(body.title, 'string')
  t.type(body.detail, 'string')
  return body
}

const app = await build(t)

t.test('404 for unknown routes', async (t) => {
  // GET / is the page (CONTRACT §8): /index.html is not
  for (const [method, url] of [['GET', '/index.html'], ['GET', '/api/generate/foo'], ['POST', '/api/generate/foo'], ['GET', '/api/health/x'], ['DELETE', '/nothing'], ['OPTIONS', '/nope']] as const) {
    const response = await app.inject({ method, url })
    const body = isProblem(t, response, 404, 'NOT_FOUND')
    t.same(body, { title: 'Not found', status: 404, code: 'NOT_FOUND', detail: `There is no route ${method} ${url}.` })
  }
  // The query string never appears in the answer
  const withQuery = await app.inject({ method: 'GET', url: '/nope?secret=1' })
  t.equal(isProblem(t, withQuery, 404, 'NOT_FOUND').detail, 'There is no route GET /nope.')
  // Odd paths: route-pattern syntax, broken percent-encoding
  for (const url of ['/a:b', '/x*', '/(x)', '/nope%', '/nope%zz', '/%ff', '/api/%E0%A4%A', '/api/generate/password%', '/api%2Fgenerate']) {
    for (const method of ['GET', 'PUT'] as const) {
      const body = isProblem(t, await app.inject({ method, url }), 404, 'NOT_FOUND')
      t.equal(body.detail, `There is no route ${method} ${url}.`)
    }
  }
  // A percent-encoded path that names a route is that route
  t.equal((await app.inject({ method: 'GET', url: '/api/generate/pass%77ord' })).statusCode, 200)
  const encoded = await app.inject({ method: 'PUT', url: '/api/generate/pass%77ord' })
  isProblem(t, encoded, 405, 'METHOD_NOT_ALLOWED')
  t.equal(encoded.headers.allow, GENERATOR_ALLOW)
  const head = await app.inject({ method: 'HEAD', url: '/nope' })
  isProblem(t, head, 404, 'NOT_FOUND')
})

t.test('405 with Allow on generator paths and /api/health', async (t) => {
  for (const type of GENERATORS) {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'TRACE'] as const) {
      const response = await app.inject({ method, url: `/api/generate/${type}?x=1` })
      const body = isProblem(t, response, 405, 'METHOD_NOT_ALLOWED')
      t.equal(response.headers.allow, GENERATOR_ALLOW, `${method} ${type}`)
      t.equal(body.detail, `Method ${method} is not allowed here. Allowed: ${GENERATOR_ALLOW}.`)
    }
  }
  for (const method of ['POST', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'] as const) {
    const response = await app.inject({ method, url: '/api/health' })
    isProblem(t, response, 405, 'METHOD_NOT_ALLOWED')
    t.equal(response.headers.allow, 'GET, HEAD', `${method} /api/health`)
  }
})

t.test('a body sent to a path or method that does not exist: 404/405, not a body error', async (t) => {
  const json = { 'content-type': 'application/json' }
  isProblem(t, await app.inject({ method: 'POST', url: '/nope', headers: json, payload: '{' }), 404, 'NOT_FOUND')
  isProblem(t, await app.inject({ method: 'POST', url: '/nope', headers: { 'content-type': 'text/plain' }, payload: 'x' }), 404, 'NOT_FOUND')
  const put = await app.inject({ method: 'PUT', url: '/api/generate/password', headers: json, payload: '{' })
  isProblem(t, put, 405, 'METHOD_NOT_ALLOWED')
  t.equal(put.headers.allow, GENERATOR_ALLOW)
  const patch = await app.inject({ method: 'PATCH', url: '/api/generate/uuid', headers: { 'content-type': 'text/plain' }, payload: 'x' })
  isProblem(t, patch, 405, 'METHOD_NOT_ALLOWED')
})

t.test('OPTIONS and HEAD on generator paths', async (t) => {
  for (const type of GENERATORS) {
    const options = await app.inject({ method: 'OPTIONS', url: `/api/generate/${type}` })
    t.equal(options.statusCode, 204)
    t.equal(options.headers.allow, GENERATOR_ALLOW)
    t.equal(options.headers['cache-control'], 'no-store')
    t.equal(options.body, '')
    const head = await app.inject({ method: 'HEAD', url: `/api/generate/${type}`, headers: { 'x-data': xData({ quantity: 2 }) } })
    t.equal(head.statusCode, 200)
    t.equal(head.headers['content-type'], 'application/json; charset=utf-8')
    t.equal(head.headers['cache-control'], 'no-store')
    t.equal(head.body, '')
  }
})

t.test('413 above 64 KiB; exactly 65,536 bytes is accepted', async (t) => {
  const padded = (size: number) => '{"length":8' + ' '.repeat(size - 12) + '}'
  t.equal(Buffer.byteLength(padded(65_536)), 65_536)
  const ok = await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'content-type': 'application/json' }, payload: padded(65_536) })
  t.equal(ok.statusCode, 200)
  t.equal(ok.json().values[0].length, 8)
  const big = await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'content-type': 'application/json' }, payload: padded(65_537) })
  const body = isProblem(t, big, 413, 'PAYLOAD_TOO_LARGE')
  t.same(body, { title: 'Request body too large', status: 413, code: 'PAYLOAD_TOO_LARGE', detail: 'The request body is larger than 65536 bytes.' })
})

t.test('415 for a body that is not application/json', async (t) => {
  const detail = 'The request body must be sent as application/json.'
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/problem+json', '']) {
    const response = await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'content-type': contentType }, payload: '{"length":8}' })
    t.equal(isProblem(t, response, 415, 'UNSUPPORTED_MEDIA_TYPE').detail, detail, contentType)
  }
  // No Content-Type at all, with a body
  const none = await app.inject({ method: 'POST', url: '/api/generate/password', payload: '{"length":8}' })
  isProblem(t, none, 415, 'UNSUPPORTED_MEDIA_TYPE')
})

t.test('empty POST body means {} (with or without application/json); charset accepted', async (t) => {
  // An empty body of another type is no body either: only a non-empty one is 415
  for (const headers of [{}, { 'content-type': 'application/json' }, { 'content-type': 'application/json; charset=utf-8' },
    { 'content-type': 'text/plain' }, { 'content-type': 'text/plain', 'content-length': '0' }]) {
    const response = await app.inject({ method: 'POST', url: '/api/generate/password', headers })
    t.equal(response.statusCode, 200, JSON.stringify(headers))
    t.equal(response.json().values[0].length, 20, 'defaults')
  }
  for (const contentType of ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON']) {
    const response = await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'content-type': contentType }, payload: '{"length":7}' })
    t.equal(response.statusCode, 200, contentType)
    t.equal(response.json().values[0].length, 7)
  }
})

t.test('BODY_INVALID: not JSON, or not an object', async (t) => {
  const notJson = 'The request body is not valid JSON.'
  const notObject = 'The request body must be a JSON object, such as {"length": 32}.'
  for (const [payload, detail] of [['{', notJson], ['length=8', notJson], ['{"a":1}}', notJson], ['{"__proto__":{"x":1}}', notJson],
    ['[]', notObject], ['[{"length":8}]', notObject], ['"x"', notObject], ['null', notObject], ['42', notObject], ['true', notObject]]) {
    const response = await app.inject({ method: 'POST', url: '/api/generate/number', headers: { 'content-type': 'application/json' }, payload })
    t.same(isProblem(t, response, 400, 'BODY_INVALID'), { title: 'Invalid request body', status: 400, code: 'BODY_INVALID', detail }, String(payload))
  }
  // A Content-Length that does not match the body
  const short = await app.inject({ method: 'POST', url: '/api/generate/number', headers: { 'content-type': 'application/json', 'content-length': '3' }, payload: '{"min":1}' })
  isProblem(t, short, 400, 'BODY_INVALID')
})

t.test('the query string is ignored on GET and on POST', async (t) => {
  const viaGet = await app.inject({ method: 'GET', url: '/api/generate/password?length=6&lenght=1' })
  t.equal(viaGet.statusCode, 200)
  t.equal(viaGet.json().values[0].length, 20)
  const withXData = await app.inject({ method: 'GET', url: '/api/generate/password?length=6', headers: { 'x-data': xData({ length: 9 }) } })
  t.equal(withXData.json().values[0].length, 9)
  const viaPost = await app.inject({ method: 'POST', url: '/api/generate/password?length=6&quantity=x', headers: { 'content-type': 'application/json' }, payload: '{}' })
  t.equal(viaPost.statusCode, 200)
  t.equal(viaPost.json().values[0].length, 20)
  // POST reads only the body: X-Data is ignored
  const both = await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'content-type': 'application/json', 'x-data': xData({ length: 6 }) }, payload: '{"length":10}' })
  t.equal(both.json().values[0].length, 10)
  const bad = await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'x-data': '!!!' } })
  t.equal(bad.statusCode, 200, 'a broken X-Data on POST is not read')
})

t.test('VALIDATION_FAILED shape', async (t) => {
  const response = await post(app, 'password', { length: 200 })
  t.same(isProblem(t, response, 400, 'VALIDATION_FAILED'), {
    title: 'Invalid parameters',
    status: 400,
    code: 'VALIDATION_FAILED',
    detail: '“length” must be between 6 and 128.',
    errors: [{ pointer: '#/length', code: 'OUT_OF_RANGE', detail: '“length” must be between 6 and 128.' }]
  })
})

t.test('500 INTERNAL_ERROR without internals; the next request succeeds', async (t) => {
  const app = await buildUnready(t)
  app.get('/test/throws', async () => {
    const error = new Error('secret internal detail /etc/shadow')
    throw error
  })
  // Errors of other plugins keep a client status when they have one, else they are a 500
  const withStatus = (statusCode: number) => async () => { throw Object.assign(new Error('internal text'), { statusCode }) }
  app.get('/test/404', withStatus(404))
  app.get('/test/418', withStatus(418))
  app.get('/test/503', withStatus(503))
  await app.ready()

  const response = await app.inject({ method: 'GET', url: '/test/throws', headers: { 'x-language': 'fr' } })
  const body = isProblem(t, response, 500, 'INTERNAL_ERROR', 'fr')
  t.same(Object.keys(body).sort(), ['code', 'detail', 'status', 'title'])
  t.notMatch(response.body, /secret|shadow|stack|at |Error:/)
  t.equal(body.title, 'Erreur interne du serveur')

  // A plugin's 404 names the request like the router's does
  t.equal(isProblem(t, await app.inject({ method: 'GET', url: '/test/404' }), 404, 'NOT_FOUND').detail, 'There is no route GET /test/404.')
  const teapot = await app.inject({ method: 'GET', url: '/test/418' })
  t.same(isProblem(t, teapot, 418, 'BAD_REQUEST'), { title: 'Bad request', status: 418, code: 'BAD_REQUEST', detail: 'The request could not be parsed.' })
  const unavailable = await app.inject({ method: 'GET', url: '/test/503' })
  isProblem(t, unavailable, 500, 'INTERNAL_ERROR')
  t.notMatch(unavailable.body, /internal text/)

  const next = await post(app, 'uuid', {})
  t.equal(next.statusCode, 200, 'the app still serves')
})

t.test('500 from a generator whose randomness fails (mocked), then recovery', async (t) => {
  let failures = 1
  const random = await import('../../../src/random/csprng.js')
  const { default: seq } = await t.mockImport<typeof import('../../../plugins/seq.js')>('../../../plugins/seq.js', {
    '../../../src/random/csprng.js': {
      ...random,
      randomChunks: (...args: Parameters<typeof random.randomChunks>) => {
        if (failures-- > 0) throw new Error('entropy source failed: /dev/urandom')
        return random.randomChunks(...args)
      }
    }
  })
  // The production options and error handler around the mocked generator
  const app = Fastify(serverOptions(loadConfig({ LOG_LEVEL: 'silent' })))
  // security sets Cache-Control: no-store on every response, as in production
  await app.register(security)
  await app.register(errors)
  await app.register(seq)
  t.teardown(() => app.close())
  const failed = await post(app, 'seq', {}, { 'x-language': 'es' })
  isProblem(t, failed, 500, 'INTERNAL_ERROR', 'es')
  t.notMatch(failed.body, /entropy|urandom/)
  t.equal(failures, 0, 'the mocked draw was used')
  const next = await post(app, 'seq', {})
  t.equal(next.statusCode, 200)
  t.match(next.json().values[0], /^[0-9a-f]{64}$/)
})

t.test('problem document builders', async (t) => {
  t.same(validationProblem('en', []), { title: 'Invalid parameters', status: 400, code: 'VALIDATION_FAILED', detail: '', errors: [] })
  // Nested pointers name the field the way a user writes it; RFC 6901 escapes are undone
  t.same(localizeFieldProblems('en', [
    { pointer: '#/a/b', code: 'UNKNOWN_FIELD' },
    { pointer: '#/exclusions/12', code: 'NOT_AN_INTEGER' },
    { pointer: '#/a~1b~0c', code: 'UNKNOWN_FIELD' }
  ]).map((e) => e.detail), ['“a.b” is not a known parameter.', '“exclusions[12]” must be a base-10 integer, such as "7" or "-12".', '“a/b~c” is not a known parameter.'])
  t.same(problemDocument('de', new ProblemError(400, 'BAD_REQUEST')), { title: 'Fehlerhafte Anfrage', status: 400, code: 'BAD_REQUEST', detail: 'Die Anfrage konnte nicht gelesen werden.' })
})

t.test('password rule problems: localized with their arguments, the field named from the pointer', async (t) => {
  for (const language of ['en', 'ru', 'de', 'fr', 'es'] as const) {
    const [exceeds, none] = localizeFieldProblems(language, [
      { pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH', args: { total: 131, length: 20 } },
      { pointer: '#', code: 'NO_CHARACTER_SET' }
    ])
    t.equal(exceeds?.pointer, '#/length')
    t.equal(exceeds?.code, 'MINIMUMS_EXCEED_LENGTH')
    t.ok(['131', '20', 'length'].every((part) => exceeds?.detail.includes(part)), `${language}: ${exceeds?.detail}`)
    t.notMatch(exceeds?.detail ?? '', /undefined|NaN/)
    t.same([none?.pointer, none?.code], ['#', 'NO_CHARACTER_SET'])
  }
  t.equal(localizeFieldProblems('en', [{ pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH', args: { total: 11, length: 10 } }])[0]?.detail,
    'The minimums of the enabled character sets add up to 11, more than “length” (10).')
})

t.test('the new password fields: every schema problem listed, in order, before any rule', async (t) => {
  // Were they valid, these minimums would also exceed the length: the schema problems come alone
  const response = await post(app, 'password', { length: 6, minUppercase: -1, minSymbols: '2', avoidAmbiguous: null, minNumbers: 129 })
  const body = isProblem(t, response, 400, 'VALIDATION_FAILED')
  t.same(body.errors.map((e: any) => [e.pointer, e.code]).sort(), [
    ['#/avoidAmbiguous', 'TYPE'], ['#/minNumbers', 'OUT_OF_RANGE'], ['#/minSymbols', 'TYPE'], ['#/minUppercase', 'OUT_OF_RANGE']
  ])
  t.equal(body.detail, body.errors[0].detail)
  const details = Object.fromEntries(body.errors.map((e: any) => [e.pointer, e.detail]))
  t.equal(details['#/minUppercase'], '“minUppercase” must be between 0 and 128.')
  t.equal(details['#/minNumbers'], '“minNumbers” must be between 0 and 128.')
  t.equal(details['#/minSymbols'], '“minSymbols” must be an integer.')
  t.equal(details['#/avoidAmbiguous'], '“avoidAmbiguous” must be a boolean (true or false).')
})

t.test('clientErrorHandler: raw HTTP parser errors get a problem document', async (t) => {
  const written: string[] = []
  const socket = (writable: boolean) => ({ writable, end: (text: string) => { written.push(text) } }) as unknown as Socket
  clientErrorHandler(Object.assign(new Error('closed'), { code: 'ECONNRESET' }), socket(false))
  t.same(written, [], 'nothing written to a closed socket')
  clientErrorHandler(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket(true))
  clientErrorHandler(Object.assign(new Error('big'), { code: 'HPE_HEADER_OVERFLOW' }), socket(true))
  clientErrorHandler(new Error('no code'), socket(true))
  t.match(written[0], /^HTTP\/1\.1 408 Request Timeout\r\n/)
  t.match(written[1], /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
  t.match(written[2], /^HTTP\/1\.1 400 Bad Request\r\n/)
  for (const text of written) {
    const [head, body] = text.split('\r\n\r\n') as [string, string]
    t.match(head, /\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/)
    // The headers every answer carries (helmet's, Cache-Control: no-store), though no hook ran
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) t.ok(head.includes(`\r\n${name}: ${value}\r\n`), `${name} on ${head.slice(9, 12)}`)
    t.match(head, /\r\ncache-control: no-store\r\n/)
    t.match(head, /\r\nContent-Language: en\r\n/)
    t.match(head, new RegExp(`\r\nContent-Length: ${Buffer.byteLength(body)}$`))
    t.match(JSON.parse(body), { status: Number(head.slice(9, 12)) })
  }
})

t.test('over a real socket: parser errors, header limits, 48 KiB X-Data', async (t) => {
  const server = await buildUnready(t)
  await server.listen({ host: '127.0.0.1', port: 0 })
  const { port } = server.server.address() as { port: number }
  const raw = (request: string) => rawRequest(port, request)

  const garbage = await raw('BLAH\x01 / HTTP/1.1\r\n\r\n')
  t.match(garbage, /^HTTP\/1\.1 400 Bad Request\r\n/)
  t.match(garbage, /"code":"BAD_REQUEST"/)

  const huge = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(100_000)}\r\n\r\n`)
  t.match(huge, /^HTTP\/1\.1 431 /)
  t.match(huge, /"code":"REQUEST_HEADER_FIELDS_TOO_LARGE"/)
  t.match(huge, /\r\nx-content-type-options: nosniff\r\n/)

  // CONTRACT §5: an X-Data of 48 KiB fits in the server's header limit
  const json = '{"length":8' + ' '.repeat(36_864 - 12) + '}'
  const response = await fetch(`http://127.0.0.1:${port}/api/generate/password`, { headers: { 'x-data': Buffer.from(json).toString('base64') } })
  t.equal(response.status, 200)
  t.equal(((await response.json()) as any).values[0].length, 8)
})
