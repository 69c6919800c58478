// Builds the app exactly as production does (same Fastify options via src/server-options.ts).
import { connect } from 'node:net'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { buildApp, type BuildOptions } from '../src/app.js'
import { loadConfig } from '../src/ops/config.js'
import { encodeXData } from '../src/http/x-data.js'

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

/** Base64 of the JSON of `value`: what a client puts in X-Data (the same encoder the OpenAPI examples use). */
export const xData = encodeXData

/**
 * The app as `build` makes it but not yet ready, so a test can add a route first (e.g. one that
 * throws) or see `ready()` fail; `options` as buildApp takes them (e.g. precompiled schemas).
 */
export async function buildUnready (t: Teardown, env: Record<string, string> = {}, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', ...env }), options)
  t.teardown(() => app.close())
  return app
}

/** Every generator's path segment (CONTRACT §1). */
export const GENERATORS = ['password', 'passphrase', 'number', 'vpn', 'uuid', 'phrase', 'seq', 'short-id', 'pin', 'ssh-key', 'age-key', 'token', 'totp', 'signing-key'] as const
export type Generator = typeof GENERATORS[number]

/** CONTRACT §1.2: UTC, ISO 8601 with milliseconds. */
export const ISO_MILLIS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

type Headers = Record<string, string>

/** POST form: the parameters as a JSON body. */
export function post (app: FastifyInstance, type: string, params: unknown, headers: Headers = {}) {
  return app.inject({
    method: 'POST',
    url: `/api/generate/${type}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(params)
  })
}

/** GET form: the same parameters in X-Data. */
export function get (app: FastifyInstance, type: string, params: unknown, headers: Headers = {}) {
  return app.inject({
    method: 'GET',
    url: `/api/generate/${type}`,
    headers: { 'x-data': xData(params), ...headers }
  })
}

/**
 * Sends `request` as it is over a real socket to 127.0.0.1:`port` and returns everything the
 * server wrote until it closed: for what `inject` would normalise (framing, targets, bad bytes).
 */
export function rawRequest (port: number, request: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setTimeout(5000, () => { socket.destroy(); reject(new Error('timeout')) })
    socket.on('data', (chunk) => { answer += chunk.toString() })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.end(request)
  })
}

/** CONTRACT §11: one JSON-RPC message to MCP (`POST /mcp`). */
export function mcpRpc (app: FastifyInstance, message: unknown, headers: Headers = {}) {
  return app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: JSON.stringify(message)
  })
}

let nextMcpId = 1
/** An MCP `tools/call` of tool `name` (arguments left out when `args` is undefined). */
export function callTool (app: FastifyInstance, name: string, args?: unknown, headers: Headers = {}) {
  return mcpRpc(app, { jsonrpc: '2.0', id: nextMcpId++, method: 'tools/call', params: { name, ...(args === undefined ? {} : { arguments: args }) } }, headers)
}
