// CONTRACT §11 against clients we did not write: the official SDK's Client over its
// StreamableHTTPClientTransport, talking to a listening app over real HTTP.
import t from 'tap'
import { createHash } from 'node:crypto'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { build, GENERATORS, post } from '../helper.js'
import { toolName } from '../../src/mcp/tools.js'

interface Teardown { teardown: (fn: () => unknown) => void }

async function listening (t: Teardown, env: Record<string, string> = {}): Promise<{ url: URL, app: Awaited<ReturnType<typeof build>> }> {
  const app = await build(t, env)
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  return { url: new URL(`${address}/mcp`), app }
}

async function connected (t: Teardown, url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'randgen-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }))
  t.teardown(() => client.close())
  return client
}

t.test('the SDK client: initialize, list, every tool at its defaults, results valid against outputSchema', async (t) => {
  const { url, app } = await listening(t)
  const client = await connected(t, url)
  t.same(client.getServerVersion(), { name: 'randgen', version: '1.0.0' })
  t.same(client.getServerCapabilities(), { tools: {} })
  t.match(client.getInstructions(), /randgen/)
  await client.ping()
  const { tools } = await client.listTools()
  t.same(tools.map((tool) => tool.name).sort(), [...GENERATORS.map(toolName), 'generate_set'].sort())
  // A JSON Schema 2020-12 validator of our own choosing, beside the SDK's own check of structuredContent
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  for (const type of GENERATORS) {
    const tool = tools.find((candidate) => candidate.name === toolName(type))
    const result = await client.callTool({ name: toolName(type) }, CallToolResultSchema)
    t.notOk(result.isError, type)
    const structured = result.structuredContent as Record<string, unknown>
    t.equal(structured.type, type)
    t.ok(ajv.validate(tool?.outputSchema as object, structured), `${type}: the answer fits outputSchema`)
    t.ok(ajv.validate(tool?.inputSchema as object, {}), `${type}: {} fits inputSchema`)
    t.same(Object.keys(structured), Object.keys((await post(app, type, {})).json()), `${type}: the route's fields`)
  }
  // generate_set has no defaults to call with (items are required): a WireGuard peer and an app token
  const setTool = tools.find((candidate) => candidate.name === 'generate_set')
  const items = [{ name: 'WG', type: 'vpn', params: { protocol: 'wireguard' } }, { name: 'WG_PSK', type: 'vpn', params: { protocol: 'wireguard-psk' } }, { name: 'APP_TOKEN', type: 'token' }]
  t.ok(ajv.validate(setTool?.inputSchema as object, { items }), 'generate_set: a set fits its inputSchema, which stands alone ($defs)')
  t.notOk(ajv.validate(setTool?.inputSchema as object, { items: [{ name: 'X', type: 'vpn', params: { protocol: 'nope' } }] }), 'and a wrong parameter of an item does not')
  const set = await client.callTool({ name: 'generate_set', arguments: { items } }, CallToolResultSchema)
  t.notOk(set.isError)
  t.ok(ajv.validate(setTool?.outputSchema as object, set.structuredContent), 'generate_set: the answer fits outputSchema')
  t.same((set.structuredContent as { items: Array<{ name: string }> }).items.map((item) => item.name), ['WG', 'WG_PSK', 'APP_TOKEN'])
})

t.test('the SDK client: invalid arguments are a result with the problem document, unknown tools an error', async (t) => {
  const { url } = await listening(t)
  const client = await connected(t, url, { 'X-Language': 'fr' })
  const result = await client.callTool({ name: 'generate_password', arguments: { length: 500, lenght: 1 } })
  t.equal(result.isError, true)
  t.equal(result.structuredContent, undefined)
  const problem = JSON.parse((result.content as Array<{ text: string }>)[0]?.text as string)
  t.equal(problem.code, 'VALIDATION_FAILED')
  t.same(problem.errors.map((error: { pointer: string }) => error.pointer).sort(), ['#/lenght', '#/length'])
  t.match(problem.title, /invalide/i, 'in the language of the HTTP request')
  await t.rejects(client.callTool({ name: 'generate_nothing', arguments: {} }), { code: -32602 })
})

t.test('the SDK client with access keys on: a static Authorization header', async (t) => {
  const key = 'rg_client_test_key_0123'
  const { url } = await listening(t, { API_KEY_HASHES: createHash('sha256').update(key).digest('hex') })
  const client = await connected(t, url, { Authorization: `Bearer ${key}` })
  const result = await client.callTool({ name: 'generate_token', arguments: { quantity: 2 } })
  t.equal((result.structuredContent as { hashes: string[] }).hashes.length, 2)
  const refused = new Client({ name: 'randgen-test', version: '1.0.0' })
  await t.rejects(refused.connect(new StreamableHTTPClientTransport(url)), 'without the key, initialize is refused')
  await refused.close()
})
