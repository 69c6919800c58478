// CONTRACT §11 tools, made from the routes that declare one (`config.tool`): the route's own
// OpenAPI operation gives the tool its description and schemas, the route's own validator checks
// the arguments, and the route's own answer is the result. Nothing here restates a schema.
import type { FastifyInstance } from 'fastify'
import type { Language } from '../i18n/index.js'
import { problemDocument, ProblemError, validationProblem, type ProblemDocument } from '../http/errors.js'
import { ParameterError, type FieldProblem } from '../http/parameter-error.js'
import { fieldErrorsFromAjv, type AjvError, type Validator } from '../http/validation-errors.js'

/** What a route adds to become a tool: `config: { tool: { ... } }` on its JSON POST route. */
export interface ToolOfRoute {
  /** `generate_password` (toolName). */
  name: string
  /**
   * The route's checks before validation (src/http/precheck.ts); undefined lets validation decide.
   * Given the route's validator, which a precheck may run on parts (a set, item by item).
   */
  precheck: (parameters: Record<string, unknown>, validate: Validator) => FieldProblem[] | undefined
  /**
   * The route's JSON answer for valid parameters (defaults filled in), drawn as the route draws
   * it (a promise where it waits for hashes, CONTRACT §12); throws (or rejects with)
   * ParameterError for a rule the schema cannot state, ProblemError 503 BUSY when the hashing
   * queue is full.
   */
  answer: (parameters: Record<string, unknown>, validationErrors: readonly AjvError[]) => Record<string, unknown> | Promise<Record<string, unknown>>
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** CONTRACT §11: this route is also an MCP tool (plugins/mcp.ts collects them). */
    tool?: ToolOfRoute
  }
}

/** CONTRACT §1, §11: the MCP endpoint. */
export const MCP_PATH = '/mcp'

/** CONTRACT §11: `generate_<type>`, `-` written `_`. */
export function toolName (type: string): string {
  return `generate_${type.replaceAll('-', '_')}`
}

/** A route that declared a tool, as plugins/mcp.ts saw it added. */
export interface ToolRoute {
  url: string
  method: string
  /** The route's body schema (a reference to its parameters schema): its validator is the route's. */
  body: unknown
  tool: ToolOfRoute
  /**
   * The route's `attachValidation`: it lists AJV's errors with problems of its own (a set's names
   * and quantities beside its items' parameters), so `answer` gets them and throws ParameterError with all.
   */
  readsValidationErrors: boolean
}

type Json = Record<string, unknown>

/** A tool as tools/list gives it. */
export interface ToolDescription {
  name: string
  title: string
  description: string
  inputSchema: Json & { type: 'object' }
  outputSchema: Json & { type: 'object' }
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false }
}

/** A tools/call result (MCP's CallToolResult): the route's JSON answer, or the problem document of §4. */
export type ToolResult =
  | { content: Array<{ type: 'text', text: string }>, structuredContent: Json }
  | { content: Array<{ type: 'text', text: string }>, isError: true }

export interface Tool {
  description: ToolDescription
  /** Runs the tool; `language` is the HTTP request's (X-Language, Accept-Language). */
  call: (args: Json, language: Language) => ToolResult | Promise<ToolResult>
}

// CONTRACT §11: a draw changes nothing, the same call gives other values, and nothing outside
// randgen is touched
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const

const COMPONENT = '#/components/schemas/'

/**
 * The object schema a `#/components/schemas/Name` reference names in `document`, standing alone as
 * a tool's schema must: the components it refers to (a set's items) under `$defs`, and OpenAPI's
 * own `discriminator`, which JSON Schema validators do not know, left out. A generator's schema
 * refers to nothing and comes out as the document has it.
 */
function resolved (document: Json, schema: Json): Json & { type: 'object' } {
  const components = (document.components as { schemas: Record<string, Json | undefined> }).schemas
  const defs: Record<string, unknown> = {}
  const standalone = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(standalone)
    if (typeof node !== 'object' || node === null) return node
    const out: Json = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === 'discriminator') continue
      if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)) {
        const name = value.slice(COMPONENT.length)
        if (!(name in defs)) {
          defs[name] = true
          defs[name] = standalone(components[name])
        }
        out.$ref = `#/$defs/${name}`
      } else {
        out[key] = standalone(value)
      }
    }
    return out
  }
  const name = String(schema.$ref).replace(COMPONENT, '')
  const found = components[name]
  if (found?.type !== 'object') throw new Error(`a tool's schema must name an object schema of the document (${name})`)
  const root = standalone(found) as Json & { type: 'object' }
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs }
}

function problemResult (document: ProblemDocument): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(document) }], isError: true }
}

/**
 * The tools of `routes`, described from `document` (the app's OpenAPI document, what
 * `openapi.json` holds) and validated by the routes' own validators.
 */
export function toolsOf (app: FastifyInstance, document: Json, routes: readonly ToolRoute[]): Tool[] {
  const paths = document.paths as Record<string, Record<string, Json>>
  return routes.map(({ url, method, body, tool, readsValidationErrors }) => {
    const operation = (paths[url] as Record<string, Json>)[method.toLowerCase()] as Json
    const requestBody = operation.requestBody as { content: Record<string, { schema: Json }> }
    const responses = operation.responses as Record<string, { content: Record<string, { schema: Json }> }>
    const summary = operation.summary as string
    // The route's validator: in the production build the very function compiled for the route,
    // from source the one AJV already compiled for the same schema object
    const validate = (app.validatorCompiler as NonNullable<FastifyInstance['validatorCompiler']>)({ schema: body as Json, method, url, httpPart: 'body' }) as Validator
    const refuse = (language: Language, problems: FieldProblem[]): ToolResult => {
      // CONTRACT §9: problems by code, as the route counts its own
      app.metrics?.countProblem('VALIDATION_FAILED')
      return problemResult(validationProblem(language, problems))
    }
    return {
      description: {
        name: tool.name,
        title: summary,
        description: `${summary}. ${operation.description as string}`,
        inputSchema: resolved(document, (requestBody.content['application/json'] as { schema: Json }).schema),
        outputSchema: resolved(document, ((responses['200'] as { content: Record<string, { schema: Json }> }).content['application/json'] as { schema: Json }).schema),
        annotations: ANNOTATIONS
      },
      call: (args, language) => {
        const early = tool.precheck(args, validate)
        if (early !== undefined) return refuse(language, early)
        const valid = validate(args)
        if (!valid && !readsValidationErrors) return refuse(language, fieldErrorsFromAjv(validate.errors as AjvError[]))
        const failed = (error: unknown): ToolResult => {
          if (error instanceof ParameterError) return refuse(language, error.problems)
          // CONTRACT §12.1: the hashing queue is full, said as the route says it
          if (error instanceof ProblemError) {
            app.metrics?.countProblem(error.code)
            return problemResult(problemDocument(language, error))
          }
          throw error
        }
        const result = (answer: Json): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer })
        let answer: Json | Promise<Json>
        try {
          answer = tool.answer(args, valid ? [] : validate.errors as AjvError[])
        } catch (error) {
          return failed(error)
        }
        // Most tools answer at once, with no promise made; one that hashes answers when its hashes are made
        return answer instanceof Promise ? answer.then(result, failed) : result(answer)
      }
    }
  })
}
