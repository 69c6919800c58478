// CONTRACT §9 under a real signal: from SIGTERM /readyz answers 503 draining on new connections
// while the listener stays open (SHUTDOWN_DELAY), requests in flight are answered 200, and the
// process exits 0. A balancer following readiness has that long to stop routing here.
import t from 'tap'
import { request, type IncomingMessage } from 'node:http'
import { once } from 'node:events'
import { startServer } from '../server-process.js'

const DELAY_MS = 3000
const IN_FLIGHT = 5

function get (port: number, path: string): Promise<{ status?: number, body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

t.test('SIGTERM: /readyz 503 draining at once, requests in flight answered, exit 0', async (t) => {
  const server = await startServer(t, { LOG_LEVEL: 'debug', SHUTDOWN_DELAY: String(DELAY_MS) })
  const { port } = server
  t.same(await get(port, '/readyz'), { status: 200, body: '{"status":"ok"}' }, 'ready before the signal')

  // Requests in flight: headers and half the body sent
  const body = JSON.stringify({ length: 32, quantity: 2 })
  const half = Math.floor(body.length / 2)
  const pending = Array.from({ length: IN_FLIGHT }, () => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/generate/password', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } })
    req.write(body.slice(0, half))
    const answer = once(req, 'response').then(async ([res]) => {
      let text = ''
      for await (const chunk of res as IncomingMessage) text += chunk
      return { status: (res as IncomingMessage).statusCode, values: JSON.parse(text).values?.length }
    })
    return { req, answer }
  })
  await server.waitFor(() => server.lines().filter((line) => line.msg === 'incoming request' && line.req?.url === '/api/generate/password').length === IN_FLIGHT)

  const signalled = Date.now()
  server.child.kill('SIGTERM')
  await server.waitFor((line) => line.msg === 'server closing')
  const draining = await get(port, '/readyz')
  t.ok(Date.now() - signalled < DELAY_MS, 'asked within the delay')
  t.same(draining, { status: 503, body: '{"status":"draining"}' }, '/readyz: 503 draining on a new connection')
  t.same(await get(port, '/livez'), { status: 200, body: '{"status":"ok"}' }, '/livez: still alive')
  const health = await get(port, '/api/health')
  t.equal(health.status, 200, '/api/health as §3 says')

  for (const { req } of pending) req.end(body.slice(half))
  const answers = await Promise.all(pending.map(({ answer }) => answer))
  t.same(answers, Array(IN_FLIGHT).fill({ status: 200, values: 2 }), 'every request in flight answered 200')
  const [code, signal] = await server.exit
  t.equal(code, 0)
  t.equal(signal, null)
  t.ok(Date.now() - signalled >= DELAY_MS, 'the listener stayed open for SHUTDOWN_DELAY')
})

t.test('SHUTDOWN_DELAY must be shorter than SHUTDOWN_TIMEOUT', async (t) => {
  const { loadConfig } = await import('../../src/ops/config.js')
  t.throws(() => loadConfig({ SHUTDOWN_DELAY: '10000', SHUTDOWN_TIMEOUT: '10000' }), { message: 'Invalid configuration: SHUTDOWN_DELAY must be shorter than SHUTDOWN_TIMEOUT' })
  t.equal(loadConfig({ SHUTDOWN_DELAY: '5000', SHUTDOWN_TIMEOUT: '10000' }).SHUTDOWN_DELAY, 5000)
})
