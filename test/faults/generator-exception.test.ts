// A generator that throws (here: the CSPRNG wrapper, replaced through tap's module mocks, so no
// test-only path exists in production code) yields a 500 problem document that tells nothing of
// the fault, the fault goes to the log only, and the next request succeeds.
import t, { type Test } from 'tap'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import * as random from '../../src/random/csprng.js'
import { loadConfig } from '../../src/ops/config.js'
import type * as App from '../../src/app.js'

// Looks like what a real fault would carry: a message with a path, a secret-looking value, a stack
const FAULT = 'entropy source failed at /work/main/src/random.ts:42:7 key=c2VjcmV0'
const fault = { on: false }

// tap's module mocks reach only a mocked module's own imports: mock the password plugin's CSPRNG,
// then give the app that plugin
const passwordPlugin = await t.mockImport<Record<string, unknown>>('../../plugins/password.js', {
  '../../src/random/csprng.js': {
    ...random,
    randomString: (alphabet: string, length: number) => {
      if (fault.on) throw new Error(FAULT)
      return random.randomString(alphabet, length)
    }
  }
})
const { buildApp } = await t.mockImport<typeof App>('../../src/app.js', { '../../plugins/password.js': passwordPlugin })

async function buildWithLogs (t: Test): Promise<{ app: FastifyInstance, logs: () => string }> {
  const lines: string[] = []
  const stream = new Writable({ write (chunk, _encoding, callback) { lines.push(String(chunk)); callback() } })
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'info' }), { logStream: stream })
  await app.ready()
  t.teardown(() => app.close())
  return { app, logs: () => lines.join('') }
}

t.test('an exception inside a generator: 500 problem without internals, then business as usual', async (t) => {
  const { app, logs } = await buildWithLogs(t)
  for (const [method, language] of [['POST', 'de'], ['GET', 'en']] as const) {
    fault.on = true
    const failed = await app.inject({
      method,
      url: '/api/generate/password',
      headers: { 'x-language': language, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'POST' ? { payload: '{"length":12}' } : {})
    })
    fault.on = false
    t.equal(failed.statusCode, 500, `${method}: 500`)
    t.equal(failed.headers['content-type'], 'application/problem+json; charset=utf-8')
    t.equal(failed.headers['cache-control'], 'no-store')
    t.equal(failed.headers['content-language'], language)
    const problem = failed.json()
    t.same(Object.keys(problem).sort(), ['code', 'detail', 'status', 'title'])
    t.match(problem, { status: 500, code: 'INTERNAL_ERROR' })
    for (const leak of ['entropy', 'random.ts', '/work/', 'c2VjcmV0', 'Error', ' at ']) t.notMatch(failed.body, leak, `no "${leak}" in the body`)

    const next = await app.inject({ method: 'POST', url: '/api/generate/password', payload: { length: 12 } })
    t.equal(next.statusCode, 200, 'the next request succeeds')
    t.match(next.json().values[0], /^.{12}$/)
  }
  // The operator sees the fault in the log (level error); the request's parameters are not there
  const errors = logs().split('\n').filter((line) => line.includes('"level":50'))
  t.equal(errors.length, 2, 'one error line per fault')
  t.ok(errors.every((line) => line.includes('entropy source failed')), 'the log has the fault')
  t.notMatch(logs(), '"length":12', 'the body is not logged')
})
