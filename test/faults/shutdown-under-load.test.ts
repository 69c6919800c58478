// SIGTERM while 40 keep-alive clients hammer the service and 10 requests are half-sent: every
// request the server accepted (logged as "incoming request") is answered with a 200, nothing
// fails before the signal, and the process exits 0. (test/src/server.test.ts covers an idle
// shutdown and a few requests in flight; this is the same under load.)
import t from 'tap'
import { Agent, request, type IncomingMessage } from 'node:http'
import { startServer } from '../server-process.js'

const WORKERS = 40
const IN_FLIGHT = 10
const LOAD_MS = 1500
// Every loop is bounded: a worker stops at its first connection error or after this long
const WORKER_LIMIT_MS = 15_000
// The load and the half-sent requests go to two routes, so the log tells them apart; both take the same body
const LOAD_PATH = '/api/generate/password'
const HALF_SENT_PATH = '/api/generate/short-id'

interface Outcome { status?: number, error?: string, at: number, values?: number }

function post (port: number, agent: Agent | false, path: string, body: string, split = false): { done: Promise<Outcome>, finish: () => void } {
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path,
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
  })
  const done = new Promise<Outcome>((resolve) => {
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, at: Date.now() }))
    req.on('response', (res: IncomingMessage) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk })
      res.on('end', () => {
        let values: number | undefined
        try { values = (JSON.parse(text) as { values?: unknown[] }).values?.length } catch {}
        resolve({ status: res.statusCode, at: Date.now(), values })
      })
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, at: Date.now() }))
    })
  })
  const half = Math.floor(body.length / 2)
  if (split) req.write(body.slice(0, half))
  else req.end(body)
  return { done, finish: () => { req.end(body.slice(half)) } }
}

t.test('SIGTERM under load: every accepted request answered, exit 0', async (t) => {
  // debug: each accepted request logs "incoming request", which `info` does not
  const server = await startServer(t, { LOG_LEVEL: 'debug' })
  const agent = new Agent({ keepAlive: true, maxSockets: WORKERS })
  t.teardown(() => agent.destroy())
  const body = JSON.stringify({ length: 24, quantity: 5 })
  const outcomes: Outcome[] = []
  const started = Date.now()
  const workers = Array.from({ length: WORKERS }, async () => {
    while (Date.now() - started < WORKER_LIMIT_MS) {
      const outcome = await post(server.port, agent, LOAD_PATH, body).done
      outcomes.push(outcome)
      if (outcome.error !== undefined) return
    }
  })
  await new Promise((resolve) => setTimeout(resolve, LOAD_MS))
  const pending = Array.from({ length: IN_FLIGHT }, () => post(server.port, false, HALF_SENT_PATH, body, true))
  // Wait until the server has accepted each half-sent request, told from the load by its route (a
  // count of all log lines was met by the load's requests in flight too, and on a busy machine the
  // signal then came before the half-sent connections were accepted: they were refused, rightly)
  const halfSentSeen = (): number => server.lines().filter((line) => line.msg === 'incoming request' && line.req?.url === HALF_SENT_PATH).length
  for (let i = 0; i < 500 && halfSentSeen() < IN_FLIGHT; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  t.equal(halfSentSeen(), IN_FLIGHT, 'the server accepted every half-sent request before SIGTERM')
  const signalled = Date.now()
  server.child.kill('SIGTERM')
  await new Promise((resolve) => setTimeout(resolve, 300))
  for (const { finish } of pending) finish()
  const halfSent = await Promise.all(pending.map(({ done }) => done))
  await Promise.all(workers)
  const [code, signal] = await server.exit

  t.equal(code, 0, 'exit code 0')
  t.equal(signal, null)
  t.ok(halfSent.every((outcome) => outcome.status === 200 && outcome.values === 5), 'the requests half-sent at SIGTERM are all answered 200')
  const before = outcomes.filter((outcome) => outcome.at < signalled)
  t.ok(before.length > 100, `${before.length} requests answered under load before SIGTERM`)
  t.same(before.filter((outcome) => outcome.status !== 200), [], 'no failure before SIGTERM')
  const answered = [...outcomes, ...halfSent].filter((outcome) => outcome.status !== undefined)
  t.same(answered.filter((outcome) => outcome.status !== 200 || outcome.values !== 5), [], 'every answer is a 200 with 5 values')
  // Accepted = seen by the server (its "incoming request" log line); each one's answer reached its client
  const incoming = server.lines().filter((line) => line.msg === 'incoming request').length
  t.equal(answered.length, incoming, `every accepted request (${incoming}) was answered`)
  const errors = outcomes.filter((outcome) => outcome.error !== undefined)
  t.ok(errors.every((outcome) => outcome.at >= signalled), 'connection errors only after SIGTERM (connections the server no longer accepts)')
  t.comment(`answered ${answered.length}, connection errors after SIGTERM: ${JSON.stringify(errors.map((outcome) => outcome.error))}`)
})
