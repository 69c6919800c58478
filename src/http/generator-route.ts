// One route schema serves both request forms of a generator: POST reads the JSON body,
// GET reads X-Data. Both go through the same AJV validator, defaults and response serializer.
import { Type, type Static, type TObject } from '@sinclair/typebox'
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify'
import { UNESCAPED_FORMAT } from '../../schemas/common.js'
import { isoNow } from './clock.js'
import { ProblemError } from './errors.js'
import { ParameterError, type FieldProblem } from './parameter-error.js'
import { precheckOf } from './precheck.js'
import { resultFormat } from './result-format.js'
import { decodeXData, isJsonObject, type JsonParser } from './x-data.js'
import { toolName } from '../mcp/tools.js'
import { HASH_PARAMS_ID, HASH_SCHEMAS, type HashSettings } from '../../schemas/hash.js'
import { hashedDraw, type HashingContext } from './hashed-values.js'
import { pooledDraw, type PooledWork } from './pooled-work.js'
import { prefersMediaType } from './result-format.js'

/** What a generator makes for one request. */
export interface Generated {
  values: string[]
  /** CONTRACT §1.2: log2 of the number of equally likely outcomes of each value, rounded down to hundredths. */
  entropyBits: number
  /** The public key of each value, in the same order (key pairs only). */
  publicKeys?: string[]
  /**
   * Set when this request's values may hold a character JSON escapes although the generator's
   * `alphabet` leaves it out: an alphabet the client chose (password's `symbolSet` with `"` or
   * `\\`). The answer is then written with the escape scan, never without it.
   */
  escaped?: boolean
  /**
   * The SHA-256 of each value, in the same order (tokens), or the hash asked for with `hash`
   * (password, passphrase; CONTRACT §12): what a server stores instead.
   */
  hashes?: string[]
}

export interface GeneratorDefinition<P extends TObject> {
  /** The path segment and the `type` of results: `password`, `short-id`, ... */
  type: string
  /** Operation id stem: `Password` gives `generatePassword` and `generatePasswordWithHeader`. */
  name: string
  summary: string
  description: string
  params: P
  result: TObject
  /**
   * Every character a value or public key can hold, where that is a closed set in which JSON
   * escapes nothing; given exactly when `result` is a GenerationResult with `closedAlphabet`,
   * whose values are then written without fast-json-stringify's escape scan. Where the client
   * chooses part of the alphabet, this is what values written that way can hold, and a request
   * whose alphabet reaches beyond it says so with `Generated.escaped`.
   */
  alphabet?: string
  generate: (params: Static<P>) => Generated
  /**
   * The generator's rules (those beyond the schema), checked without drawing anything: throws the
   * ParameterError `generate` would throw for these parameters. `generate` runs the same checks
   * itself; a set (plugins/sets.ts) runs them for every item first, so nothing is drawn unless
   * every item is valid.
   */
  check?: (params: Static<P>) => void
  /** Whether these parameters make key pairs (`publicKeys` in the answer): a set's `.env` form derives `<name>_PUBLIC_KEY` then. */
  keyPairs?: (params: Static<P>) => boolean
  /**
   * Where these parameters let a value (or public key) hold `'`, `\\` or a control character
   * (Unicode Cc), which a single-quoted `.env` line cannot carry: pointers relative to a set's
   * item (`params/symbolSet`, `type`), decided from the parameters alone. Absent: never.
   * test/plugins/sets-representable.test.ts draws values of every generator to hold each to it.
   */
  notRepresentable?: (params: Static<P>) => string[]
  /**
   * CONTRACT §12: the hash these parameters ask for (password's and passphrase's `hash`), or
   * undefined. Its values are then hashed off the event loop in the bounded pool
   * (src/http/hashed-values.ts), which `check` must already have held to its rules (at most 5
   * values, bcrypt's 72 bytes).
   */
  hashOf?: (params: Static<P>) => HashSettings | undefined
  /**
   * CONTRACT §13: where these parameters' values cost seconds of CPU (RSA keys), the jobs that
   * make them on the pool of §12.1 and how their results become the answer; undefined: drawn on
   * the event loop by `generate`. `check` holds them to their rules first (at most 5).
   */
  pooled?: (params: Static<P>) => PooledWork<Generated> | undefined
  /** A form of the answer besides JSON and plain text, chosen by Accept (CONTRACT §13: a JWK Set). */
  alternative?: AlternativeAnswer<Static<P>>
}

/** An answer in another media type (a JWK Set), when Accept prefers it to JSON and plain text. */
export interface AlternativeAnswer<S> {
  mediaType: string
  /** Its body's schema, for the OpenAPI document. */
  schema: TObject
  /** Whether these parameters have that form; when not, 406 NOT_ACCEPTABLE. */
  possible: (params: S) => boolean
  /** The parameters to draw with for that form (a JWK Set needs the keys as JWKs). */
  params: (params: S) => S
  body: (generated: Generated) => string
}

// Every generator registered on an app, in registration order: what a set (plugins/sets.ts) draws from
const REGISTERED = new WeakMap<FastifyInstance, Array<GeneratorDefinition<TObject>>>()

/** The generators registered on `app` so far, in registration order. */
export function generatorsOf (app: FastifyInstance): ReadonlyArray<GeneratorDefinition<TObject>> {
  return REGISTERED.get(app) ?? []
}

/** Whether JSON writes `text` between its quotes exactly as it is. */
export function isJsonVerbatim (text: string): boolean {
  return JSON.stringify(text) === `"${text}"`
}

/** The unescaped result schema and the alphabet come together, and the alphabet needs no escape: else the service does not start. */
function checkAlphabet (type: string, result: TObject, alphabet: string | undefined): void {
  const values = result.properties.values as { items?: { format?: string } } | undefined
  const unescaped = values?.items?.format === UNESCAPED_FORMAT
  if (unescaped !== (alphabet !== undefined)) {
    throw new Error(`${type}: a result written without escape scan needs the alphabet of its values, and only it`)
  }
  if (alphabet !== undefined && !isJsonVerbatim(alphabet)) {
    throw new Error(`${type}: JSON escapes a character of the alphabet, so its values must keep the escape scan`)
  }
}

const PlainTextValues = Type.String({
  description: 'The values, one per line, each line ending in a line feed; for key pairs each line is the value, one space, and its public key. A value of several lines (an ssh-key private key file) is written as it is, and its public key follows on a line of its own.'
})
// One example serves every generator, so it shows the layout, not a value of one generator
// (a password under /uuid would mislead); it sits on the media type, where OpenAPI puts examples
const PLAIN_TEXT_EXAMPLE = '<value>\n<value>\n'

/**
 * CONTRACT §1.2 plain text: one value per line, with its public key after a space where there is
 * one. A value of several lines (a key file) already ends in its line feed: it is written as it
 * is, and its public key follows on a line of its own.
 */
export function plainText ({ values, publicKeys, hashes }: Generated, withHashes = false): string {
  let text = ''
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as string
    // CONTRACT §12: a hash asked for holds no space, so the line's last space divides value and
    // hash (a token's SHA-256, always answered, stays out of its plain text, as §1.2 has it)
    if (withHashes && hashes !== undefined) text += `${value} ${hashes[i] as string}\n`
    else if (publicKeys === undefined) text += `${value}\n`
    else {
      const publicKey = publicKeys[i] as string
      // A PEM public key (signing-key) already ends in its line feed, as its private key does
      if (value.endsWith('\n')) text += publicKey.endsWith('\n') ? `${value}${publicKey}` : `${value}${publicKey}\n`
      else text += `${value} ${publicKey}\n`
    }
  }
  return text
}

/**
 * The answer of a request whose values need escaping (Generated.escaped): JSON.stringify escapes
 * every string. The route's serializer writes the values of a closed alphabet without the scan,
 * so such an answer must not reach it; the body is the same object, in the same field order.
 */
function escapingSerializer (payload: unknown): string {
  return JSON.stringify(payload)
}

/**
 * The JSON answer of a route (CONTRACT §1.2) as an object, its fields in the result schema's
 * order, which is the order the route's serializer writes them in.
 */
export function jsonAnswer (type: string, generated: Generated): Record<string, unknown> {
  // Tokens' hashes are the same for any request, a password's only when asked; both sit last
  return { type, values: generated.values, entropyBits: generated.entropyBits, generatedAt: isoNow(), ...pairedFields(generated) }
}

/** What an answer has beside its values where the generator makes it: each value's public key, each token's hash. */
export function pairedFields ({ publicKeys, hashes }: Generated): { publicKeys?: string[], hashes?: string[] } {
  return { ...(publicKeys === undefined ? {} : { publicKeys }), ...(hashes === undefined ? {} : { hashes }) }
}

/** Same order as the `Allow` of a 405 (Fastify's supported-method order). */
export const GENERATOR_ALLOW = 'GET, HEAD, OPTIONS, POST'

function jsonParserOf (app: FastifyInstance): JsonParser {
  // Fastify's own JSON parser (secure-json-parse, prototype poisoning rejected), used synchronously
  const parse = app.getDefaultJsonParser('error', 'error')
  return (text) => {
    let failure: Error | null = null
    let parsed: unknown
    parse(undefined as unknown as FastifyRequest, text, (error, value) => {
      failure = error
      parsed = value
    })
    if (failure !== null) throw failure
    return parsed
  }
}

/** Every generator's path starts so (CONTRACT §1); access keys guard exactly these routes. */
export const GENERATOR_PREFIX = '/api/generate/'
/** CONTRACT §10: several generators in one request (plugins/sets.ts); guarded like the generators. */
export const SET_URL = '/api/generate'

/** What registerParameterRoutes needs to serve one parameters object in both request forms. */
export interface ParameterRoutes {
  url: string
  /** Operation id stem: `Password` gives `generatePassword` and `generatePasswordWithHeader`. */
  name: string
  summary: string
  description: string
  /** The named parameters schema (already added with app.addSchema). */
  paramsId: string
  response: Record<number, unknown>
  /**
   * Refusals before AJV (src/http/precheck.ts): what keeps a hostile body's cost bounded. Given the
   * request too, whose route validator (request.getValidationFunction) a precheck may run on parts.
   */
  precheck: (parameters: Record<string, unknown>, request: FastifyRequest) => FieldProblem[] | undefined
  handler: (parameters: unknown, request: FastifyRequest, reply: FastifyReply) => unknown
  /** Whether the handler reads AJV's errors itself (request.validationError) instead of the error handler. */
  attachValidation?: boolean
  /** The POST route's config: a generator's is also its MCP tool (CONTRACT §11, src/mcp/tools.ts). */
  postConfig?: FastifyContextConfig
}

/**
 * POST (JSON body), GET (X-Data; HEAD is Fastify's copy) and OPTIONS on `url`, with one schema for
 * both forms (CONTRACT §1.1): an empty POST means {}, a body or X-Data that is not an object is
 * refused before validation, and both go through the same AJV validator and handler.
 */
export function registerParameterRoutes (app: FastifyInstance, routes: ParameterRoutes): void {
  const { url, name, summary, description, paramsId, response, precheck, handler, attachValidation = false, postConfig = {} } = routes
  const parseJson = jsonParserOf(app)
  const paramsRef = Type.Ref(paramsId)

  // Every answer of a generator route says Vary: Accept, errors too: a representation of the URL
  // depends on Accept, and one rule for every status is what caches and readers can rely on.
  // Set before the body is read, so 413, 415 and body errors carry it as well.
  const varyOnAccept: onRequestHookHandler = (_request, reply, done) => {
    reply.header('vary', 'Accept')
    done()
  }

  // Run by the hooks that read the parameters: a refusal here means AJV never sees them
  const refusalOf = (parameters: Record<string, unknown>, request: FastifyRequest): ParameterError | undefined => {
    const problems = precheck(parameters, request)
    return problems === undefined ? undefined : new ParameterError(problems)
  }

  // POST with no body means {}; any other non-object is a body error, before validation
  const readBody: preValidationHookHandler = (request, _reply, done) => {
    if (request.body === undefined) request.body = {}
    else if (!isJsonObject(request.body)) return done(new ProblemError(400, 'BODY_INVALID', 'BODY_NOT_OBJECT'))
    else {
      const refusal = refusalOf(request.body, request)
      if (refusal !== undefined) return done(refusal)
    }
    done()
  }
  // GET: the parameters come from X-Data only; the query string is replaced, never read
  const readXData: preValidationHookHandler = (request, _reply, done) => {
    const header = request.headers['x-data']
    let parameters: Record<string, unknown>
    try {
      parameters = header === undefined ? {} : decodeXData(header as string, parseJson)
    } catch (error) {
      return done(error as Error)
    }
    request.query = parameters
    const refusal = refusalOf(parameters, request)
    if (refusal !== undefined) return done(refusal)
    done()
  }

  app.route({
    method: 'POST',
    url,
    schema: { operationId: `generate${name}`, summary, description, tags: ['generators'], body: paramsRef, response },
    attachValidation,
    config: postConfig,
    onRequest: varyOnAccept,
    preValidation: readBody,
    handler: (request, reply) => handler(request.body, request, reply)
  })

  app.route({
    method: 'GET',
    url,
    schema: {
      operationId: `generate${name}WithHeader`,
      summary: `${summary} (parameters in X-Data)`,
      description,
      tags: ['generators'],
      querystring: paramsRef,
      response
    },
    attachValidation,
    // HEAD is Fastify's copy of this route (exposeHeadRoutes): same hooks, same headers, no body
    onRequest: varyOnAccept,
    preValidation: readXData,
    handler: (request, reply) => handler(request.query, request, reply)
  })

  app.route({
    method: 'OPTIONS',
    url,
    schema: { hide: true },
    handler: async (_request, reply) => reply.code(204).header('allow', GENERATOR_ALLOW).send()
  })
}

export function registerGenerator<P extends TObject> (app: FastifyInstance, definition: GeneratorDefinition<P>): void {
  const { type, name, summary, description, params, result, alphabet, generate } = definition
  checkAlphabet(type, result, alphabet)
  // CONTRACT §12: the `hash` choice, named once for every generator that takes it
  if (definition.hashOf !== undefined && app.getSchema(HASH_PARAMS_ID) === undefined) for (const schema of HASH_SCHEMAS) app.addSchema(schema)
  app.addSchema(params)
  app.addSchema(result)
  const registered = REGISTERED.get(app) ?? []
  registered.push(definition as unknown as GeneratorDefinition<TObject>)
  REGISTERED.set(app, registered)
  const precheck = precheckOf(params)
  const response = {
    200: {
      description: 'The generated values: JSON, or one value per line as text/plain when `Accept` prefers it.',
      content: {
        'application/json': { schema: Type.Ref(result.$id as string) },
        'text/plain': { schema: PlainTextValues, example: PLAIN_TEXT_EXAMPLE },
        ...(definition.alternative === undefined ? {} : { [definition.alternative.mediaType]: { schema: definition.alternative.schema } })
      }
    }
  }

  // Handlers and hooks are synchronous: no promise or microtask per request (Fastify sends a
  // returned value at once, and a generator's throw becomes the same error response)
  const countValues = app.metrics?.valuesCounter(type)
  // Every draw of the route, REST or MCP tool (CONTRACT §9: values by generator)
  const draw = (parameters: unknown): Generated => {
    const generated = generate(parameters as Static<P>)
    countValues?.(generated.values.length)
    return generated
  }
  const answer = (generated: Generated, request: FastifyRequest, reply: FastifyReply) => {
    if (resultFormat(request.headers.accept) === 'text') {
      return reply.header('content-type', 'text/plain; charset=utf-8').send(plainText(generated, definition.hashOf !== undefined))
    }
    const { escaped, ...body } = generated
    // With a serializer of its own a reply keeps the media type it is given
    if (escaped === true) reply.header('content-type', 'application/json; charset=utf-8').serializer(escapingSerializer)
    return { type, ...body, generatedAt: isoNow() }
  }
  // CONTRACT §12: a request that asks for hashes waits for them off the event loop
  const hashing: HashingContext<Generated> | undefined = definition.hashOf === undefined
    ? undefined
    : { app, check: (parameters) => definition.check?.(parameters as Static<P>), draw, hashOf: (parameters) => definition.hashOf?.(parameters as Static<P>) }
  // CONTRACT §13: values made on the pool (RSA keys), counted as the route's own draws are
  const pooledWork = (parameters: unknown): PooledWork<Generated> | undefined => {
    const work = definition.pooled?.(parameters as Static<P>)
    return work === undefined ? undefined : { ...work, finish: (results) => { const generated = work.finish(results); countValues?.(generated.values.length); return generated } }
  }
  /** The values, drawn now, or a promise where they are made off the event loop; undefined once the client has gone. */
  const made = (parameters: unknown, reply?: FastifyReply): Generated | Promise<Generated | undefined> => {
    const work = pooledWork(parameters)
    if (work !== undefined) return pooledDraw(app, () => definition.check?.(parameters as Static<P>), work, reply)
    if (hashing?.hashOf(parameters) !== undefined) return hashedDraw(hashing, parameters, reply)
    return draw(parameters)
  }
  const { alternative } = definition
  const handler = (parameters: unknown, request: FastifyRequest, reply: FastifyReply) => {
    let respond = answer
    if (alternative !== undefined && prefersMediaType(request.headers.accept, alternative.mediaType)) {
      // The parameters as sent are held to their rules first: the form changes only what is answered
      definition.check?.(parameters as Static<P>)
      if (!alternative.possible(parameters as Static<P>)) throw new ProblemError(406, 'NOT_ACCEPTABLE')
      parameters = alternative.params(parameters as Static<P>)
      respond = (generated, _request, reply) => reply.header('content-type', `${alternative.mediaType}; charset=utf-8`).send(alternative.body(generated))
    }
    const generated = made(parameters, reply)
    if (!(generated instanceof Promise)) return respond(generated, request, reply)
    // A client gone before its work started gets none done (CONTRACT §12.1); the answer is then
    // for the log only: 499, nginx's "client closed request"
    return generated.then((values) => values === undefined ? reply.code(499).send() : respond(values, request, reply))
  }

  registerParameterRoutes(app, {
    url: `${GENERATOR_PREFIX}${type}`,
    name,
    summary,
    description,
    paramsId: params.$id as string,
    response,
    precheck,
    handler,
    // CONTRACT §11: the route is also the MCP tool generate_<type> (src/mcp/tools.ts)
    postConfig: {
      tool: {
        name: toolName(type),
        precheck,
        answer: (parameters: unknown) => {
          const generated = made(parameters)
          return generated instanceof Promise ? generated.then((values) => jsonAnswer(type, values as Generated)) : jsonAnswer(type, generated)
        }
      }
    }
  })
}
