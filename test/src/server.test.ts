// src/server.ts as a process: start-up with a bad environment, and graceful shutdown
// (CONTRACT §7: SIGTERM/SIGINT stop accepting, finish requests in flight, exit 0).
import t, { type Test } from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { request, type ClientRequest, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { once } from 'node:events'

const ROOT = new URL('../../', import.meta.url).pathname

interface Server {
  child: ChildProcess
  /** Log lines so far, parsed. */
  lines: () => Array<Record<string, any>>
  /** Resolves with the first log line that matches. */
  waitFor: (match: (line: Record<string, any>) => boolean) => Promise<Record<string, any>>
  exit: Promise<[number | null, NodeJS.Signals | null]>
}

function start (t: Test, env: Record<string, string>): Server {
  const child = spawn(process.execPath, [...process.execArgv, 'src/server.ts'], {
    cwd: ROOT,
    // debug: the tests see each request arrive ("incoming request"), which `info` does not log
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  const parsed: Array<Record<string, any>> = []
  const waiting: Array<() => void> = []
  let buffer = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk
    const lines = buffer.split('\n')
    buffer = lines.pop() as string
    parsed.push(...lines.map((line) => JSON.parse(line)))
    for (const wake of waiting.splice(0)) wake()
  })
  const waitFor = (match: (line: Record<string, any>) => boolean): Promise<Record<string, any>> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = parsed.find(match)
        if (found !== undefined) resolve(found)
        else if (child.exitCode !== null) reject(new Error('server exited'))
        else waiting.push(check)
      }
      check()
    })
  return { child, lines: () => parsed, waitFor, exit }
}

async function listeningPort (server: Server): Promise<number> {
  const line = await server.waitFor((line) => /^Server listening at http:\/\/127\.0\.0\.1:/.test(line.msg))
  return Number(/:([0-9]+)$/.exec(line.msg)?.[1])
}

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
  const server = start(t, { PORT: '70000' })
  let stderr = ''
  server.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const [code] = await server.exit
  t.equal(code, 1)
  t.match(stderr, /^Invalid configuration: PORT [^\n]+\n$/)
})

t.test('SIGTERM with requests in flight: every one is answered, new connections refused, exit 0', async (t) => {
  const server = start(t, {})
  const port = await listeningPort(server)
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
  const server = start(t, { SHUTDOWN_TIMEOUT: '1000' })
  const port = await listeningPort(server)
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
  const server = start(t, {})
  await listeningPort(server)
  server.child.kill('SIGINT')
  const [code] = await server.exit
  t.equal(code, 0)
})
