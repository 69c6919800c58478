// Starting, probing and stopping the servers under test: each one is its own process, so none of
// them shares a heap, a JIT or an event loop with the load generator.
import { spawn, type ChildProcess } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'

export interface RunningServer {
  name: string
  origin: string
  pid: number
  stop: () => Promise<void>
}

/** A port the kernel has just handed out and released: free for the next instant. */
export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => { resolve(typeof address === 'object' && address !== null ? address.port : 0) })
    })
  })
}

/** The status of one request on a fresh connection, or 0 when nothing answers. */
export async function statusOf (url: string, method = 'GET', body?: string): Promise<number> {
  return await new Promise((resolve) => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
    const req = request(url, { method, agent: false, headers, timeout: 1000 }, (res) => {
      res.resume()
      res.on('end', () => { resolve(res.statusCode ?? 0) })
    })
    req.on('error', () => { resolve(0) })
    req.on('timeout', () => { req.destroy() })
    req.end(body)
  })
}

/** Polls every 2 ms until `url` answers 200; the milliseconds waited, or throws after `limitMs`. */
export async function waitFor200 (url: string, method: string, body: string | undefined, started: bigint, limitMs = 15_000): Promise<number> {
  for (let attempt = 0; attempt < limitMs / 2; attempt++) {
    if (await statusOf(url, method, body) === 200) return Number(process.hrtime.bigint() - started) / 1e6
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  throw new Error(`${url} did not answer 200 within ${limitMs} ms`)
}

export interface ServerSpec {
  name: string
  script: string
  env?: Record<string, string>
  /** A request that answers 200 once the server is ready. */
  ready: { path: string, method: string, body?: string }
  /** Where stdout/stderr go (randgen's request log); discarded when absent. */
  logFile?: string
  /** Node options before the script, e.g. --cpu-prof. */
  nodeArgs?: string[]
}

/** Spawns `node script` on a fresh port and resolves once it answers; `startMs` is spawn → first 200. */
export async function startServer (spec: ServerSpec): Promise<RunningServer & { startMs: number }> {
  const port = await freePort()
  const output = spec.logFile === undefined ? 'ignore' : openSync(spec.logFile, 'a')
  const started = process.hrtime.bigint()
  const child: ChildProcess = spawn(process.execPath, [...(spec.nodeArgs ?? []), spec.script], {
    env: { PATH: process.env.PATH ?? '', ...spec.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', output, output]
  })
  const exited = new Promise<void>((resolve) => { child.once('exit', () => { resolve() }) })
  const origin = `http://127.0.0.1:${port}`
  let startMs: number
  try {
    startMs = await waitFor200(origin + spec.ready.path, spec.ready.method, spec.ready.body, started)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    await exited
    clearTimeout(timer)
  }
  return { name: spec.name, origin, pid: child.pid as number, stop, startMs }
}

/** Resident set size of a process in bytes (Linux /proc), or NaN when it cannot be read. */
export function rssOf (pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match === null ? Number.NaN : Number(match[1]) * 1024
  } catch {
    return Number.NaN
  }
}

/** CPU time (user + system) a process has used, in microseconds (Linux /proc; clock ticks of 10 ms). */
export function cpuOf (pid: number): number {
  try {
    // Fields after the command name: state is 3rd, utime 14th, stime 15th of the whole line
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  } catch {
    return Number.NaN
  }
}
