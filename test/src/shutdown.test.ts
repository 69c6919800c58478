import t from 'tap'
import { buildWithLogs } from '../helper.js'
import { closeApp } from '../../src/shutdown.js'

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
