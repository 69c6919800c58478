// src/server.ts as a child process, its JSON log lines parsed, for the fault tests.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'

const ROOT = new URL('../../', import.meta.url).pathname

export type LogLine = Record<string, unknown>

export interface ServerProcess {
  child: ChildProcess
  port: number
  /** Log lines so far, parsed. */
  lines: () => LogLine[]
  exit: Promise<[number | null, NodeJS.Signals | null]>
}

interface Teardown { teardown: (fn: () => unknown) => void }

/** Starts the service on an ephemeral loopback port; resolves once it logs that it listens (LOG_LEVEL info or lower). */
export async function startServer (t: Teardown, env: Record<string, string> = {}, keepLines = true): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...process.execArgv, 'src/server.ts'], {
    cwd: ROOT,
    // debug: the tests see each request arrive ("incoming request"), which `info` does not log
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  const parsed: LogLine[] = []
  let buffer = ''
  const listening = new Promise<number>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk
      const lines = buffer.split('\n')
      buffer = lines.pop() as string
      for (const line of lines) {
        const entry = JSON.parse(line) as LogLine
        // A long run (soak) keeps no lines: its driver's memory stays flat
        if (keepLines) parsed.push(entry)
        const match = /^Server listening at http:\/\/127\.0\.0\.1:([0-9]+)$/.exec(String(entry.msg))
        if (match !== null) resolve(Number(match[1]))
      }
    })
    child.on('exit', () => reject(new Error('server exited before listening')))
  })
  let timer: NodeJS.Timeout | undefined
  try {
    const port = await Promise.race([
      listening,
      new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('server did not listen within 30 s')), 30_000) })
    ])
    return { child, port, lines: () => parsed, exit }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  } finally {
    clearTimeout(timer)
  }
}
