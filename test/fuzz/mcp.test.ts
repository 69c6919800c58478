// Fuzzing /mcp (CONTRACT §11) through app.inject: arbitrary JSON, JSON-RPC-shaped messages with
// arbitrary ids, methods and params, tools/call with arbitrary arguments for every tool, huge
// ids, deeply nested params and wrong types. Never a 5xx, never a hang (each exchange bounded),
// every answer a JSON-RPC message, a problem document or an empty 202; the app answers afterwards.
// MCP_FUZZ_CASES (default 1,500) is split across the properties.
import t from 'tap'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { build, GENERATORS } from '../helper.js'
import { toolName } from '../../src/mcp/tools.js'

const TOTAL = Number(process.env.MCP_FUZZ_CASES ?? 1500)
const TIMEOUT_MS = 5000
const TOOLS = GENERATORS.map(toolName)
const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'notifications/initialized', 'notifications/cancelled', 'resources/list', 'logging/setLevel', 'completion/complete']

async function exchange (app: FastifyInstance, payload: string, headers: Record<string, string> = {}): Promise<{ status: number, body: string, type: string | undefined }> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS) })
  try {
    const response = await Promise.race([app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', ...headers }, payload }), timeout])
    return { status: response.statusCode, body: response.body, type: response.headers['content-type'] as string | undefined }
  } finally {
    clearTimeout(timer)
  }
}

/** The invariants of every answer; a description of what broke, or undefined. */
function broken ({ status, body, type }: Awaited<ReturnType<typeof exchange>>): string | undefined {
  if (status >= 500) return `status ${status}`
  if (status === 202) return body === '' ? undefined : '202 with a body'
  if (![200, 400, 413, 415].includes(status)) return `status ${status}`
  let parsed: any
  try {
    parsed = JSON.parse(body)
  } catch {
    return 'a body that is not JSON'
  }
  if (status === 413) return type?.startsWith('application/problem+json') === true && parsed.code === 'PAYLOAD_TOO_LARGE' ? undefined : '413 without its problem document'
  if (parsed.jsonrpc !== '2.0') return 'not JSON-RPC'
  if (status === 200) return ('result' in parsed) !== ('error' in parsed) ? undefined : 'neither result nor error'
  return parsed.id === null && typeof parsed.error?.code === 'number' ? undefined : 'a refusal without id null and a code'
}

const id = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.constant(2 ** 64), fc.constant(-(2 ** 70)), fc.string({ minLength: 1000, maxLength: 5000 }), fc.constant(1e308))

function deep (depth: number): unknown {
  let value: unknown = 'x'
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value]
  return value
}

const properties: Array<[string, number, fc.Arbitrary<{ payload: string, headers?: Record<string, string> }>]> = [
  ['arbitrary JSON', 0.2, fc.jsonValue({ maxDepth: 6 }).map((value) => ({ payload: JSON.stringify(value) ?? 'null' }))],
  ['JSON-RPC-shaped messages', 0.3, fc.record({
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), fc.integer()),
    id,
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string()),
    params: fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.record({ name: fc.oneof(fc.constantFrom(...TOOLS), fc.anything()), arguments: fc.jsonValue({ maxDepth: 3 }) }), fc.record({ protocolVersion: fc.string(), capabilities: fc.jsonValue(), clientInfo: fc.jsonValue() }))
  }, { requiredKeys: ['jsonrpc'] }).map((message) => ({ payload: JSON.stringify(message) }))],
  ['tools/call with arbitrary arguments', 0.35, fc.record({
    name: fc.constantFrom(...TOOLS),
    arguments: fc.dictionary(fc.oneof(fc.constantFrom('length', 'quantity', 'symbols', 'min', 'max', 'exclusions', 'protocol', 'format', 'words', 'separator', 'prefix', 'issuer', 'encoding', 'byteLength', 'language'), fc.string()), fc.jsonValue({ maxDepth: 3 })),
    language: fc.constantFrom('en', 'de', 'ru', 'fr', 'es', 'xx')
  }).map(({ name, arguments: args, language }) => ({ payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }), headers: { 'x-language': language } }))],
  ['deep params, huge ids, protocol headers', 0.15, fc.record({
    depth: fc.integer({ min: 1, max: 3000 }),
    id,
    version: fc.constantFrom(undefined, '2025-11-25', '2024-11-05', 'x'.repeat(300)),
    method: fc.constantFrom(...METHODS)
  }).map(({ depth, id, version, method }) => ({ payload: JSON.stringify({ jsonrpc: '2.0', id, method, params: { name: 'generate_password', arguments: { length: deep(depth) }, deep: deep(depth) } }), ...(version === undefined ? {} : { headers: { 'mcp-protocol-version': version } }) }))]
]

t.test(`fuzz /mcp: ${TOTAL} cases`, async (t) => {
  const app = await build(t)
  // The first request to /mcp loads the SDK and builds the tools: done before the clock of any case
  t.equal((await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: '{"jsonrpc":"2.0","id":0,"method":"ping"}' })).statusCode, 200)
  const statuses = new Map<number, number>()
  for (const [name, share, arbitrary] of properties) {
    const numRuns = Math.ceil(TOTAL * share)
    const result = await fc.check(fc.asyncProperty(arbitrary, async ({ payload, headers }) => {
      const answer = await exchange(app, payload, headers)
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
      const problem = broken(answer)
      if (problem !== undefined) throw new Error(`${problem}: ${answer.body.slice(0, 200)}`)
    }), { numRuns })
    t.notOk(result.failed, result.failed ? String(fc.defaultReportMessage(result)) : `${name}: ${numRuns} cases passed`)
  }
  t.equal((await exchange(app, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }))).status, 200, 'the app still answers')
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`)
})
