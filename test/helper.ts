// Builds the app exactly as production does (same Fastify options via src/server-options.ts).
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'

interface Teardown { teardown: (fn: () => unknown) => void }

export interface BuiltApp {
  app: FastifyInstance
  /** Every log line written so far, raw. */
  logs: () => string
}

export async function build (t: Teardown, env: Record<string, string> = {}): Promise<FastifyInstance> {
  return (await buildWithLogs(t, env)).app
}

/** The app with its log captured (LOG_LEVEL as given, `silent` by default). */
export async function buildWithLogs (t: Teardown, env: Record<string, string> = {}): Promise<BuiltApp> {
  const lines: string[] = []
  const stream = new Writable({
    write (chunk, _encoding, callback) {
      lines.push(chunk.toString())
      callback()
    }
  })
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', ...env }), { logStream: stream })
  await app.ready()
  t.teardown(() => app.close())
  return { app, logs: () => lines.join('') }
}

/** Base64 of the JSON of `value`: what a client puts in X-Data. */
export function xData (value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64')
}
