// Slow clients against the real server options (src/server-options.ts: headersTimeout and
// requestTimeout 10 s): one sends its headers a byte per second, one sends headers and then a body
// that never finishes. Both are cut off by the server, while other clients are answered at once.
// Node enforces these timeouts on a periodic check (http `connectionsCheckingInterval`, set to 1 s
// in the server options), so a cut comes 10 to 11 s after the request began: the test allows 15 s.
import t from 'tap'
import { connect, type Socket } from 'node:net'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/ops/config.js'

const CUT_OFF_LIMIT_MS = 15_000
const DRIP_MS = 1000
// Answers to ordinary requests during the test: each must come well inside the slow clients' 10 s
// timeouts. A request held behind a slow client would wait until its cut (9 s or more); a busy
// machine can delay a free one by a second or two, so the bound sits halfway
const PROMPT_MS = 5000

interface Cut { ms: number, received: string }

/** Opens a socket, writes `head`, then drips one byte of `drip` per second until the server closes. */
function slowClient (port: number, head: string, drip: string): Promise<Cut> {
  return new Promise((resolve) => {
    const started = Date.now()
    const socket: Socket = connect(port, '127.0.0.1')
    let received = ''
    let index = 0
    const timer = setInterval(() => {
      if (Date.now() - started > CUT_OFF_LIMIT_MS) socket.destroy()
      else if (socket.writable) socket.write(drip[index++ % drip.length] as string)
    }, DRIP_MS)
    socket.setEncoding('utf8')
    socket.on('connect', () => socket.write(head))
    socket.on('data', (chunk: string) => { received += chunk })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ ms: Date.now() - started, received })
    })
  })
}

t.test('slow headers and a body that never ends are cut off; others are answered meanwhile', async (t) => {
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  t.teardown(() => app.close())
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0

  const slowHeaders = slowClient(port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 'abcdefgh')
  const slowBody = slowClient(port,
    'POST /api/generate/password HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"length":',
    '          ')

  // Ordinary clients, one request every 500 ms, until both slow clients are gone (bounded)
  const slow = { done: false }
  const both = Promise.all([slowHeaders, slowBody]).finally(() => { slow.done = true })
  const latencies: number[] = []
  const statuses: number[] = []
  for (let i = 0; !slow.done && i < (CUT_OFF_LIMIT_MS + 5000) / 500; i++) {
    const start = Date.now()
    const response = await fetch(`http://127.0.0.1:${port}/api/generate/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"length":16}',
      signal: AbortSignal.timeout(CUT_OFF_LIMIT_MS)
    })
    await response.text()
    latencies.push(Date.now() - start)
    statuses.push(response.status)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const [headers, body] = await both

  t.ok(headers.ms < CUT_OFF_LIMIT_MS, `slow headers cut off after ${headers.ms} ms`)
  t.ok(body.ms < CUT_OFF_LIMIT_MS, `endless body cut off after ${body.ms} ms`)
  // Never before the configured 10 s: the timeouts are the ones production runs with
  t.ok(headers.ms >= 9_000 && body.ms >= 9_000, 'not before the 10 s timeouts')
  for (const { received } of [headers, body]) {
    // Node answers a timed-out request with our 408 problem document, or just closes
    if (received !== '') t.match(received, /^HTTP\/1\.1 408 [^\r]*\r\n[\s\S]*"code":"REQUEST_TIMEOUT"/)
  }
  t.ok(statuses.length >= 10, `${statuses.length} ordinary requests meanwhile`)
  t.ok(statuses.every((status) => status === 200), 'all answered 200')
  t.ok(latencies.every((ms) => ms < PROMPT_MS), `all answered promptly (slowest ${Math.max(...latencies)} ms)`)
})
