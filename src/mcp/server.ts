// CONTRACT §11: the JSON-RPC side of /mcp, with the official SDK's low-level `Server` and our own
// tools/list and tools/call handlers. Loaded by plugins/mcp.ts on the first request to /mcp, so a
// process that never serves MCP never loads the SDK (idle memory, start-up time).
//
// Why not the SDK's HTTP transports: StreamableHTTPServerTransport (and its web-standard twin)
// writes its own answers on the raw response, outside Fastify's reply (so outside our problem
// documents and the hooks' headers), processes JSON-RPC batches, which §11 refuses, and a
// stateless one serves a single request, so each request would build a new Server and transport.
// Here one Server is connected once to an in-process transport; plugins/mcp.ts does the HTTP part
// inside Fastify's request cycle and hands each JSON-RPC request over.
//
// tools/call, the one request an agent makes again and again, is answered here directly (its
// params checked with the SDK's own CallToolRequestSchema): through the Server it cost ~40 µs of
// CPU per call (an AbortController per request, and the SDK's message-type guards, which try the
// response schemas first and build a parse error for each miss), more than half of what the
// whole REST request costs, where issue 33 allows a tool call 1.5x its route.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  ListToolsRequestSchema,
  PingRequestSchema,
  type CallToolRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId
} from '@modelcontextprotocol/sdk/types.js'
import type { IncomingHttpHeaders } from 'node:http'
import { negotiateLanguage } from '../i18n/index.js'
import { SERVICE_NAME, SERVICE_VERSION } from '../version.js'
import type { Tool } from './tools.js'

export const INSTRUCTIONS = 'randgen draws random values from the operating system\'s CSPRNG: passwords, passphrases, PINs, ' +
  'integers, UUIDs and short IDs, API tokens, TOTP secrets, BIP-39 phrases, random bytes, and WireGuard, REALITY, ' +
  'post-quantum, SSH and age key pairs. Call a tool whenever a configuration, test or script needs such a value ' +
  'instead of writing one yourself: values a model writes are predictable. Each result says its entropyBits. ' +
  'A value you receive passes through your context and your model provider; for a secret that must not, tell ' +
  'the user to make it on the randgen page or with curl instead.'

/** What an HTTP body is to JSON-RPC: a request answers with a response, the others with 202. */
export type MessageKind = 'request' | 'notification' | 'response' | 'invalid'

/** JSON-RPC's id as MCP takes it: a string or an integer (the SDK's RequestIdSchema: safe integers). */
function isRequestId (id: unknown): boolean {
  return typeof id === 'string' || Number.isSafeInteger(id)
}

/**
 * The kind of a JSON-RPC 2.0 message, read from its envelope (a few property reads where the
 * SDK's guards run schemas). A message with a method and an `id` that is no JSON-RPC id (null, a
 * fraction, past 2^53) is invalid, not a notification: its sender waits for an answer.
 */
export function kindOf (message: unknown): MessageKind {
  if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') return 'invalid'
  const { method, id } = message as { method?: unknown, id?: unknown }
  if (typeof method === 'string') {
    if (!Object.hasOwn(message, 'id')) return 'notification'
    return isRequestId(id) ? 'request' : 'invalid'
  }
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) ? 'response' : 'invalid'
}

/** A JSON-RPC response as /mcp sends it. */
export type Response = { jsonrpc: '2.0', id: RequestId, result: Record<string, unknown> } |
{ jsonrpc: '2.0', id: RequestId, error: { code: number, message: string, data?: unknown } }

/** The requests answered, by method, with the SDK's schema of each. */
const REQUESTS = new Map<string, { safeParse: (value: unknown) => { success: boolean } }>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema]
])

interface Pending {
  id: RequestId
  resolve: (response: Response) => void
}

/**
 * The Server's end of the HTTP exchanges: each request is handed over under an id of its own
 * (clients all count from 0 or 1, and the Server keys requests in flight by id), and its
 * response goes back to the exchange that sent it, under the client's id.
 */
class ExchangeTransport implements Transport {
  onmessage?: Transport['onmessage']
  private next = 0
  private readonly pending = new Map<number, Pending>()

  async start (): Promise<void> {}
  async close (): Promise<void> {}

  async send (message: JSONRPCMessage): Promise<void> {
    // The Server sends nothing of its own here (it makes no requests of the client and sends no
    // notifications: no logging, no list changes): only the responses to what it was handed,
    // each under the id it was given
    const id = (message as { id: number }).id
    const exchange = this.pending.get(id) as Pending
    this.pending.delete(id)
    const { result, error } = message as { result?: Record<string, unknown>, error?: { code: number, message: string, data?: unknown } }
    exchange.resolve(error === undefined ? { jsonrpc: '2.0', id: exchange.id, result: result as Record<string, unknown> } : { jsonrpc: '2.0', id: exchange.id, error })
  }

  exchange (request: JSONRPCRequest, headers: IncomingHttpHeaders): Promise<Response> {
    // 2^53 requests are not made in a process's life
    const id = this.next++
    const deliver = this.onmessage as NonNullable<Transport['onmessage']>
    return new Promise((resolve) => {
      this.pending.set(id, { id: request.id, resolve })
      deliver({ ...request, id }, { requestInfo: { headers } })
    })
  }
}

export interface McpProtocol {
  /** The answer to one JSON-RPC request (kindOf gave 'request'); `headers` are the HTTP request's. */
  answer: (request: JSONRPCRequest, headers: IncomingHttpHeaders) => Promise<Response>
}

/**
 * One Server for the process with the tools given. `onUnexpected` is told of a tool's unexpected
 * failure (the client gets -32603 with no detail, as a 500 says nothing of internals).
 */
export async function createProtocol (tools: readonly Tool[], onUnexpected: (error: unknown) => void): Promise<McpProtocol> {
  const byName = new Map(tools.map((tool) => [tool.description.name, tool]))
  const list = { tools: tools.map((tool) => tool.description) }
  const server = new Server({ name: SERVICE_NAME, version: SERVICE_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS })
  // Protocol errors would carry the message that caused them; nothing a client sends is logged
  server.onerror = () => {}
  server.setRequestHandler(ListToolsRequestSchema, () => list)
  const transport = new ExchangeTransport()
  await server.connect(transport)

  const callTool = async (request: JSONRPCRequest, headers: IncomingHttpHeaders): Promise<Response> => {
    const { name, arguments: args = {} } = (request as unknown as CallToolRequest).params
    const tool = byName.get(name)
    // CONTRACT §11: JSON-RPC's invalid params, not a result (the name is not echoed: request data)
    if (tool === undefined) return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InvalidParams, message: 'Unknown tool' } }
    try {
      // A tool that hashes (CONTRACT §12) answers when its hashes are made
      return { jsonrpc: '2.0', id: request.id, result: await tool.call(args, negotiateLanguage(headers)) }
    } catch (error) {
      onUnexpected(error)
      return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InternalError, message: 'Internal error' } }
    }
  }

  return {
    answer: (request, headers) => {
      // The Server parses a request's params when it runs the handler, and a mismatch there
      // becomes -32603 quoting the parser's report; the same parse done first makes it what it
      // is, JSON-RPC's invalid params, echoing nothing of the request
      const schema = REQUESTS.get(request.method)
      if (schema !== undefined && !schema.safeParse(request).success) {
        return Promise.resolve({ jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InvalidParams, message: 'Invalid params' } })
      }
      if (request.method === 'tools/call') return callTool(request, headers)
      // The SDK's own guard, the one the Server applies: a request it would not take as one
      // (params that are no object, say) would never be answered
      if (!isJSONRPCRequest(request as unknown)) return Promise.resolve({ jsonrpc: '2.0', id: (request as JSONRPCRequest).id, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request' } })
      return transport.exchange(request, headers)
    }
  }
}
