// CONTRACT §11: /mcp over HTTP, as a client sees it through app.inject (the SDK's own client
// against a listening app: test/plugins/mcp-client.test.ts).
import t, { type Test } from 'tap'
import { createHash } from 'node:crypto'
import { build, callTool, GENERATORS, ISO_MILLIS, mcpRpc, post } from '../helper.js'
import { SECURITY_HEADERS } from '../../src/http/security-headers.js'
import { toolName } from '../../src/mcp/tools.js'

const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } } }

function securityHeaders (t: Test, headers: Record<string, unknown>, what: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) t.equal(headers[name], value, `${what}: ${name}`)
}

t.test('initialize: serverInfo randgen, the tools capability, instructions; no session', async (t) => {
  const app = await build(t)
  for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
    const response = await mcpRpc(app, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: version } })
    t.equal(response.statusCode, 200)
    t.match(response.headers['content-type'], /^application\/json/)
    t.equal(response.headers['mcp-session-id'], undefined, 'stateless: no session')
    securityHeaders(t, response.headers, 'initialize')
    const { jsonrpc, id, result } = response.json()
    t.same([jsonrpc, id], ['2.0', 0])
    t.equal(result.protocolVersion, version, `${version} accepted`)
    t.same(result.serverInfo, { name: 'randgen', version: '1.0.0' })
    t.same(result.capabilities, { tools: {} })
    t.match(result.instructions, /instead of writing one yourself/)
  }
})

t.test('ping; a notification and a response get 202 with no body', async (t) => {
  const app = await build(t)
  const ping = await mcpRpc(app, { jsonrpc: '2.0', id: 'p-1', method: 'ping' })
  t.same(ping.json(), { jsonrpc: '2.0', id: 'p-1', result: {} })
  for (const message of [
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
    { jsonrpc: '2.0', id: 7, result: {} },
    { jsonrpc: '2.0', id: 7, error: { code: -1, message: 'no' } }
  ]) {
    const response = await mcpRpc(app, message)
    t.equal(response.statusCode, 202, JSON.stringify(message))
    t.equal(response.body, '')
    t.equal(response.headers['cache-control'], 'no-store')
  }
})

t.test('tools/list: one tool per generator, annotated, schemas closed', async (t) => {
  const app = await build(t)
  const { result } = (await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).json()
  t.same(result.tools.map((tool: { name: string }) => tool.name).sort(), [...GENERATORS.map(toolName), 'generate_set'].sort(), 'one per generator, and generate_set')
  t.ok(result.tools.some((tool: { name: string }) => tool.name === 'generate_short_id'))
  t.ok(result.tools.some((tool: { name: string }) => tool.name === 'generate_ssh_key'))
  for (const tool of result.tools) {
    t.same(tool.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false }, tool.name)
    t.equal(tool.inputSchema.type, 'object')
    t.equal(tool.inputSchema.additionalProperties, false, `${tool.name}: unknown arguments refused`)
    t.equal(tool.outputSchema.type, 'object')
    t.ok(tool.description.length > 40)
  }
})

t.test('every tool at its defaults answers what its route answers, counted as values', async (t) => {
  const app = await build(t, { METRICS_PORT: '0' })
  for (const type of GENERATORS) {
    const response = await callTool(app, toolName(type))
    t.equal(response.statusCode, 200)
    const { result } = response.json()
    t.equal(result.isError, undefined, type)
    const rest = (await post(app, type, {})).json()
    const structured = result.structuredContent
    t.same(Object.keys(structured), Object.keys(rest), `${type}: the route's fields, in its order`)
    t.equal(structured.type, type)
    t.equal(structured.entropyBits, rest.entropyBits, `${type}: the same strength`)
    t.equal(structured.values.length, 1)
    t.match(structured.generatedAt, ISO_MILLIS)
    t.same(result.content, [{ type: 'text', text: JSON.stringify(structured) }], `${type}: one text item holding the answer`)
  }
  const metrics = await (await fetch(`${app.metricsUrl() as string}/metrics`)).text()
  t.match(metrics, /randgen_values_generated_total\{generator="short-id"\} 2/, 'values by generator: the tool call and the REST call')
  t.match(metrics, new RegExp(`randgen_http_request_duration_seconds_count\\{route="/mcp",method="POST",status_class="2xx"\\} ${GENERATORS.length}\\b`), 'tool calls under the route /mcp')
})

t.test('a call with arguments is the route with the same parameters', async (t) => {
  const app = await build(t)
  const cases: Array<[string, Record<string, unknown>, (body: { values: string[], entropyBits: number, publicKeys?: string[], hashes?: string[] }) => void]> = [
    ['password', { length: 32, symbols: false, quantity: 3 }, (body) => {
      t.equal(body.values.length, 3)
      t.ok(body.values.every((value) => /^[A-Za-z0-9]{32}$/.test(value)))
    }],
    ['vpn', { protocol: 'wireguard', quantity: 2 }, (body) => t.equal(body.publicKeys?.length, 2)],
    ['token', { prefix: 'rg' }, (body) => t.equal(body.hashes?.[0], createHash('sha256').update(body.values[0] as string).digest('hex'))],
    ['number', { min: 1, max: 6, quantity: 5 }, (body) => t.ok(body.values.every((value) => /^[1-6]$/.test(value)))],
    // `"` in the alphabet: written through the escaping path by the route, plain JSON here
    ['password', { length: 40, symbolSet: '"\\' }, (body) => t.match(body.values[0], /["\\]/)]
  ]
  for (const [type, args, check] of cases) {
    const { result } = (await callTool(app, toolName(type), args)).json()
    check(result.structuredContent)
    t.same(JSON.parse(result.content[0].text), result.structuredContent)
    t.equal(result.structuredContent.entropyBits, (await post(app, type, args)).json().entropyBits, `${type}: same entropy as the route`)
  }
})

t.test('invalid arguments: isError with the problem document of the route, in the request language', async (t) => {
  const app = await build(t, { METRICS_PORT: '0' })
  const cases: Array<[string, unknown, Record<string, string>]> = [
    ['password', { length: 3 }, {}],
    ['password', { length: 3 }, { 'x-language': 'de-DE' }],
    ['password', { lenght: 20, length: '20' }, { 'accept-language': 'ru, en;q=0.5' }],
    // A rule the schema cannot state (the generator's own check)
    ['password', { uppercase: false, lowercase: false, numbers: false, symbols: false }, { 'x-language': 'fr' }],
    ['number', { min: 5, max: 1 }, { 'x-language': 'es' }],
    // The precheck: an array over its limit
    ['number', { exclusions: Array.from({ length: 1001 }, (_, i) => i) }, {}],
    ['pin', { length: null }, {}]
  ]
  for (const [type, args, headers] of cases) {
    const response = await callTool(app, toolName(type), args, headers)
    t.equal(response.statusCode, 200, 'a tool result, not an HTTP error')
    const { result } = response.json()
    t.equal(result.isError, true)
    t.equal(result.structuredContent, undefined, 'no structuredContent')
    t.equal(result.content.length, 1)
    t.equal(result.content[0].type, 'text')
    const rest = await post(app, type, args, headers)
    t.equal(rest.statusCode, 400)
    t.same(JSON.parse(result.content[0].text), rest.json(), `${type} ${JSON.stringify(args).slice(0, 40)}: the route's problem document`)
  }
  const metrics = await (await fetch(`${app.metricsUrl() as string}/metrics`)).text()
  t.match(metrics, /randgen_problems_total\{code="VALIDATION_FAILED"\} 14/, 'the refusals are counted as problems')
})

t.test('protocol errors: unknown tool -32602, unknown method -32601, arguments not an object -32602', async (t) => {
  const app = await build(t)
  const unknown = await callTool(app, 'generate_nothing', {})
  t.equal(unknown.statusCode, 200)
  t.equal(unknown.json().error.code, -32602)
  t.equal(unknown.json().result, undefined)
  t.equal((await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'resources/list' })).json().error.code, -32601)
  t.equal((await callTool(app, 'generate_password', [1, 2])).json().error.code, -32602)
  t.equal((await callTool(app, 'generate_password', 'length=20')).json().error.code, -32602)
  const badName = (await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5 } })).json()
  t.same(badName, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params' } }, 'the parser\'s report is not echoed')
  t.equal((await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { x: 1 } })).json().error.code, -32602)
})

t.test('transport refusals: JSON-RPC errors with id null', async (t) => {
  const app = await build(t)
  const refused = async (response: Awaited<ReturnType<typeof mcpRpc>>, status: number, code: number, what: string) => {
    t.equal(response.statusCode, status, what)
    t.match(response.headers['content-type'], /^application\/json/)
    t.equal(response.json().jsonrpc, '2.0')
    t.equal(response.json().id, null, `${what}: id null`)
    t.equal(response.json().error.code, code, what)
    securityHeaders(t, response.headers, what)
  }
  await refused(await mcpRpc(app, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]), 400, -32600, 'a batch')
  await refused(await mcpRpc(app, []), 400, -32600, 'an empty batch')
  await refused(await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2024-11-05' }), 400, -32600, 'an old protocol version')
  await refused(await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': 'nonsense' }), 400, -32600, 'no protocol version')
  for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
    t.equal((await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': version })).statusCode, 200, `${version} in the header`)
  }
  for (const message of [{}, { jsonrpc: '1.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: null, method: 'ping' }, { jsonrpc: '2.0', id: 1.5, method: 'ping' }, { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' }, 'ping', 42, null]) {
    await refused(await mcpRpc(app, message), 400, -32600, `not JSON-RPC: ${JSON.stringify(message)}`)
  }
  await refused(await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: '{"jsonrpc":' }), 400, -32700, 'not JSON')
  await refused(await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: Buffer.from([0x7b, 0xff, 0x7d]) }), 400, -32700, 'not UTF-8')
  await refused(await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' }), 400, -32700, 'prototype poisoning')
  await refused(await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'text/plain' }, payload: 'ping' }), 415, -32600, 'not JSON by its type')
  await refused(await app.inject({ method: 'POST', url: '/mcp' }), 400, -32600, 'no body')
})

t.test('413 and 404 stay problem documents; GET and DELETE 405 with Allow', async (t) => {
  const app = await build(t)
  const large = await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }) })
  t.equal(large.statusCode, 413)
  t.equal(large.json().code, 'PAYLOAD_TOO_LARGE')
  t.match(large.headers['content-type'], /^application\/problem\+json/)
  const notFound = await app.inject({ method: 'POST', url: '/mcp/x', headers: { 'content-type': 'application/json' }, payload: '{}' })
  t.equal(notFound.statusCode, 404)
  t.equal(notFound.json().code, 'NOT_FOUND')
  for (const method of ['GET', 'DELETE', 'HEAD', 'PUT'] as const) {
    const response = await app.inject({ method, url: '/mcp', headers: { 'x-language': 'de' } })
    t.equal(response.statusCode, 405, method)
    t.equal(response.headers.allow, 'OPTIONS, POST', method)
    t.equal(response.headers['content-language'], 'de')
    if (method !== 'HEAD') t.equal(response.json().code, 'METHOD_NOT_ALLOWED')
    securityHeaders(t, response.headers, method)
  }
})

t.test('Origin: foreign refused with 403 before anything else; loopback and listed ones allowed with CORS', async (t) => {
  const app = await build(t, { MCP_ALLOWED_ORIGINS: 'https://inspector.example.com, http://10.0.0.5:6274', API_KEY_HASHES: createHash('sha256').update('rg_0123456789abcdef').digest('hex') })
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' }
  const key = { authorization: 'Bearer rg_0123456789abcdef' }
  for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'http://127.0.0.1.nip.io', 'null', 'not a url', 'file:///etc', 'https://inspector.example.com:444', 'http://inspector.example.com', 'http://[::2]']) {
    // No key and a batch: the Origin is refused first all the same
    for (const response of [await mcpRpc(app, ping, { origin, ...key }), await mcpRpc(app, [ping], { origin }), await app.inject({ method: 'GET', url: '/mcp', headers: { origin } }), await app.inject({ method: 'OPTIONS', url: '/mcp', headers: { origin, 'access-control-request-method': 'POST' } })]) {
      t.equal(response.statusCode, 403, origin)
      t.equal(response.json().id, null)
      t.equal(response.headers['access-control-allow-origin'], undefined)
      t.equal(response.headers['cache-control'], 'no-store')
    }
  }
  for (const origin of ['http://localhost:6274', 'https://localhost', 'http://127.0.0.1:3000', 'http://127.8.9.10', 'http://[::1]:8080', 'https://inspector.example.com', 'http://10.0.0.5:6274']) {
    const response = await mcpRpc(app, ping, { origin, ...key })
    t.equal(response.statusCode, 200, origin)
    t.equal(response.headers['access-control-allow-origin'], origin, `${origin}: CORS`)
    t.match(response.headers.vary, /Origin/)
    const preflight = await app.inject({ method: 'OPTIONS', url: '/mcp', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } })
    t.equal(preflight.statusCode, 204, `${origin}: preflight, no key asked`)
    t.equal(preflight.headers['access-control-allow-origin'], origin)
    t.equal(preflight.headers['access-control-allow-methods'], 'POST')
    t.match(preflight.headers['access-control-allow-headers'], /Authorization/)
    t.match(preflight.headers['access-control-allow-headers'], /Mcp-Protocol-Version/)
    // A 401 to an allowed origin is readable by its page: CORS on the problem document too
    const unauthorized = await mcpRpc(app, ping, { origin })
    t.equal(unauthorized.statusCode, 401)
    t.equal(unauthorized.headers['access-control-allow-origin'], origin)
  }
  const plain = await app.inject({ method: 'OPTIONS', url: '/mcp' })
  t.equal(plain.statusCode, 204)
  t.equal(plain.headers.allow, 'OPTIONS, POST')
  t.equal(plain.headers['access-control-allow-methods'], undefined, 'no Origin, no CORS')
  t.equal((await mcpRpc(app, ping, key)).statusCode, 200, 'no Origin: allowed (not a browser)')
})

t.test('access keys: /mcp asks for them as the generator routes do', async (t) => {
  const app = await build(t, { API_KEY_HASHES: createHash('sha256').update('rg_0123456789abcdef').digest('hex') })
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' }
  const missing = await mcpRpc(app, ping, { 'x-language': 'ru' })
  t.equal(missing.statusCode, 401)
  t.equal(missing.json().code, 'UNAUTHORIZED')
  t.equal(missing.headers['content-language'], 'ru')
  t.equal(missing.headers['www-authenticate'], 'Bearer realm="randgen"')
  const wrong = await mcpRpc(app, ping, { authorization: 'Bearer rg_wrongwrongwrong0' })
  t.equal(wrong.statusCode, 401)
  t.equal(wrong.headers['www-authenticate'], 'Bearer realm="randgen", error="invalid_token"')
  t.equal((await mcpRpc(app, ping, { authorization: 'Bearer rg_0123456789abcdef' })).statusCode, 200)
  const tool = await callTool(app, 'generate_uuid', {}, { authorization: 'bearer rg_0123456789abcdef' })
  t.equal(tool.json().result.structuredContent.type, 'uuid')
})

t.test('MCP_ENABLED=false: /mcp is no route', async (t) => {
  const app = await build(t, { MCP_ENABLED: 'false' })
  const response = await mcpRpc(app, INITIALIZE)
  t.equal(response.statusCode, 404)
  t.equal(response.json().code, 'NOT_FOUND')
  t.equal((await app.inject({ method: 'GET', url: '/mcp' })).statusCode, 404)
  t.equal((await post(app, 'password', {})).statusCode, 200, 'the routes are still there')
})

t.test('requests in flight with the same id from different clients each get their own answer', async (t) => {
  const app = await build(t)
  const responses = await Promise.all(GENERATORS.map((type) => mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: toolName(type) } })))
  t.same(responses.map((response) => response.json().result.structuredContent.type), [...GENERATORS])
  t.ok(responses.every((response) => response.json().id === 1))
})

t.test('generate_set: the JSON form of /api/generate, every problem of the set in one problem document', async (t) => {
  const app = await build(t, { METRICS_PORT: '0' })
  const { result: list } = (await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).json()
  const tool = list.tools.find((candidate: { name: string }) => candidate.name === 'generate_set')
  t.ok(tool.inputSchema.$defs.SetItem, 'the items\' schemas travel with the tool ($defs)')
  t.notOk(JSON.stringify(tool.inputSchema).includes('#/components/'), 'no reference into a document the client does not have')
  t.notOk(JSON.stringify(tool.inputSchema).includes('"discriminator"'), 'no OpenAPI keyword a JSON Schema validator does not know')
  t.equal(tool.inputSchema.additionalProperties, false)

  const items = [{ name: 'DB_PASSWORD', type: 'password', params: { length: 32, symbols: false } }, { name: 'KEY', type: 'age-key' }, { name: 'ID', type: 'uuid' }]
  const { result } = (await callTool(app, 'generate_set', { items })).json()
  t.equal(result.isError, undefined)
  const rest = (await app.inject({ method: 'POST', url: '/api/generate', payload: { items } })).json()
  const structured = result.structuredContent
  t.same(Object.keys(structured), Object.keys(rest), 'the fields of /api/generate\'s JSON answer')
  t.same(structured.items.map((item: Record<string, unknown>) => Object.keys(item)), rest.items.map((item: Record<string, unknown>) => Object.keys(item)), 'each item as the route answers it')
  t.same(structured.items.map((item: { entropyBits: number }) => item.entropyBits), rest.items.map((item: { entropyBits: number }) => item.entropyBits), 'drawn as the route draws')
  t.match(structured.items[0].values[0], /^[A-Za-z0-9]{32}$/)
  t.same(result.content, [{ type: 'text', text: JSON.stringify(structured) }])
  const metrics = await (await fetch(`${app.metricsUrl() as string}/metrics`)).text()
  t.match(metrics, /randgen_values_generated_total\{generator="age-key"\} 2/, 'the items\' values counted by generator')

  // A schema problem (AJV's) and the set's own (a duplicate name) in one document, as the route lists them
  const bad = [{ name: 'A', type: 'password', params: { length: 3 } }, { name: 'A', type: 'uuid' }]
  const refused = (await callTool(app, 'generate_set', { items: bad }, { 'x-language': 'de' })).json().result
  t.equal(refused.isError, true)
  t.equal(refused.structuredContent, undefined)
  const problem = JSON.parse(refused.content[0].text)
  const route = (await app.inject({ method: 'POST', url: '/api/generate', headers: { 'x-language': 'de' }, payload: { items: bad } })).json()
  t.same(problem, route, 'the problem document /api/generate answers, in German')
  t.same(problem.errors.map((error: { pointer: string, code: string }) => `${error.pointer} ${error.code}`).sort(), ['#/items/0/params/length OUT_OF_RANGE', '#/items/1/name DUPLICATE_NAME'])
  // More array items than one route takes, over several items: checked item by item with the tool's
  // validator, as the route checks them, and refused at once
  const long = [0, 1].map((index) => ({ name: `N${index}`, type: 'number', params: { exclusions: Array.from({ length: 600 }, () => 'x') } }))
  const longProblem = JSON.parse((await callTool(app, 'generate_set', { items: long })).json().result.content[0].text)
  const longRoute = (await app.inject({ method: 'POST', url: '/api/generate', payload: { items: long } })).json()
  t.same(longProblem, longRoute, 'long arrays: the problem document the route answers')
  t.equal(longProblem.errors.length, 20, 'at most 20 problems')
  const empty = JSON.parse((await callTool(app, 'generate_set', {})).json().result.content[0].text)
  t.same(empty.errors.map((error: { code: string }) => error.code), ['REQUIRED'], 'no items: REQUIRED')
})
