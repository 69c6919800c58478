// src/server.ts as a child process with its JSON log lines parsed: the process tests
// (test/src/server.test.ts, test/faults/), the soak and the randomness check.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'

const ROOT = new URL('../', import.meta.url).pathname
const LISTENING = /^Server listening at http:\/\/127\.0\.0\.1:([0-9]+)$/

export type LogLine = Record<string, any>

export interface ServerProcess {
  child: ChildProcess
  /** Log lines so far, parsed (none when started with `keepLines: false`). */
  lines: () => LogLine[]
  /** Resolves with the first log line, kept or to come, for which `match` holds; rejects if the process exits first. */
  waitFor: (match: (line: LogLine) => boolean) => Promise<LogLine>
  /** What the process wrote to stderr, when started with `captureStderr`. */
  stderr: () => string
  exit: Promise<[number | null, NodeJS.Signals | null]>
}

interface Teardown { teardown: (fn: () => unknown) => void }

export interface SpawnOptions {
  /** Keep every parsed line for `lines()`; a long run (soak) keeps none, so its driver's memory stays flat. */
  keepLines?: boolean
  /** Collect stderr for `stderr()` instead of passing it through. */
  captureStderr?: boolean
  /** The script run, from the project root: src/server.ts by default, dist/server.js for the build. */
  entry?: string
}

/** Spawns the service on an ephemeral loopback port (LOG_LEVEL info unless `env` says otherwise). */
export function spawnServer (t: Teardown, env: Record<string, string> = {}, options: SpawnOptions = {}): ServerProcess {
  const { keepLines = true, captureStderr = false, entry = 'src/server.ts' } = options
  const child = spawn(process.execPath, [...process.execArgv, entry], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', captureStderr ? 'pipe' : 'inherit']
  })
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const kept: LogLine[] = []
  const waiters = new Set<(line: LogLine) => void>()
  let buffer = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk
    const lines = buffer.split('\n')
    buffer = lines.pop() as string
    for (const text of lines) {
      const line = JSON.parse(text) as LogLine
      if (keepLines) kept.push(line)
      for (const waiter of waiters) waiter(line)
    }
  })
  const waitFor = (match: (line: LogLine) => boolean): Promise<LogLine> => new Promise((resolve, reject) => {
    const found = kept.find(match)
    if (found !== undefined) return resolve(found)
    const waiter = (line: LogLine): void => {
      if (!match(line)) return
      waiters.delete(waiter)
      resolve(line)
    }
    waiters.add(waiter)
    exit.then(() => { if (waiters.delete(waiter)) reject(new Error(`server exited${stderr === '' ? '' : `: ${stderr}`}`)) }, reject)
  })
  return { child, lines: () => kept, waitFor, stderr: () => stderr, exit }
}

/** `spawnServer`, resolved once the service logs that it listens (within 30 s), with its port. */
export async function startServer (t: Teardown, env: Record<string, string> = {}, options: SpawnOptions = {}): Promise<ServerProcess & { port: number }> {
  const server = spawnServer(t, env, options)
  let timer: NodeJS.Timeout | undefined
  try {
    const line = await Promise.race([
      server.waitFor((line) => LISTENING.test(String(line.msg))),
      new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('server did not listen within 30 s')), 30_000) })
    ])
    return { ...server, port: Number(LISTENING.exec(String(line.msg))?.[1]) }
  } catch (error) {
    server.child.kill('SIGKILL')
    throw error
  } finally {
    clearTimeout(timer)
  }
}
