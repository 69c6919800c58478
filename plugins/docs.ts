import fp from 'fastify-plugin'
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { problemDocument, validationProblem, ProblemError, type ProblemDocument } from '../src/errors.js'
import { LANGUAGES } from '../src/i18n/index.js'
import { BODY_LIMIT } from '../src/server-options.js'
import { SERVICE_VERSION } from '../src/version.js'
import { encodeXData, X_DATA_MAX_LENGTH } from '../src/x-data.js'

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

const components: Json = {
  parameters: {
    XLanguage: {
      name: 'X-Language',
      in: 'header',
      required: false,
      description: `Language of error messages: a BCP 47 tag whose primary subtag is one of ${LANGUAGES.join(', ')} (\`ru-RU\` gives \`ru\`). Without it, Accept-Language is negotiated, then English.`,
      // No example: Swagger UI would fill it in and send it with every "Try it out"
      schema: { type: 'string', maxLength: 35, examples: ['de', 'ru-RU'] }
    }
  },
  headers: {
    ContentLanguage: { description: 'The language of `title` and `detail`.', schema: { type: 'string', enum: LANGUAGES } }
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
    }, { Allow: { description: 'The methods the path takes.', schema: { type: 'string' } } }),
    PayloadTooLarge: problemResponse(`The body is larger than ${BODY_LIMIT} bytes.`, {
      PAYLOAD_TOO_LARGE: problem(413, 'PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', { limit: BODY_LIMIT })
    }),
    UnsupportedMediaType: problemResponse('A non-empty body that is not `application/json`.', {
      UNSUPPORTED_MEDIA_TYPE: problem(415, 'UNSUPPORTED_MEDIA_TYPE')
    }),
    InternalError: problemResponse('An unexpected error; the body carries no internals.', {
      INTERNAL_ERROR: problem(500, 'INTERNAL_ERROR')
    })
  }
}

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })

/**
 * The errors each request form can meet. GET never reads a body (so no 413/415) and POST never
 * reads X-Data. No operation can answer 404: the paths have no parameters, and unknown paths are
 * not operations. 405 is a property of the path, listed on each of its operations so clients see
 * its `Allow` header.
 */
function errorResponses (operation: Json): Json {
  if (operation.requestBody !== undefined) {
    return { 400: 'BodyInvalid', 405: 'MethodNotAllowed', 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType', 500: 'InternalError' }
  }
  const usesXData = (operation.parameters ?? []).some((parameter: Json) => parameter.name === 'X-Data')
  return usesXData
    ? { 400: 'XDataInvalid', 405: 'MethodNotAllowed', 500: 'InternalError' }
    : { 405: 'MethodNotAllowed', 500: 'InternalError' }
}

/**
 * GET generator routes validate X-Data through `schema.querystring` (the X-Data hook puts the
 * decoded object there), but the document must say that the parameters travel in a header.
 */
export const transform: SwaggerTransform = ({ schema, url, ...document }) => {
  if (schema?.querystring === undefined) return { schema, url }
  const { querystring, ...rest } = schema
  const name = String((querystring as Json).$ref)
  const example = (document as { openapiObject: Json }).openapiObject.components.schemas[name].examples[0]
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
            description: `The parameters (\`${name}\`) as a JSON object, UTF-8 encoded, then Base64 (standard or URL-safe alphabet, padding optional). Absent means \`{}\` (all defaults). The query string is never read.`,
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
const OPERATION = ['operationId', 'summary', 'description', 'tags', 'parameters', 'requestBody', 'responses']
const PARAMETER = ['name', 'in', 'required', 'description', 'schema', 'example']
const X_DATA_KEYS = ['type', 'maxLength', 'contentEncoding', 'contentMediaType', 'contentSchema']
const METHODS = ['post', 'get', 'head', 'put', 'patch', 'delete', 'options']

/** Known keys in the given order, then the rest alphabetically. */
function ordered (object: Json, order: readonly string[] = []): Json {
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length)
  const keys = Object.keys(object).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
  return Object.fromEntries(keys.map((key) => [key, object[key]]))
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
    result.requestBody = {
      description: 'The parameters as a JSON object. An empty body means `{}`: all defaults.',
      // CONTRACT §1.1: a POST without a body means {}
      required: false,
      content: { 'application/json': { schema: media.schema, example: schemas[name].examples[0] } }
    }
  }

  const errors = Object.entries(errorResponses(operation)).map(([status, name]) => [status, responseRef(name)])
  const responses: Json = { ...operation.responses, ...Object.fromEntries(errors) }
  result.responses = ordered(responses, Object.keys(responses).sort())
  return ordered(result, OPERATION)
}

/** The finished document: operations completed, and a key order that does not depend on registration order. */
export const transformObject: SwaggerTransformObject = (documentObject) => {
  const document = (documentObject as { openapiObject: Json }).openapiObject
  const schemas: Json = document.components.schemas
  const paths = Object.fromEntries(Object.entries(document.paths as Json).map(([path, item]) => [
    path,
    ordered(Object.fromEntries(Object.entries(item as Json).map(([method, operation]) => [method, finishOperation(operation, schemas)])), METHODS)
  ]))
  const allComponents = { ...document.components, ...components }
  return ordered({
    ...document,
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
        description: 'Cryptographically secure random values: passwords, integers, VPN secrets, UUIDs, BIP-39 phrases, bytes and short IDs. ' +
          'Every generator takes its parameters either as a JSON body (POST, recommended) or as Base64 JSON in the `X-Data` header (GET); ' +
          'errors are RFC 9457 problem documents (`application/problem+json`) with stable codes.',
        license: { name: 'MIT', identifier: 'MIT' }
      },
      servers: [{ url: '/' }],
      // CONTRACT §6: no authentication (the service holds no user data); said explicitly
      security: [],
      tags: [
        { name: 'generators', description: 'Random value generators: POST with a JSON body, or GET with the X-Data header.' },
        { name: 'health', description: 'Liveness and readiness.' }
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
      transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, '')
    })
  }
}, { name: 'docs', dependencies: ['security'] })
