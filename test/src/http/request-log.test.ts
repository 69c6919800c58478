// Which request lines each level writes (src/server-options.ts RequestLogController): at `info`
// only failed requests, each with one self-contained line; at `debug` every request, both lines.
import t from 'tap'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { RequestLogController } from '../../../src/server-options.js'
import { buildWithLogs, post } from '../../helper.js'

interface Line { level: number, msg: string, reqId?: string, req?: Record<string, unknown>, res?: { statusCode: number }, responseTime?: number, err?: { message: string } }

async function linesOf (logs: () => string): Promise<Line[]> {
  // The capturing stream is a Writable: let its buffered writes land
  await new Promise((resolve) => setTimeout(resolve, 20))
  return logs().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Line)
}

const requestLines = (lines: Line[]): Line[] => lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed')

t.test('info: a successful request writes no line; a failed one writes one that says who, what and how it ended', async (t) => {
  const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: 'info' })
  t.equal((await post(app, 'password', {})).statusCode, 200)
  t.same(requestLines(await linesOf(logs)), [], 'nothing for a 200')

  t.equal((await post(app, 'password', { length: 3 })).statusCode, 400)
  const lines = requestLines(await linesOf(logs))
  t.equal(lines.length, 1)
  t.match(lines[0], {
    level: 30,
    msg: 'request completed',
    reqId: String,
    req: { method: 'POST', url: '/api/generate/password', remoteAddress: '127.0.0.1' },
    res: { statusCode: 400 },
    responseTime: Number
  })
  t.ok((await linesOf(logs)).some((line) => line.msg === 'invalid parameters' && line.reqId === lines[0]?.reqId), 'the failure line and the reason share the request id')
})

t.test('debug: every request writes "incoming request" and "request completed"', async (t) => {
  const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: 'debug' })
  t.equal((await post(app, 'uuid', {})).statusCode, 200)
  const lines = requestLines(await linesOf(logs))
  t.match(lines, [
    { level: 20, msg: 'incoming request', req: { method: 'POST', url: '/api/generate/uuid', remoteAddress: '127.0.0.1' } },
    { level: 20, msg: 'request completed', res: { statusCode: 200 }, responseTime: Number }
  ])
  t.equal(lines.length, 2)
})

t.test('a response that failed on the wire is logged at error with its error', async (t) => {
  const logged: Array<{ level: string, fields: Record<string, unknown>, msg: string }> = []
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => { logged.push({ level, fields, msg }) }
  const log = { error: at('error'), info: at('info'), debug: at('debug') }
  const request = { log } as unknown as FastifyRequest
  const reply = { log, statusCode: 200, elapsedTime: 1.5 } as unknown as FastifyReply
  const failure = new Error('socket hang up')

  new RequestLogController().requestCompleted(failure, request, reply)
  t.same(logged, [{ level: 'error', fields: { req: request, res: reply, responseTime: 1.5, err: failure }, msg: 'request errored' }])
})
