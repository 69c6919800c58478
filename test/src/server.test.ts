// src/server.ts as a process: start-up with a bad environment, and graceful shutdown
// (CONTRACT §7: SIGTERM/SIGINT stop accepting, finish requests in flight, exit 0).
import t from 'tap'
import { request, type ClientRequest, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { once } from 'node:events'
import { spawnServer, startServer } from '../server-process.js'

// debug: the tests see each request arrive ("incoming request"), which `info` does not log
const DEBUG = { LOG_LEVEL: 'debug' }

function refused (port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.on('connect', () => { socket.destroy(); resolve(false) })
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

/** A password POST whose headers announce `length` bytes of body; the caller writes them (or not). */
function openPost (port: number, length: number): ClientRequest {
  return request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/generate/password',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': length }
  })
}

t.test('a bad setting stops the start with one line naming it, exit 1', async (t) => {
  const server = spawnServer(t, { PORT: '70000' }, { captureStderr: true })
  const [code] = await server.exit
  // stderr is complete once its pipe closes, which may come after the exit
  if (server.child.stderr?.closed !== true) await once(server.child.stderr as NodeJS.ReadableStream, 'close')
  t.equal(code, 1)
  t.match(server.stderr(), /^Invalid configuration: PORT [^\n]+\n$/)
})

t.test('SIGTERM with requests in flight: every one is answered, new connections refused, exit 0', async (t) => {
  const server = await startServer(t, DEBUG)
  const { port } = server
  const body = JSON.stringify({ length: 32, quantity: 3 })
  const half = Math.floor(body.length / 2)
  const IN_FLIGHT = 5

  // Each POST sends its headers and half its body, so it is accepted and still in progress
  const pending = Array.from({ length: IN_FLIGHT }, () => {
    const req = openPost(port, Buffer.byteLength(body))
    req.write(body.slice(0, half))
    const response = once(req, 'response').then(async ([res]) => {
      const message = res as IncomingMessage
      let text = ''
      for await (const chunk of message) text += chunk
      return { status: message.statusCode, json: JSON.parse(text) }
    })
    return { req, response }
  })
  await server.waitFor(() => server.lines().filter((line) => line.msg === 'incoming request').length === IN_FLIGHT)

  server.child.kill('SIGTERM')
  await server.waitFor((line) => line.msg === 'server closing' && line.signal === 'SIGTERM')
  // The listener closes while the requests are still waiting for the rest of their bodies
  let closed = false
  for (let attempt = 0; attempt < 40 && !closed; attempt++) {
    closed = await refused(port)
    if (!closed) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  t.ok(closed, 'new connections are refused')
  t.equal(server.child.exitCode, null, 'still running while requests are in flight')

  for (const { req } of pending) req.end(body.slice(half))
  const responses = await Promise.all(pending.map(({ response }) => response))
  for (const { status, json } of responses) {
    t.equal(status, 200)
    t.equal(json.values.length, 3)
  }
  const [code, signal] = await server.exit
  t.equal(code, 0)
  t.equal(signal, null)
})

t.test('SHUTDOWN_TIMEOUT bounds the wait: a request that never completes ends in exit 1', async (t) => {
  const server = await startServer(t, { ...DEBUG, SHUTDOWN_TIMEOUT: '1000' })
  const { port } = server
  const req = openPost(port, 100)
  req.on('error', () => {})
  req.write('{')
  await server.waitFor((line) => line.msg === 'incoming request')
  const signalled = Date.now()
  server.child.kill('SIGTERM')
  const [code] = await server.exit
  t.equal(code, 1)
  // Well before the 10 s default and Fastify's own 10 s request timeout
  t.ok(Date.now() - signalled < 8000, `exited after ${Date.now() - signalled} ms`)
})

t.test('SIGINT on an idle server: exit 0', async (t) => {
  const server = await startServer(t)
  server.child.kill('SIGINT')
  const [code] = await server.exit
  t.equal(code, 0)
})
