import t from 'tap'
import { buildWithLogs } from '../../helper.js'
import { closeApp } from '../../../src/ops/shutdown.js'

function logLines (logs: string): Array<Record<string, any>> {
  return logs.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line))
}

t.test('a signal is logged at info, then the app closes', async (t) => {
  const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: 'info' })
  await closeApp(app)({ signal: 'SIGTERM' })
  const line = logLines(logs()).find((entry) => entry.msg === 'server closing')
  t.equal(line?.level, 30)
  t.equal(line?.signal, 'SIGTERM')
  // A closed app refuses new work
  await t.rejects(app.inject({ method: 'GET', url: '/api/health' }))
})

t.test('an uncaught error is logged at error level with its stack, then the app closes', async (t) => {
  const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: 'info' })
  await closeApp(app)({ err: new Error('boom') })
  const line = logLines(logs()).find((entry) => entry.msg === 'server closing after an unexpected error')
  t.equal(line?.level, 50)
  t.equal(line?.err?.message, 'boom')
  t.match(line?.err?.stack, /boom/)
})

t.test('SIGTERM with SHUTDOWN_DELAY: /readyz 503 draining at once, the app serves until the delay ends, then closes', async (t) => {
  const { app } = await buildWithLogs(t, { LOG_LEVEL: 'silent' })
  const started = Date.now()
  const closing = closeApp(app, 300)({ signal: 'SIGTERM' })
  const ready = await app.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 503)
  t.same(ready.json(), { status: 'draining' })
  t.equal((await app.inject({ method: 'POST', url: '/api/generate/uuid' })).statusCode, 200, 'still serving during the delay')
  await closing
  t.ok(Date.now() - started >= 290, 'closed after the delay')
  await t.rejects(app.inject({ method: 'GET', url: '/readyz' }), 'closed')
})

t.test('SIGINT does not wait the delay', async (t) => {
  const { app } = await buildWithLogs(t, { LOG_LEVEL: 'silent' })
  const started = Date.now()
  await closeApp(app, 5000)({ signal: 'SIGINT' })
  t.ok(Date.now() - started < 4000, 'closed at once')
})
