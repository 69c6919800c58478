// CONTRACT §9 access keys through the app: which routes ask for a key, the 401 problem document
// in every language with its WWW-Authenticate, rotation with two digests, and what the log says.
import t from 'tap'
import { createHash } from 'node:crypto'
import { LANGUAGES } from '../../src/i18n/index.js'
import { build, buildWithLogs, GENERATORS, xData } from '../helper.js'

const KEY = 'rg_4x9TqLm2VbN8cR1sWz7Yk3Hd6Fp0Ju5Ge'
const OLD_KEY = 'rg_old-key-still-valid-during-rotation'
const digest = (key: string) => createHash('sha256').update(key).digest('hex')
const KEYS_ON = { API_KEY_HASHES: `${digest(KEY)},${digest(OLD_KEY).toUpperCase()}` }
const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

t.test('keys off (the default): generators answer without a key, and ignore one', async (t) => {
  const app = await build(t)
  t.equal((await app.inject({ method: 'POST', url: '/api/generate/uuid' })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: '/api/generate/uuid', headers: bearer('whatever-it-is-0123') })).statusCode, 200)
})

t.test('keys on: every generator, both forms and HEAD, asks for a key', async (t) => {
  const app = await build(t, KEYS_ON)
  for (const type of GENERATORS) {
    const url = `/api/generate/${type}`
    for (const method of ['POST', 'GET', 'HEAD'] as const) {
      const none = await app.inject({ method, url })
      t.equal(none.statusCode, 401, `${method} ${type} without a key`)
      t.equal(none.headers['www-authenticate'], 'Bearer realm="randgen"')
      t.equal(none.headers.vary, 'Accept', 'a generator route varies on Accept, its 401 too')
      const withKey = await app.inject({ method, url, headers: bearer(KEY) })
      t.equal(withKey.statusCode, 200, `${method} ${type} with the key`)
    }
  }
})

t.test('the 401 problem document; error="invalid_token" once a key was sent', async (t) => {
  const app = await build(t, KEYS_ON)
  const missing = await app.inject({ method: 'POST', url: '/api/generate/password' })
  t.equal(missing.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.equal(missing.headers['cache-control'], 'no-store')
  t.same(missing.json(), {
    title: 'Unauthorized',
    status: 401,
    code: 'UNAUTHORIZED',
    detail: 'This route needs an access key: send it as Authorization: Bearer <key>.'
  })
  for (const authorization of [`Bearer ${KEY}x`, `Bearer ${KEY.slice(0, 15)}`, `Basic ${KEY}`, 'Bearer', `Bearer ${digest(KEY)}`]) {
    const response = await app.inject({ method: 'POST', url: '/api/generate/password', headers: { authorization } })
    t.equal(response.statusCode, 401, authorization.slice(0, 20))
    t.equal(response.headers['www-authenticate'], 'Bearer realm="randgen", error="invalid_token"')
    t.equal(response.json().code, 'UNAUTHORIZED')
    t.notOk(response.body.includes(KEY.slice(3, 20)), 'the key is not echoed')
    t.notOk(response.body.includes(digest(KEY).slice(0, 8)), 'nor its digest')
  }
})

t.test('the key is checked before the body is read: no 413 or 415 without a key', async (t) => {
  const app = await build(t, KEYS_ON)
  const big = await app.inject({ method: 'POST', url: '/api/generate/seq', headers: { 'content-type': 'application/json' }, payload: `{"x":"${'a'.repeat(70_000)}"}` })
  t.equal(big.statusCode, 401)
  const text = await app.inject({ method: 'POST', url: '/api/generate/seq', headers: { 'content-type': 'text/plain' }, payload: 'hello' })
  t.equal(text.statusCode, 401)
  const withKey = await app.inject({ method: 'POST', url: '/api/generate/seq', headers: { 'content-type': 'text/plain', ...bearer(KEY) }, payload: 'hello' })
  t.equal(withKey.statusCode, 415, 'with the key the request goes on to the body rules')
})

t.test('every language has its own UNAUTHORIZED title and details', async (t) => {
  const app = await build(t, KEYS_ON)
  const seen = new Set<string>()
  for (const language of LANGUAGES) {
    for (const headers of [{}, bearer('not-a-configured-key-00')]) {
      const response = await app.inject({ method: 'POST', url: '/api/generate/pin', headers: { 'x-language': language, ...headers } })
      t.equal(response.statusCode, 401)
      t.equal(response.headers['content-language'], language)
      const { title, detail } = response.json()
      t.ok(title.length > 0 && detail.length > 0)
      seen.add(`${title}|${detail}`)
    }
  }
  t.equal(seen.size, 2 * LANGUAGES.length, 'no language borrows another\'s text')
})

t.test('rotation: both configured digests let their keys in; the scheme is case-insensitive', async (t) => {
  const app = await build(t, KEYS_ON)
  for (const authorization of [`Bearer ${KEY}`, `bearer ${OLD_KEY}`, `BEARER ${OLD_KEY}`]) {
    const response = await app.inject({ method: 'GET', url: '/api/generate/short-id', headers: { authorization, 'x-data': xData({ quantity: 2 }) } })
    t.equal(response.statusCode, 200, authorization.slice(0, 10))
    t.equal(response.json().values.length, 2)
  }
})

t.test('open routes stay open with keys on: /, /docs, /api/health, /livez, /readyz, OPTIONS, 404', async (t) => {
  const app = await build(t, KEYS_ON)
  for (const [method, url, status] of [
    ['GET', '/docs/json', 200], ['GET', '/docs', 200], ['GET', '/api/health', 200], ['HEAD', '/api/health', 200],
    ['GET', '/livez', 200], ['HEAD', '/livez', 200], ['GET', '/readyz', 200], ['HEAD', '/readyz', 200],
    ['OPTIONS', '/api/generate/password', 204], ['GET', '/api/generate/nothing', 404], ['PUT', '/api/generate/password', 405]
  ] as const) {
    const response = await app.inject({ method, url })
    t.equal(response.statusCode, status, `${method} ${url}`)
    t.notOk('www-authenticate' in response.headers, `${method} ${url} asks for no key`)
  }
  const page = await app.inject({ method: 'GET', url: '/' })
  t.not(page.statusCode, 401, '/ is never behind a key')
})

t.test('logs name a key by 8 hex characters of its digest, never the key or the whole digest', async (t) => {
  const { app, logs } = await buildWithLogs(t, { ...KEYS_ON, LOG_LEVEL: 'debug' })
  const unknown = 'rg_unknown-key-sent-by-someone-0001'
  await app.inject({ method: 'POST', url: '/api/generate/uuid', headers: bearer(unknown) })
  await app.inject({ method: 'POST', url: '/api/generate/uuid', headers: bearer(KEY) })
  await app.inject({ method: 'POST', url: '/api/generate/uuid', headers: { ...bearer(OLD_KEY), 'content-type': 'application/json' }, payload: '{"lenght":1}' })
  await new Promise((resolve) => setTimeout(resolve, 50))
  const lines = logs().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line))
  t.ok(lines.some((line) => line.msg === 'request rejected' && line.code === 'UNAUTHORIZED' && line.keyId === digest(unknown).slice(0, 8)), 'a refused key by its id')
  t.ok(lines.some((line) => line.msg === 'request completed' && line.res?.statusCode === 200 && line.keyId === digest(KEY).slice(0, 8)), 'the key let in, by its id')
  t.ok(lines.some((line) => line.msg === 'request completed' && line.res?.statusCode === 400 && line.keyId === digest(OLD_KEY).slice(0, 8)), 'a failed request names its key')
  const text = logs()
  for (const secret of [KEY, OLD_KEY, unknown, digest(KEY), digest(OLD_KEY), digest(unknown), digest(KEY).toUpperCase().slice(0, 20)]) {
    t.notOk(text.includes(secret), `not logged: ${secret.slice(0, 6)}…`)
  }
})
