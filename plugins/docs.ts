import fp from 'fastify-plugin'
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { PUBLIC_KEY_MAX_LENGTH, QUANTITY_MAX, UNESCAPED_FORMAT } from '../schemas/common.js'
import { TOKEN_PREFIX_PATTERN } from '../schemas/token.js'
import { HASH_PARAMS_ID } from '../schemas/hash.js'
import { TOTP_NAME_PATTERN } from '../schemas/totp.js'
import { JWT_CLAIM_VALUE_MAX_LENGTH } from '../schemas/jwt.js'
import { problemDocument, validationProblem, ProblemError, type ProblemDocument } from '../src/http/errors.js'
import { GENERATOR_ALLOW } from '../src/http/generator-route.js'
import { LANGUAGE_HEADER_MAX_LENGTH, LANGUAGES } from '../src/i18n/index.js'
import { BODY_LIMIT, CONNECTION_TIMEOUT_MILLISECONDS } from '../src/server-options.js'
import { SERVICE_VERSION } from '../src/version.js'
import { encodeXData, X_DATA_MAX_LENGTH } from '../src/http/x-data.js'

type Json = Record<string, any>

const SCHEMAS = '#/components/schemas/'
const problemRef = { $ref: `${SCHEMAS}Problem` }

function problemResponse (description: string, examples: Record<string, ProblemDocument>, headers: Json = {}): Json {
  return {
    description,
    headers: { 'Content-Language': { $ref: '#/components/headers/ContentLanguage' }, ...headers },
    content: {
      'application/problem+json': {
        schema: problemRef,
        examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }]))
      }
    }
  }
}

// Examples come from the real catalog, so they show exactly what the service sends (in English)
const problem = (status: number, code: ConstructorParameters<typeof ProblemError>[1], message?: ConstructorParameters<typeof ProblemError>[2], args = {}) =>
  problemDocument('en', new ProblemError(status, code, message, args))
const outOfRange = validationProblem('en', [{ pointer: '#/length', code: 'OUT_OF_RANGE', args: { min: 6, max: 128 } }])

/** CONTRACT §1.1: standard or URL-safe alphabet, then at most two `=` (the first check src/http/x-data.ts makes). */
export const X_DATA_PATTERN = '^[A-Za-z0-9+/_-]*={0,2}$'

/**
 * plugins/passphrase.ts's separator rule as a pattern: no letter, digit, control, format
 * (invisible), surrogate, line or paragraph separator or unassigned code point, and no combining
 * mark first. Only in the document: the generator checks the rule (with the BIP-39 lists' rules
 * on top) and names it in its own message; a pattern in PassphraseParams would be AJV's to answer.
 */
export const PASSPHRASE_SEPARATOR_PATTERN = '^(?!\\p{M})[^\\p{L}\\p{Nd}\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}\\p{Cn}]*$'

/**
 * The part of plugins/phrase.ts's separator rule that holds for every `language`: no control,
 * format, surrogate, line or paragraph separator or unassigned code point, and no first character
 * that joins the one before it in any normal form: a combining mark, a Hangul vowel or final jamo,
 * or a character whose decomposition starts with one (Thai and Lao SARA AM, Hangul compatibility
 * and halfwidth jamo, the halfwidth voicing marks). What the chosen list's words hold is
 * left to the generator. Only in the document, as for the passphrase separator.
 */
export const PHRASE_SEPARATOR_PATTERN = '^(?![\\p{M}\\u1160-\\u11FF\\uD7B0-\\uD7FF\\u0E33\\u0EB3\\u3133\\u3135\\u3136\\u313A-\\u313F\\u314F-\\u3164' +
  '\\u3167-\\u316D\\u316F\\u3170\\u3182\\u3183\\u3187-\\u318E\\uFF9E-\\uFFA0\\uFFA3\\uFFA5\\uFFA6\\uFFAA-\\uFFAF\\uFFC2-\\uFFC7\\uFFCA-\\uFFCF' +
  '\\uFFD2-\\uFFD7\\uFFDA-\\uFFDC])[^\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}\\p{Cn}]*$'

/**
 * plugins/ssh-key.ts's comment rule as a pattern: printable ASCII, space to `~`. Only in the
 * document, as for the separators: AJV would answer a `pattern` failure with the wrong field code.
 */
export const SSH_COMMENT_PATTERN = '^[\\x20-\\x7e]*$'

/** The longest text/plain body of a result: `quantity` lines of a value, a space, a public key and a line feed. */
function plainTextMaxLength (result: Json): number {
  return QUANTITY_MAX * ((result.properties.values.items.maxLength as number) + PUBLIC_KEY_MAX_LENGTH + 2)
}

/** `generatedAt` and the health timestamp: Date#toISOString with milliseconds (src/http/clock.ts). */
const DATE_TIME_MAX_LENGTH = '2026-11-22T10:15:30.123Z'.length

/** The edge's Retry-After is a setting; a wait over a day would mean a misconfigured edge. */
const RETRY_AFTER_MAX = 86_400

const WWW_AUTHENTICATE_INVALID = 'Bearer realm="randgen", error="invalid_token"'

const components: Json = {
  securitySchemes: {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      description: 'An access key, when the operator requires them (CONTRACT §9: `API_KEY_HASHES`); off by default. A key is 16 to 256 printable ASCII characters but space; `/api/generate/token` makes good ones, and its `hashes` are what the operator configures.'
    }
  },
  parameters: {
    XLanguage: {
      name: 'X-Language',
      in: 'header',
      required: false,
      description: `Language of error messages: a BCP 47 tag whose primary subtag is one of ${LANGUAGES.join(', ')} (\`ru-RU\` gives \`ru\`). Without it (or when it is longer than ${LANGUAGE_HEADER_MAX_LENGTH} characters, when it is ignored), Accept-Language is negotiated, then English.`,
      // No example: Swagger UI would fill it in and send it with every "Try it out"
      schema: { type: 'string', maxLength: LANGUAGE_HEADER_MAX_LENGTH, examples: ['de', 'ru-RU'] }
    }
  },
  headers: {
    ContentLanguage: { description: 'The language of `title` and `detail`.', schema: { type: 'string', enum: LANGUAGES } },
    RetryAfter: {
      description: 'Seconds to wait before sending another request (RFC 9110 delay-seconds).',
      required: true,
      schema: { type: 'integer', format: 'int32', minimum: 0, maximum: RETRY_AFTER_MAX, examples: [1] }
    }
  },
  responses: {
    BodyInvalid: problemResponse('The parameters are invalid (`VALIDATION_FAILED`, every problem in `errors`) or the body is not a JSON object (`BODY_INVALID`).', {
      VALIDATION_FAILED: outOfRange,
      BODY_INVALID: problem(400, 'BODY_INVALID', 'BODY_NOT_JSON')
    }),
    XDataInvalid: problemResponse('The parameters are invalid (`VALIDATION_FAILED`, every problem in `errors`) or X-Data is not Base64 of a UTF-8 JSON object (`X_DATA_INVALID`).', {
      VALIDATION_FAILED: outOfRange,
      X_DATA_INVALID: problem(400, 'X_DATA_INVALID', 'X_DATA_NOT_BASE64')
    }),
    MethodNotAllowed: problemResponse('The path does not take the method used; `Allow` lists the methods it takes.', {
      METHOD_NOT_ALLOWED: problem(405, 'METHOD_NOT_ALLOWED', 'METHOD_NOT_ALLOWED', { method: 'PUT', allowed: 'GET, HEAD, OPTIONS, POST' })
    }, {
      Allow: {
        description: 'The methods the path takes.',
        required: true,
        schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$', maxLength: GENERATOR_ALLOW.length, examples: [GENERATOR_ALLOW] }
      }
    }),
    PayloadTooLarge: problemResponse(`The body is larger than ${BODY_LIMIT} bytes.`, {
      PAYLOAD_TOO_LARGE: problem(413, 'PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', { limit: BODY_LIMIT })
    }),
    UnsupportedMediaType: problemResponse('A non-empty body that is not `application/json`.', {
      UNSUPPORTED_MEDIA_TYPE: problem(415, 'UNSUPPORTED_MEDIA_TYPE')
    }),
    // CONTRACT §5: rate limiting is the edge's job; the service answers 429 only if a built-in
    // limit is switched on. Either way the body is this problem document (the edge's is this one,
    // in English) and Retry-After says when to try again
    RateLimited: problemResponse('Too many requests from this client: the edge proxy\'s rate limit tripped (or a built-in limit, off by default). Retry after `Retry-After` seconds.', {
      RATE_LIMITED: problem(429, 'RATE_LIMITED')
    }, { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }),
    // CONTRACT §9: only when the operator requires access keys
    Unauthorized: problemResponse('Access keys are required on this deployment and the request has none (`KEY_MISSING`) or one that is malformed or unknown. Send `Authorization: Bearer <key>`.', {
      UNAUTHORIZED: problem(401, 'UNAUTHORIZED', 'KEY_MISSING')
    }, {
      'WWW-Authenticate': {
        description: 'The challenge: `Bearer realm="randgen"`, with `error="invalid_token"` when a key was sent (RFC 6750).',
        required: true,
        schema: { type: 'string', maxLength: WWW_AUTHENTICATE_INVALID.length, examples: [WWW_AUTHENTICATE_INVALID] }
      }
    }),
    NotFound: problemResponse('No such recipe: `GET /api/recipes` lists their ids.', {
      NOT_FOUND: problem(404, 'NOT_FOUND', 'NOT_FOUND', { method: 'GET', path: '/api/recipes/nextcloud' })
    }),
    NotAcceptable: problemResponse('`Accept` asks only for a form the answer cannot take: a JWK Set of HMAC keys (HS256, HS384, HS512), which have no public key.', {
      NOT_ACCEPTABLE: problem(406, 'NOT_ACCEPTABLE')
    }),
    // CONTRACT §12.1: only operations that hash (or make RSA keys) meet it
    Busy: problemResponse(`The hashing queue is full (\`HASH_CONCURRENCY\` running, \`HASH_QUEUE\` waiting): nothing was drawn. Also when a request's hashes (or RSA keys) are not done when the connection's ${CONNECTION_TIMEOUT_MILLISECONDS / 1000} s idle timeout comes, on a host that leaves the hashing threads little CPU: what was drawn is discarded, never answered. Retry after \`Retry-After\` seconds.`, {
      BUSY: problem(503, 'BUSY')
    }, { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }),
    InternalError: problemResponse('An unexpected error; the body carries no internals.', {
      INTERNAL_ERROR: problem(500, 'INTERNAL_ERROR')
    })
  }
}

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })

/**
 * The errors each request form can meet. GET never reads a body (so no 413/415) and POST never
 * reads X-Data. Only an operation with a path parameter can answer 404 (a recipe's id, CONTRACT
 * §14.1): unknown paths are not operations. 405 is a property of the path, listed on each of its operations so clients see
 * its `Allow` header. 429 can meet any request that passes the edge.
 */
function errorResponses (operation: Json): Json {
  // CONTRACT §13: an answer with a form besides JSON and plain text (a JWK Set) can be one Accept asks for alone
  const otherForm = Object.keys(operation.responses?.[200]?.content ?? {}).some((type) => type !== 'application/json' && type !== 'text/plain')
  const busy = { ...(HASHING_REQUESTS.has(requestSchemaName(operation) ?? '') ? { 503: 'Busy' } : {}), ...(otherForm ? { 406: 'NotAcceptable' } : {}) }
  if (operation.requestBody !== undefined) {
    return { 400: 'BodyInvalid', 401: 'Unauthorized', 405: 'MethodNotAllowed', 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType', 429: 'RateLimited', 500: 'InternalError', ...busy }
  }
  const usesXData = (operation.parameters ?? []).some((parameter: Json) => parameter.name === 'X-Data')
  const inPath = (operation.parameters ?? []).some((parameter: Json) => parameter.in === 'path')
  return usesXData
    ? { 400: 'XDataInvalid', 401: 'Unauthorized', 405: 'MethodNotAllowed', 429: 'RateLimited', 500: 'InternalError', ...busy }
    : { ...(inPath ? { 404: 'NotFound' } : {}), 405: 'MethodNotAllowed', 429: 'RateLimited', 500: 'InternalError' }
}

/** The requests that use the pool (CONTRACT §12.1: they may meet 503 BUSY): a password's, a passphrase's, a signing key's (RSA) and a set's. */
const HASHING_REQUESTS = new Set(['PasswordParams', 'PassphraseParams', 'SigningKeyParams', 'SetRequest'])

/** The parameters schema an operation takes, in its body or in X-Data. */
function requestSchemaName (operation: Json): string | undefined {
  const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref ??
    (operation.parameters ?? []).find((parameter: Json) => parameter.name === 'X-Data')?.schema?.contentSchema?.$ref
  return typeof ref === 'string' ? ref.slice(SCHEMAS.length) : undefined
}

/**
 * CONTRACT §9: generators take a bearer key, optional in the document (`{}` first: no key is
 * needed unless the operator requires keys), so Swagger UI's Authorize and generated clients can
 * send it. Health routes, the page and the docs never ask for one.
 */
const OPTIONAL_BEARER = [{}, { bearerAuth: [] }]

/**
 * GET generator routes validate X-Data through `schema.querystring` (the X-Data hook puts the
 * decoded object there), but the document must say that the parameters travel in a header.
 */
export const transform: SwaggerTransform = ({ schema, url, ...document }) => {
  if (schema?.querystring === undefined) return { schema, url }
  const { querystring, ...rest } = schema
  const name = String((querystring as Json).$ref)
  const component = (document as { openapiObject: Json }).openapiObject.components.schemas[name]
  const example = component.examples[0]
  // A set (CONTRACT §10) requires its `items`; a generator's parameters are all optional
  const absent = (component.required ?? []).length > 0 ? 'Absent means `{}`, which lacks the required fields.' : 'Absent means `{}` (all defaults).'
  return {
    url,
    schema: {
      ...rest,
      headers: {
        type: 'object',
        properties: {
          'X-Data': {
            type: 'string',
            maxLength: X_DATA_MAX_LENGTH,
            // A header's schema is documentation only (the X-Data hook decodes it), so the pattern
            // cannot change which error a request gets
            pattern: X_DATA_PATTERN,
            description: `The parameters (\`${name}\`) as a JSON object, UTF-8 encoded, then Base64 (standard or URL-safe alphabet, padding optional). ${absent} The query string is never read.`,
            contentMediaType: 'application/json',
            contentSchema: querystring,
            examples: [encodeXData(example)]
          }
        }
      }
    }
  }
}

const TOP_LEVEL = ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']
const OPERATION = ['operationId', 'summary', 'description', 'tags', 'security', 'parameters', 'requestBody', 'responses']
const PARAMETER = ['name', 'in', 'required', 'description', 'schema', 'example']
const X_DATA_KEYS = ['type', 'maxLength', 'pattern', 'contentEncoding', 'contentMediaType', 'contentSchema']
const METHODS = ['post', 'get', 'head', 'put', 'patch', 'delete', 'options']

/** Known keys in the given order, then the rest alphabetically. */
function ordered (object: Json, order: readonly string[] = []): Json {
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length)
  const keys = Object.keys(object).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
  return Object.fromEntries(keys.map((key) => [key, object[key]]))
}

/** The text/plain body's bound follows from the result schemas' bounds, so it is set here, beside them. */
function withPlainTextBound (responses: Json, schemas: Json): Json {
  const ok = responses[200]
  const plainText = ok?.content?.['text/plain']
  if (plainText === undefined) return responses
  const result = schemas[String(ok.content['application/json']?.schema?.$ref).slice(SCHEMAS.length)]
  // A set's `.env` text has its bound from plugins/sets.ts, whose result has no `values` of its own
  if (result?.properties?.values === undefined) return responses
  const bounded = { ...plainText, schema: { ...plainText.schema, maxLength: plainTextMaxLength(result) } }
  return { ...responses, 200: { ...ok, content: { ...ok.content, 'text/plain': bounded } } }
}

function finishOperation (operation: Json, schemas: Json): Json {
  const result = { ...operation }
  const parameters: Json[] = (operation.parameters ?? []).map((parameter: Json) => {
    // @fastify/swagger rewrites `contentEncoding: base64` to OpenAPI 3.0's `format: byte`;
    // OpenAPI 3.1 documents a Base64 string with contentEncoding
    const { format: _byte, ...schema } = parameter.schema
    return ordered({ ...parameter, schema: ordered({ ...schema, contentEncoding: 'base64' }, X_DATA_KEYS) }, PARAMETER)
  })
  result.parameters = [...parameters, { $ref: '#/components/parameters/XLanguage' }]

  if (operation.requestBody !== undefined) {
    const media = operation.requestBody.content['application/json']
    const name = String(media.schema.$ref).slice(SCHEMAS.length)
    // A set (CONTRACT §10) requires its `items`; a generator's parameters are all optional
    const needed = (schemas[name].required ?? []).length > 0
    result.requestBody = {
      description: needed ? 'The request as a JSON object.' : 'The parameters as a JSON object. An empty body means `{}`: all defaults.',
      // CONTRACT §1.1: a POST without a body means {}
      required: needed,
      content: { 'application/json': { schema: media.schema, example: schemas[name].examples[0] } }
    }
  }

  if ((operation.tags ?? []).includes('generators')) result.security = OPTIONAL_BEARER
  const errors = Object.entries(errorResponses(operation)).map(([status, name]) => [status, responseRef(name)])
  const responses: Json = { ...withPlainTextBound(operation.responses, schemas), ...Object.fromEntries(errors) }
  result.responses = ordered(responses, Object.keys(responses).sort())
  return ordered(result, OPERATION)
}

const INT32 = 2 ** 31

/**
 * Bounds the document states but AJV must not see: a `format` AJV does not know would fail the
 * schema's compilation, and a `minimum` beside an integer `enum` could turn NOT_ALLOWED_VALUE
 * into OUT_OF_RANGE. Each is implied by what the schema or the code already enforces. Copies:
 * the objects AJV compiled are never touched.
 */
function documentedBounds (node: unknown): unknown {
  if (Array.isArray(node)) return node.map(documentedBounds)
  if (typeof node !== 'object' || node === null) return node
  const schema: Json = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, documentedBounds(value)]))
  if (schema.type === 'integer') {
    if (Array.isArray(schema.enum) && schema.minimum === undefined && schema.maximum === undefined) {
      schema.minimum = Math.min(...schema.enum)
      schema.maximum = Math.max(...schema.enum)
    }
    if (schema.format === undefined && schema.minimum !== undefined && schema.maximum !== undefined) {
      schema.format = schema.minimum >= -INT32 && schema.maximum < INT32 ? 'int32' : 'int64'
    }
  }
  if (schema.type === 'string' && schema.format === 'date-time' && schema.maxLength === undefined) {
    schema.maxLength = DATE_TIME_MAX_LENGTH
  }
  // How the service serialises, not what a client receives (a plain string)
  if (schema.format === UNESCAPED_FORMAT) delete schema.format
  return schema
}

function withDocumentedBounds (schemas: Json): Json {
  const result = documentedBounds(schemas) as Json
  const separator = result.PassphraseParams?.properties?.separator
  if (separator !== undefined) separator.pattern = PASSPHRASE_SEPARATOR_PATTERN
  // A jwt claim's value (CONTRACT §14.2): its bounds are the set's rules (src/http/set-jwt.ts), so
  // that a long value is TOO_LONG beside the item's other problems, not an AJV error that hides them
  const claimValue = result.JwtParams?.properties?.claims?.additionalProperties
  if (claimValue !== undefined) Object.assign(claimValue, { maxLength: JWT_CLAIM_VALUE_MAX_LENGTH, minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, format: 'int64' })
  const phraseSeparator = result.PhraseParams?.properties?.separator
  if (phraseSeparator !== undefined) phraseSeparator.pattern = PHRASE_SEPARATOR_PATTERN
  const comment = result.SshKeyParams?.properties?.comment
  if (comment !== undefined) comment.pattern = SSH_COMMENT_PATTERN
  // As for the separators: the generators refuse these with NOT_ALLOWED_VALUE, not AJV
  const prefix = result.TokenParams?.properties?.prefix
  if (prefix !== undefined) prefix.pattern = TOKEN_PREFIX_PATTERN
  for (const name of ['issuer', 'account']) {
    const property = result.TotpParams?.properties?.[name]
    if (property !== undefined) property.pattern = TOTP_NAME_PATTERN
  }
  // OpenAPI's discriminator names each choice's component (AJV takes no `mapping`, so the route's
  // schema has none): `type` values to the branches, which plugins/sets.ts lists in the same order
  // and likewise `algorithm` to the five hash schemas (CONTRACT §12), listed in the same order
  for (const [name, tag] of [['SetItem', 'type'], [HASH_PARAMS_ID, 'algorithm']] as const) {
    const choice = result[name]
    if (choice?.discriminator === undefined) continue
    const mapping = Object.fromEntries(choice.properties[tag].enum.map((value: string, index: number) => [value, choice.oneOf[index].$ref]))
    choice.discriminator = { ...choice.discriminator, mapping }
  }
  const version = result.Health?.properties?.version
  // SemVer from package.json; the bound is generous, no version of ours comes near it
  if (version !== undefined) Object.assign(version, { pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+([-+][0-9A-Za-z.+-]*)?$', maxLength: 64 })
  return result
}

/** The finished document: operations completed, and a key order that does not depend on registration order. */
export const transformObject: SwaggerTransformObject = (documentObject) => {
  const document = (documentObject as { openapiObject: Json }).openapiObject
  const schemas: Json = withDocumentedBounds(document.components.schemas)
  const paths = Object.fromEntries(Object.entries(document.paths as Json).map(([path, item]) => [
    path,
    ordered(Object.fromEntries(Object.entries(item as Json).map(([method, operation]) => [method, finishOperation(operation, schemas)])), METHODS)
  ]))
  const allComponents = { ...document.components, schemas, ...components }
  return ordered({
    ...document,
    // A public API: no server is for internal callers only (documentation tools read x-internal)
    servers: (document.servers as Json[]).map((server) => ({ ...server, 'x-internal': false })),
    paths,
    components: ordered(Object.fromEntries(Object.entries(allComponents).map(([kind, map]) => [kind, ordered(map as Json)])))
  }, TOP_LEVEL)
}

/**
 * Swagger UI (OpenAPI 3.1 mode) renders every string with `contentEncoding` or `contentMediaType`
 * as a file picker, so X-Data could not be typed in. This script, served from /docs/static/theme
 * (same origin, allowed by the CSP), wraps SwaggerUIBundle before the page's onload handler calls
 * it and keeps Base64 JSON as a text field. Browser code, exercised by test/e2e/swagger-ui.test.ts.
 */
const X_DATA_AS_TEXT = `'use strict';
(function () {
  var bundle = window.SwaggerUIBundle;
  function read (schema, key) {
    return schema && (typeof schema.get === 'function' ? schema.get(key) : schema[key]);
  }
  function base64JsonIsText () {
    return {
      afterLoad: function () {
        var isFileUpload = this.fn.isFileUploadIntended;
        this.fn.isFileUploadIntended = function (schema, mediaType) {
          if (read(schema, 'contentEncoding') === 'base64' && read(schema, 'contentMediaType') === 'application/json') return false;
          return isFileUpload(schema, mediaType);
        };
      }
    };
  }
  window.SwaggerUIBundle = Object.assign(function (config) {
    return bundle(Object.assign({}, config, { plugins: (config.plugins || []).concat([base64JsonIsText]) }));
  }, bundle);
})();
`

/** The OpenAPI 3.1 document (/docs/json, /docs/yaml) and Swagger UI at /docs. */
export default fp(async function docs (app: FastifyInstance, options: { ui?: boolean }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'randgen',
        version: SERVICE_VERSION,
        description: 'Cryptographically secure random values: passwords and passphrases, integers, PINs, VPN secrets and key pairs (Shadowsocks, WireGuard, Xray REALITY, ML-KEM-768, ML-DSA-65), ' +
          'OpenSSH and age key pairs, API tokens, TOTP secrets, UUIDs, ULIDs and compact IDs, BIP-39 phrases, random bytes and short hex IDs. ' +
          'Every generator takes its parameters either as a JSON body (POST, recommended) or as Base64 JSON in the `X-Data` header (GET); ' +
          'errors are RFC 9457 problem documents (`application/problem+json`) with stable codes.',
        license: { name: 'MIT', identifier: 'MIT' }
      },
      servers: [{ url: '/' }],
      // CONTRACT §6: no authentication by default (the service holds no user data); generator
      // operations declare the optional bearer key of §9 themselves (OPTIONAL_BEARER)
      security: [],
      tags: [
        { name: 'generators', description: 'Random value generators: POST with a JSON body, or GET with the X-Data header.' },
        { name: 'health', description: 'Liveness and readiness: /api/health, and /livez and /readyz for orchestrators. Never behind an access key.' },
        { name: 'recipes', description: 'Every secret an app\'s install guide asks for, as a set: the catalog, read here, made by `{"recipe": "<id>"}` on /api/generate. Never behind an access key.' }
      ]
    },
    // Shared schemas (app.addSchema, so each has an $id) become named components such as
    // #/components/schemas/PasswordParams instead of def-0, def-1
    refResolver: { buildLocalReference: (json) => String(json.$id) },
    // OpenAPI 3.1 has `const`; Swagger UI 5 and openapi-typescript understand it
    convertConstToEnum: false,
    transform,
    transformObject
  })
  if (options.ui !== false) {
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      // No top bar: its Swagger logo is an SVG with an inline <style> that the CSP blocks
      // (a console error), and its URL box would point the page at other documents
      uiConfig: { layout: 'BaseLayout' },
      theme: { title: 'randgen API', js: [{ filename: 'x-data-as-text.js', content: X_DATA_AS_TEXT }] },
      staticCSP: true,
      // form-action is not covered by default-src and @fastify/swagger-ui leaves it out: without
      // it an injected form could post to any origin (Swagger UI itself sends with fetch)
      transformStaticCSP: (header) => `${header.replace(/\s*upgrade-insecure-requests;?/, '').replace(/[\s;]*$/, '')}; form-action 'self';`
    })
  }
}, { name: 'docs', dependencies: ['security'] })
