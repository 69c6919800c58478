import t from 'tap'
import { createProtocol, kindOf } from '../../../src/mcp/server.js'
import { toolsOf, type Tool } from '../../../src/mcp/tools.js'
import { build } from '../../helper.js'

t.test('kindOf reads the JSON-RPC 2.0 envelope', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }, 'request'],
    [{ jsonrpc: '2.0', id: 'a', method: 'x', params: 5 }, 'request'],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }, 'notification'],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, 'invalid'],
    [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }, 'invalid'],
    [{ jsonrpc: '2.0', id: 2 ** 53, method: 'ping' }, 'invalid'],
    [{ jsonrpc: '2.0', id: 1, result: {} }, 'response'],
    [{ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }, 'response'],
    [{ jsonrpc: '2.0', id: 1 }, 'invalid'],
    [{ jsonrpc: '1.0', id: 1, method: 'ping' }, 'invalid'],
    [{ id: 1, method: 'ping' }, 'invalid'],
    [null, 'invalid'],
    ['ping', 'invalid'],
    [[], 'invalid']
  ]
  for (const [message, kind] of cases) t.equal(kindOf(message), kind, JSON.stringify(message))
})

t.test('a tool that fails unexpectedly: -32603 with no detail, the failure told to onUnexpected', async (t) => {
  const failures: unknown[] = []
  const failing: Tool = {
    description: { name: 'generate_broken', title: 'x', description: 'x', inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false } },
    call: () => { throw new Error('internal detail /srv/secret') }
  }
  const protocol = await createProtocol([failing], (error) => failures.push(error))
  const response = await protocol.answer({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'generate_broken' } }, {})
  t.same(response, { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Internal error' } })
  t.equal(failures.length, 1)
  t.match(String(failures[0]), /internal detail/)
  // A request the Server would not take as one (params no object) is answered, never left hanging
  const odd = await protocol.answer({ jsonrpc: '2.0', id: 4, method: 'resources/list', params: 5 } as never, {})
  t.same(odd, { jsonrpc: '2.0', id: 4, error: { code: -32600, message: 'Invalid Request' } })
  t.equal((await protocol.answer({ jsonrpc: '2.0', id: 5, method: 'resources/list' }, {}) as { error: { code: number } }).error.code, -32601)
})

t.test('toolsOf refuses a route whose schemas are not object schemas of the document', async (t) => {
  const app = await build(t)
  const document = {
    paths: { '/x': { post: { summary: 's', description: 'd', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } } }, responses: {} } } },
    components: { schemas: {} }
  }
  t.throws(() => toolsOf(app, document, [{ url: '/x', method: 'POST', body: { $ref: 'PasswordParams#' }, tool: { name: 'x', precheck: () => undefined, answer: () => ({}) }, readsValidationErrors: false }]), /Missing/)
})
