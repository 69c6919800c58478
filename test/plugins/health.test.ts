import t from 'tap'
import Fastify from 'fastify'
import { readFileSync } from 'node:fs'
import health, { csprngWorks } from '../../plugins/health.js'
import errors from '../../plugins/errors.js'
import security from '../../plugins/security.js'
import { loadConfig } from '../../src/ops/config.js'
import { serverOptions } from '../../src/server-options.js'
import { build, ISO_MILLIS } from '../helper.js'

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

t.test('csprngWorks', async (t) => {
  t.equal(csprngWorks(), true, 'the real CSPRNG')
  t.equal(csprngWorks(() => { throw new Error('entropy source gone') }), false, 'a draw that throws')
  t.equal(csprngWorks(() => Buffer.alloc(3)), false, 'a short draw')
  t.equal(csprngWorks((n) => Buffer.alloc(n)), true)
})

t.test('GET and HEAD /api/health: 200 with every field', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'GET', url: '/api/health' })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(response.headers['cache-control'], 'no-store')
  const body = response.json()
  t.same(Object.keys(body).sort(), ['service', 'status', 'timestamp', 'uptime', 'version'])
  t.equal(body.status, 'ok')
  t.equal(body.service, 'randgen')
  t.equal(body.version, version)
  t.equal(typeof body.uptime, 'number')
  t.ok(body.uptime > 0)
  t.match(body.timestamp, ISO_MILLIS)

  const head = await app.inject({ method: 'HEAD', url: '/api/health' })
  t.equal(head.statusCode, 200)
  t.equal(head.headers['cache-control'], 'no-store')
  t.equal(head.body, '')
})

t.test('503 with status error when the CSPRNG fails', async (t) => {
  // The production options and error handler, with a health plugin whose draw throws
  const app = Fastify(serverOptions(loadConfig({ LOG_LEVEL: 'silent' })))
  // security sets Cache-Control: no-store on every response, as in production
  await app.register(security)
  await app.register(errors)
  await app.register(health, { draw: () => { throw new Error('no entropy') } })
  t.teardown(() => app.close())
  const response = await app.inject({ method: 'GET', url: '/api/health' })
  t.equal(response.statusCode, 503)
  t.equal(response.headers['cache-control'], 'no-store')
  const body = response.json()
  t.equal(body.status, 'error')
  t.equal(body.service, 'randgen')
  t.match(body.timestamp, ISO_MILLIS)
  t.notMatch(response.body, /no entropy/, 'no internals')
})

t.test('GET and HEAD /livez and /readyz: 200 {"status":"ok"}, no-store', async (t) => {
  const app = await build(t)
  for (const url of ['/livez', '/readyz']) {
    const response = await app.inject({ method: 'GET', url })
    t.equal(response.statusCode, 200, url)
    t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
    t.equal(response.headers['cache-control'], 'no-store')
    t.same(response.json(), { status: 'ok' })
    const head = await app.inject({ method: 'HEAD', url })
    t.equal(head.statusCode, 200)
    t.equal(head.headers['cache-control'], 'no-store')
    t.equal(head.body, '')
    const post = await app.inject({ method: 'POST', url })
    t.equal(post.statusCode, 405, `POST ${url}`)
    t.equal(post.headers.allow, 'GET, HEAD')
  }
})

t.test('/readyz: 503 draining once the app drains; /livez and /api/health stay 200', async (t) => {
  const app = await build(t)
  app.startDraining()
  const ready = await app.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 503)
  t.equal(ready.headers['cache-control'], 'no-store')
  t.same(ready.json(), { status: 'draining' })
  t.equal((await app.inject({ method: 'HEAD', url: '/readyz' })).statusCode, 503)
  t.same((await app.inject({ method: 'GET', url: '/livez' })).json(), { status: 'ok' }, 'alive while draining: no restart')
  t.equal((await app.inject({ method: 'GET', url: '/api/health' })).statusCode, 200, '/api/health stays as §3 says')
})

t.test('/readyz: 503 error when the CSPRNG fails; /livez stays 200', async (t) => {
  const app = Fastify(serverOptions(loadConfig({ LOG_LEVEL: 'silent' })))
  await app.register(security)
  await app.register(errors)
  await app.register(health, { draw: () => { throw new Error('no entropy') } })
  t.teardown(() => app.close())
  const ready = await app.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 503)
  t.equal(ready.headers['cache-control'], 'no-store')
  t.same(ready.json(), { status: 'error' })
  t.notMatch(ready.body, /no entropy/, 'no internals')
  t.same((await app.inject({ method: 'GET', url: '/livez' })).json(), { status: 'ok' }, 'a restart would not bring entropy back')
})
