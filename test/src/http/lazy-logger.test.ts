// src/http/lazy-logger.ts: a request's logger makes its pino child only when it writes a line, and then
// writes what that child would have written.
import { Writable } from 'node:stream'
import t from 'tap'
import type { Logger } from 'pino'
import { LazyLogger } from '../../../src/http/lazy-logger.js'
import { buildUnready, buildWithLogs, post } from '../../helper.js'

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent', 'nonsense'] as const

/** The lines written, without `time` (it differs between two loggers by the clock alone). */
function linesOf (logs: string): Array<Record<string, unknown>> {
  return logs.split('\n').filter((line) => line !== '').map((line) => {
    const { time, err, ...rest } = JSON.parse(line) as Record<string, unknown>
    // The stack differs by the line each logger was called from
    return err === undefined ? rest : { ...rest, err: { ...(err as Record<string, unknown>), stack: undefined } }
  })
}

// Everything a request's logger is asked to do in this service and in Fastify, secrets included
function session (log: LazyLogger | Logger, path: string): void {
  const request = { method: 'POST', url: `${path}?length=8`, ip: '192.0.2.1', headers: { 'x-data': 'c2VjcmV0' } }
  log.trace({ req: request }, 'trace line')
  log.debug({ req: request }, 'incoming request')
  log.info({ code: 'VALIDATION_FAILED', body: { length: 8 }, values: ['secret'] }, 'invalid parameters')
  log.warn('a bare message with %s', 'an argument')
  log.error({ err: new Error('boom'), headers: { 'x-data': 'c2VjcmV0' }, payload: 'secret' }, 'unexpected error')
  log.fatal({ res: { statusCode: 500 } }, 'fatal line')
  log.silent('never written')
  log.child({ plugin: 'nested' }).info({ values: ['secret'] }, 'from a grandchild')
}

for (const level of ['info', 'debug', 'trace', 'silent']) {
  t.test(`${level}: the same lines as pino's own child, redaction and serializers included`, async (t) => {
    const eagerApp = await buildWithLogs(t, { LOG_LEVEL: level })
    const lazyApp = await buildWithLogs(t, { LOG_LEVEL: level })
    const eager = (eagerApp.app.log as Logger).child({ reqId: 'req-1' }, {})
    const lazy = new LazyLogger(lazyApp.app.log as Logger, { reqId: 'req-1' }, {})
    for (const name of LEVELS) t.equal(lazy.isLevelEnabled(name), eager.isLevelEnabled(name), `isLevelEnabled(${name})`)
    t.equal(lazy.level, eager.level, 'level')
    t.equal(lazy.levelVal, eager.levelVal, 'levelVal')
    session(eager, '/api/generate/password')
    session(lazy, '/api/generate/password')
    const lines = linesOf(lazyApp.logs())
    t.same(lines, linesOf(eagerApp.logs()), `${lines.length} lines`)
    t.notOk(lazyApp.logs().includes('secret') || lazyApp.logs().includes('c2VjcmV0') || lazyApp.logs().includes('length=8'), 'no secret, no query string')
    t.same(lazy.bindings(), eager.bindings(), 'bindings')
  })
}

t.test('no child until a line is written; reading the level makes none', async (t) => {
  const built = await buildWithLogs(t, { LOG_LEVEL: 'info' })
  const { app } = built
  // Only what is written from here on: start-up lines (plugins/vpn.ts names its ML-KEM/ML-DSA backend) are the app's own
  const startup = built.logs().length
  const logs = () => built.logs().slice(startup)
  const parent = app.log as Logger
  const children = t.capture(parent, 'child', parent.child)
  const lazy = new LazyLogger(parent, { reqId: 'req-2' }, {})
  t.equal(lazy.level, 'info')
  for (const name of LEVELS) lazy.isLevelEnabled(name)
  lazy.debug({ values: ['secret'] }, 'not written at info')
  lazy.trace('nor this')
  lazy.silent('nor this')
  lazy.flush()
  t.equal(lazy.levels, parent.levels, 'pino\'s level table')
  t.equal(children().length, 0, 'no child made')
  t.equal(logs(), '', 'no line')
  lazy.info('written')
  lazy.warn('written too')
  lazy.flush()
  t.equal(children().length, 1, 'one child, made on the first line written, then reused')
  t.same(linesOf(logs()).map((line) => [line.reqId, line.msg]), [['req-2', 'written'], ['req-2', 'written too']])
  t.same(new LazyLogger(parent, { reqId: 'req-3' }, {}).bindings(), { reqId: 'req-3' }, 'bindings: asked for, the child is made')
})

t.test('the level follows the parent\'s unless the route set its own, as a pino child\'s does', async (t) => {
  const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: 'info' })
  const parent = app.log as Logger
  const pairs = [
    ['follows', parent.child({ reqId: 'eager' }, {}), new LazyLogger(parent, { reqId: 'lazy' }, {})],
    ['own', parent.child({ reqId: 'eager-own' }, { level: 'debug' }), new LazyLogger(parent, { reqId: 'lazy-own' }, { level: 'debug' })],
    ['same as the parent\'s', parent.child({ reqId: 'eager-same' }, { level: 'info' }), new LazyLogger(parent, { reqId: 'lazy-same' }, { level: 'info' })]
  ] as const
  for (const parentLevel of ['info', 'error', 'trace', 'warn']) {
    parent.level = parentLevel
    for (const [name, eager, lazy] of pairs) {
      t.equal(lazy.level, eager.level, `${name}, parent at ${parentLevel}: level`)
      t.equal(lazy.levelVal, eager.levelVal, `${name}, parent at ${parentLevel}: levelVal`)
      for (const level of LEVELS) t.equal(lazy.isLevelEnabled(level), eager.isLevelEnabled(level), `${name}, parent at ${parentLevel}: isLevelEnabled(${level})`)
    }
    // The first time through, this makes the lazy children: they must keep following (or not)
    for (const [, eager, lazy] of pairs) {
      eager.info('line')
      lazy.info('line')
    }
  }
  const lines = linesOf(logs()).map((line) => line.reqId)
  t.same(lines.filter((id) => String(id).startsWith('lazy')).map((id) => String(id).replace('lazy', 'eager')), lines.filter((id) => String(id).startsWith('eager')), 'the same lines')
  // Set on the request's logger: the child is made and keeps the new level
  const lazy = new LazyLogger(parent, { reqId: 'set' }, {})
  lazy.level = 'warn'
  t.equal(lazy.level, 'warn')
  t.notOk(lazy.isLevelEnabled('info'))
  t.equal(lazy.levelVal, 40)
  t.same(lazy.levels, parent.levels, 'pino\'s level table')
})

t.test('requests: at info a success makes no child; a failure logs through one with its request id', async (t) => {
  const written: string[] = []
  const logStream = new Writable({ write (chunk, _encoding, callback) { written.push(String(chunk)); callback() } })
  const app = await buildUnready(t, { LOG_LEVEL: 'info' }, { logStream })
  const seen: boolean[] = []
  app.addHook('onRequest', async (request, reply) => { seen.push(request.log instanceof LazyLogger && reply.log === request.log) })
  await app.ready()
  // Requests' lines only: the start-up line naming the ML-KEM/ML-DSA backend is the app's own
  written.length = 0
  const parent = app.log as Logger
  const children = t.capture(parent, 'child', parent.child)
  t.equal((await app.inject({ method: 'GET', url: '/api/health' })).statusCode, 200)
  t.equal((await post(app, 'password', {})).statusCode, 200)
  t.equal(children().length, 0, 'no child for two successful requests')
  t.same(written, [], 'no line')
  t.equal((await post(app, 'password', { length: 1 })).statusCode, 400)
  t.equal(children().length, 1, 'one child for the failed one')
  const lines = linesOf(written.join(''))
  t.ok(lines.length > 0 && lines.every((line) => typeof line.reqId === 'string' && line.reqId === lines[0]?.reqId), 'its lines carry its request id')
  t.same(seen, [true, true, true], 'request.log and reply.log: the same lazy logger')
})
