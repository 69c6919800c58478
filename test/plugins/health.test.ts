import t from 'tap'
import Fastify from 'fastify'
import { readFileSync } from 'node:fs'
import health, { csprngWorks } from '../../plugins/health.js'
import errors from '../../plugins/errors.js'
import security from '../../plugins/security.js'
import { loadConfig } from '../../src/config.js'
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
