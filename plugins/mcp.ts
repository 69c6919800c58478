import fp from 'fastify-plugin'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import { ProblemError } from '../src/http/errors.js'
import { originVerdict } from '../src/mcp/origins.js'
import { MCP_PATH, toolsOf, type ToolRoute } from '../src/mcp/tools.js'
import type { McpProtocol, MessageKind } from '../src/mcp/server.js'

/** CONTRACT §11: the protocol revisions /mcp speaks; a header naming another one is refused. */
export const PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26']

/** The methods /mcp takes (GET and DELETE exist to answer 405 after the Origin check). */
export const MCP_ALLOW = 'OPTIONS, POST'

// What a browser-based client (the MCP Inspector) sends and must read, for its allowed origins
const CORS_ALLOW_HEADERS = 'Accept, Accept-Language, Authorization, Content-Type, Last-Event-ID, Mcp-Protocol-Version, Mcp-Session-Id, X-Language'
const CORS_EXPOSE_HEADERS = 'Content-Language, WWW-Authenticate'

/** JSON-RPC's own error codes (the JSON-RPC 2.0 specification, §5.1). */
export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600

/**
 * CONTRACT §11 transport refusals: a JSON-RPC error object with `"id": null`, which MCP clients
 * read where a problem document would mean nothing to them.
 */
function refuse (reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }))
}

export interface McpOptions {
  /** MCP_ENABLED */
  enabled: boolean
  /** MCP_ALLOWED_ORIGINS, as browsers write origins */
  allowedOrigins: ReadonlySet<string>
}

/**
 * CONTRACT §11: `/mcp`, the Model Context Protocol over Streamable HTTP, stateless, inside the
 * app's request cycle: the security headers, access keys, body limit, languages, metrics and
 * logging of every route hold here too. Every route that declares `config.tool` (each
 * generator's POST route) is a tool. Registered before those routes, to see them added.
 */
export default fp(async function mcp (app: FastifyInstance, options: McpOptions) {
  if (!options.enabled) return
  const { allowedOrigins } = options

  const routes: ToolRoute[] = []
  app.addHook('onRoute', (route) => {
    const tool = route.config?.tool
    if (tool !== undefined) routes.push({ url: route.url, method: route.method as string, body: route.schema?.body, tool, readsValidationErrors: route.attachValidation === true })
  })

  // The SDK, the tools' schemas (from the OpenAPI document) and their validators, on the first
  // request to /mcp: a process that never serves MCP never holds them
  let protocol: Promise<McpProtocol & { kindOf: (message: unknown) => MessageKind }> | undefined
  const protocolOf = () => {
    protocol ??= (async () => {
      const { createProtocol, kindOf } = await import('../src/mcp/server.js')
      const tools = toolsOf(app, app.swagger() as Record<string, unknown>, routes)
      const created = await createProtocol(tools, (error) => { app.log.error({ err: error }, 'unexpected error in an MCP tool') })
      return { ...created, kindOf }
    })()
    return protocol
  }

  // CONTRACT §11: before anything else (DNS rebinding), a foreign Origin is refused; the allowed
  // ones get CORS answers
  const checkOrigin: onRequestHookHandler = (request, reply, done) => {
    const origin = request.headers.origin
    const verdict = originVerdict(origin, allowedOrigins)
    if (verdict === 'foreign') {
      request.log.info({ code: 'ORIGIN_FORBIDDEN' }, 'request rejected')
      refuse(reply, 403, INVALID_REQUEST, 'Forbidden: this Origin may not use the MCP endpoint')
      return
    }
    if (verdict === 'allowed') {
      reply.header('access-control-allow-origin', origin as string)
      reply.header('access-control-expose-headers', CORS_EXPOSE_HEADERS)
      reply.header('vary', 'Origin')
    }
    done()
  }

  // Body errors, which Fastify raises before the handler, are JSON-RPC's parse error here; every
  // other error (401, 413) stays the problem document of CONTRACT §4
  const appErrorHandler = app.errorHandler
  const errorHandler = function (this: FastifyInstance, error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const code = (error as { code?: string }).code
    if (code === 'BODY_INVALID' || code === 'FST_ERR_CTP_INVALID_JSON_BODY') return refuse(reply, 400, PARSE_ERROR, 'Parse error: the body is not JSON')
    if (code === 'UNSUPPORTED_MEDIA_TYPE') return refuse(reply, 415, INVALID_REQUEST, 'Unsupported Media Type: the body must be application/json')
    return appErrorHandler.call(this, error, request, reply)
  }

  app.route({
    method: 'POST',
    url: MCP_PATH,
    schema: { hide: true },
    onRequest: checkOrigin,
    errorHandler,
    handler: async (request, reply) => {
      const body: unknown = request.body
      // CONTRACT §11: batches are refused before the SDK sees them (MCP 2025-06-18 dropped them)
      if (Array.isArray(body)) return refuse(reply, 400, INVALID_REQUEST, 'Invalid Request: JSON-RPC batches are not supported')
      const version = request.headers['mcp-protocol-version']
      if (version !== undefined && !PROTOCOL_VERSIONS.includes(version as string)) {
        return refuse(reply, 400, INVALID_REQUEST, `Bad Request: unsupported MCP-Protocol-Version (supported: ${PROTOCOL_VERSIONS.join(', ')})`)
      }
      const { kindOf, answer } = await protocolOf()
      const kind = kindOf(body)
      if (kind === 'invalid') return refuse(reply, 400, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message')
      // A notification or a response: accepted, nothing to answer (stateless: nothing to note)
      if (kind !== 'request') return reply.code(202).send()
      const response = await answer(body as Parameters<McpProtocol['answer']>[0], request.headers)
      return reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(response))
    }
  })

  // Stateless: no stream to open with GET, no session to end with DELETE (CONTRACT §11: 405);
  // PUT and PATCH alike, so each is refused after the Origin check with the same Allow
  const methodNotAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', MCP_ALLOW)
    throw new ProblemError(405, 'METHOD_NOT_ALLOWED', 'METHOD_NOT_ALLOWED', { method: request.method, allowed: MCP_ALLOW })
  }
  app.route({ method: ['GET', 'DELETE', 'PUT', 'PATCH'], url: MCP_PATH, schema: { hide: true }, onRequest: checkOrigin, handler: methodNotAllowed })

  // A CORS preflight (no credentials, never behind an access key)
  app.route({
    method: 'OPTIONS',
    url: MCP_PATH,
    schema: { hide: true },
    onRequest: checkOrigin,
    handler: async (request, reply) => {
      reply.header('allow', MCP_ALLOW)
      if (request.headers.origin !== undefined) {
        reply.header('access-control-allow-methods', 'POST')
        reply.header('access-control-allow-headers', CORS_ALLOW_HEADERS)
        reply.header('access-control-max-age', '600')
      }
      return reply.code(204).send()
    }
  })
}, { name: 'mcp', dependencies: ['errors', 'metrics'] })
