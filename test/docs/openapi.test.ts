// The OpenAPI document: what /docs/json serves is openapi.json, and it says what the service does.
import t from 'tap'
import { readFile } from 'node:fs/promises'
import { parse as parseYaml } from 'yaml'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { InjectOptions } from 'fastify'
import { build, GENERATORS as TYPES } from '../helper.js'
import { GENERATOR_ALLOW } from '../../src/http/generator-route.js'
import { BODY_LIMIT } from '../../src/server-options.js'

type Json = Record<string, any>

/** Each generator's path segment and the stem of its names: `short-id` → `ShortId` (ShortIdParams, generateShortId). */
const GENERATORS = Object.fromEntries(TYPES.map((type) => [type, type.split('-').map((part) => part[0]!.toUpperCase() + part.slice(1)).join('')]))
// CONTRACT §10: a set is generateSet (POST) and generateSetWithHeader (GET)
const OPERATION_IDS = ['getHealth', 'getLiveness', 'getReadiness', 'listRecipes', 'getRecipe', 'generateSet', 'generateSetWithHeader', ...Object.values(GENERATORS).flatMap((name) => [`generate${name}`, `generate${name}WithHeader`])]
const ERRORS = {
  post: { 400: 'BodyInvalid', 401: 'Unauthorized', 405: 'MethodNotAllowed', 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType', 429: 'RateLimited', 500: 'InternalError' },
  get: { 400: 'XDataInvalid', 401: 'Unauthorized', 405: 'MethodNotAllowed', 429: 'RateLimited', 500: 'InternalError' }
}
/** CONTRACT §12.1: the generators whose requests use the pool may answer 503 BUSY; §13: a JWK Set may be unacceptable (406). */
const POOLED = new Set(['password', 'passphrase', 'signing-key'])
const OTHER_FORMS: Record<string, string[]> = { 'signing-key': ['application/jwk-set+json'] }
/** Parameters with no default, each absent unless asked (CONTRACT §12's hash, §13's modulusBits, §14.2's padding, whose default depends on encoding): a default would be sent for them. */
const OPTIONAL_WITHOUT_DEFAULT = new Set(['PasswordParams.hash', 'PassphraseParams.hash', 'SigningKeyParams.modulusBits', 'SeqParams.padding'])

const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'))
const file = await readFile(new URL('../../openapi.json', import.meta.url), 'utf8')

function operations (document: Json): Array<[string, string, Json]> {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, operation]): [string, string, Json] => [path, method, operation]))
}

/** Follows a local `$ref` such as `#/components/schemas/Problem`. */
function resolve (document: Json, ref: string): Json {
  return ref.slice(2).split('/').reduce((node, part) => node[part], document)
}

t.test('/docs/json serves openapi.json, byte for byte once pretty-printed', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'GET', url: '/docs/json' })
  t.equal(response.statusCode, 200)
  t.equal(`${JSON.stringify(response.json(), null, 2)}\n`, file, 'no drift: run `npm run openapi` after changing a route or schema')
  const yaml = await app.inject({ method: 'GET', url: '/docs/yaml' })
  t.same(parseYaml(yaml.body), JSON.parse(file), '/docs/yaml is the same document')
})

t.test('document header', async (t) => {
  const document = JSON.parse(file)
  t.same(Object.keys(document), ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components'], 'stable top-level order')
  t.equal(document.openapi, '3.1.0')
  t.match(document.info, { title: 'randgen', version: pkg.version, license: { name: 'MIT', identifier: 'MIT' } })
  t.ok(document.info.description.length > 40, 'info has a description')
  t.same(document.servers, [{ url: '/', 'x-internal': false }], 'relative server, public')
  t.same(document.security, [], 'no authentication by default (CONTRACT §6)')
  // CONTRACT §9: the bearer scheme, optional on generator operations only
  t.same(document.components.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer', description: document.components.securitySchemes.bearerAuth.description } })
  for (const [path, method, operation] of operations(document)) {
    if (path.startsWith('/api/generate/') || path === '/api/generate') t.same(operation.security, [{}, { bearerAuth: [] }], `${method.toUpperCase()} ${path}: the key is optional`)
    else t.equal(operation.security, undefined, `${method.toUpperCase()} ${path}: never asks for a key`)
  }
  t.notMatch(file, /def-\d/, 'named components only')
  t.same(Object.keys(document.components.schemas), [...Object.keys(document.components.schemas)].sort(), 'components sorted by name')
})

t.test('every operation: id, summary, description, tag, X-Language; OPTIONS and HEAD hidden', async (t) => {
  const document = JSON.parse(file)
  const all = operations(document)
  t.same(all.map(([, , operation]) => operation.operationId).sort(), [...OPERATION_IDS].sort(), `${TYPES.length * 2 + 7} operations with the documented ids`)
  t.same([...new Set(all.map(([, method]) => method))].sort(), ['get', 'post'], 'no OPTIONS or HEAD operations')
  for (const [path, method, operation] of all) {
    t.ok(operation.summary && operation.description, `${method} ${path}: summary and description`)
    t.equal(operation.tags.length, 1, `${method} ${path}: one tag`)
    t.ok(document.tags.some((tag: Json) => tag.name === operation.tags[0]), `${method} ${path}: its tag is declared`)
    t.same(operation.parameters.at(-1), { $ref: '#/components/parameters/XLanguage' }, `${method} ${path}: X-Language`)
  }
  t.match(document.components.parameters.XLanguage, { name: 'X-Language', in: 'header', required: false })
})

t.test('generator operations: parameters, examples, results and errors', async (t) => {
  const document = JSON.parse(file)
  const app = await build(t)
  const ajv = new Ajv2020({ strict: false })
  ajv.addSchema(document, 'openapi.json')

  for (const [type, name] of Object.entries(GENERATORS)) {
    const path = `/api/generate/${type}`
    const { post, get } = document.paths[path]
    const params = { $ref: `#/components/schemas/${name}Params` }
    const paramsSchema = document.components.schemas[`${name}Params`]
    t.equal(paramsSchema.required, undefined, `${name}Params: every parameter optional`)
    t.equal(paramsSchema.additionalProperties, false, `${name}Params: unknown fields rejected`)
    for (const [property, schema] of Object.entries(paramsSchema.properties as Json)) {
      const optional = OPTIONAL_WITHOUT_DEFAULT.has(`${name}Params.${property}`)
      // A reference (hash: HashParams) is described by the component it names
      const description = schema.description ?? (typeof schema.$ref === 'string' ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]?.description : undefined)
      t.ok((optional ? schema.default === undefined : schema.default !== undefined) && typeof description === 'string', `${name}Params.${property}: ${optional ? 'no default (absent unless asked)' : 'default'} and description`)
    }

    // POST: the named component, with an example the service accepts
    t.equal(post.operationId, `generate${name}`)
    t.equal(post.requestBody.required, false, `POST ${path}: an empty body means {}`)
    const body = post.requestBody.content['application/json']
    t.same(body.schema, params, `POST ${path}: body is ${name}Params`)
    t.same(body.example, paramsSchema.examples[0], `POST ${path}: example from the schema`)
    t.ok(ajv.validate({ $ref: `openapi.json#/components/schemas/${name}Params` }, body.example), `POST ${path}: example is valid`)
    const posted = await app.inject({ method: 'POST', url: path, payload: body.example })
    t.equal(posted.statusCode, 200, `POST ${path}: the example works`)
    t.ok(ajv.validate({ $ref: `openapi.json#/components/schemas/${name}Result` }, posted.json()), `POST ${path}: the answer is a ${name}Result`)
    const asText = await app.inject({ method: 'POST', url: path, payload: body.example, headers: { accept: 'text/plain' } })
    t.equal(asText.headers['content-type'], 'text/plain; charset=utf-8', `POST ${path}: the documented text/plain is what Accept: text/plain gets`)

    // GET: X-Data documented as Base64 JSON of the same component, with a working example
    t.equal(get.operationId, `generate${name}WithHeader`)
    t.equal(get.requestBody, undefined)
    const [xData, ...rest] = get.parameters
    t.equal(rest.length, 1, `GET ${path}: X-Data and X-Language only (no query parameters)`)
    t.match(xData, { name: 'X-Data', in: 'header', required: false })
    t.same(xData.schema, {
      type: 'string',
      maxLength: 49152,
      pattern: '^[A-Za-z0-9+/_-]*={0,2}$',
      contentEncoding: 'base64',
      contentMediaType: 'application/json',
      contentSchema: params
    }, `GET ${path}: X-Data schema`)
    t.same(JSON.parse(Buffer.from(xData.example, 'base64').toString('utf8')), paramsSchema.examples[0], `GET ${path}: example is the Base64 of the schema's example`)
    const got = await app.inject({ method: 'GET', url: path, headers: { 'x-data': xData.example } })
    t.equal(got.statusCode, 200, `GET ${path}: the example works`)
    t.ok(ajv.validate({ $ref: `openapi.json#/components/schemas/${name}Result` }, got.json()), `GET ${path}: the answer is a ${name}Result`)

    // The result: the four fields of CONTRACT §1.2 (publicKeys only where keys are made, hashes,
    // always there, for tokens)
    const result = document.components.schemas[`${name}Result`]
    const fields = ['type', 'values', 'entropyBits', 'generatedAt', ...(type === 'token' ? ['hashes'] : [])]
    t.same(result.properties.type.const, type, `${name}Result.type is the const ${type}`)
    t.same(result.required, fields, `${name}Result: every field required`)
    // `hashes` of a password or passphrase is there only when asked (CONTRACT §12), after the four
    t.same(Object.keys(result.properties).filter((key) => key !== 'publicKeys' && !(key === 'hashes' && type !== 'token')), fields, `${name}Result: fields in the order they are sent`)
    t.match(result.properties.entropyBits, { type: 'number', minimum: 0, description: /log2/ }, `${name}Result.entropyBits`)
    t.equal(result.additionalProperties, false)

    for (const [method, operation] of [['post', post], ['get', get]] as const) {
      const ok = operation.responses[200]
      t.same(Object.keys(ok.content), ['application/json', 'text/plain', ...(OTHER_FORMS[type] ?? [])], `${method.toUpperCase()} ${path}: 200 as JSON or text/plain`)
      t.same(ok.content['application/json'].schema, { $ref: `#/components/schemas/${name}Result` })
      t.match(ok.content['text/plain'].schema, { type: 'string', description: /one per line/ }, `${method.toUpperCase()} ${path}: text/plain is a string`)
      t.match(ok.content['text/plain'].example, /^([^\n]+\n)+$/, `${method.toUpperCase()} ${path}: text/plain example, lines ending in \\n`)
      t.match(ok.description, /text\/plain/, '200 says when text/plain is sent')
      const errors = Object.fromEntries(Object.entries(operation.responses as Json).filter(([status]) => status !== '200')
        .map(([status, response]) => [status, response.$ref.replace('#/components/responses/', '')]))
      const expected = { ...ERRORS[method], ...(type in OTHER_FORMS ? { 406: 'NotAcceptable' } : {}), ...(POOLED.has(type) ? { 503: 'Busy' } : {}) }
      t.same(errors, expected, `${method.toUpperCase()} ${path}: the errors it can answer`)
      t.same(Object.keys(operation.responses), Object.keys(operation.responses).sort(), 'responses in status order')
    }
  }
  t.same(Object.keys(document.paths['/api/health'].get.responses), ['200', '405', '429', '500', '503'])
  t.same(Object.keys(document.paths['/readyz'].get.responses), ['200', '405', '429', '500', '503'])
  t.same(Object.keys(document.paths['/livez'].get.responses), ['200', '405', '429', '500'])
})

t.test('documented errors are problem+json and their examples are what the service sends', async (t) => {
  const document = JSON.parse(file)
  const app = await build(t)
  const ajv = new Ajv2020({ strict: false })
  ajv.addSchema(document, 'openapi.json')
  const problem = (body: unknown) => ajv.validate({ $ref: 'openapi.json#/components/schemas/Problem' }, body)

  for (const [name, response] of Object.entries(document.components.responses as Json)) {
    t.same(Object.keys(response.content), ['application/problem+json'], `${name}: problem+json only`)
    t.same(response.content['application/problem+json'].schema, { $ref: '#/components/schemas/Problem' })
    t.same(resolve(document, response.headers['Content-Language'].$ref).schema.enum, ['en', 'ru', 'de', 'fr', 'es'])
    for (const example of Object.values(response.content['application/problem+json'].examples as Json)) {
      t.ok(problem(example.value), `${name}: example is a Problem`)
    }
  }

  const example = (response: string, code: string) => document.components.responses[response].content['application/problem+json'].examples[code].value
  const url = '/api/generate/password'
  const json = { 'content-type': 'application/json' }
  const cases: Array<[string, string, InjectOptions]> = [
    ['BodyInvalid', 'VALIDATION_FAILED', { method: 'POST', url, headers: json, payload: '{"length":3}' }],
    ['BodyInvalid', 'BODY_INVALID', { method: 'POST', url, headers: json, payload: '{' }],
    ['XDataInvalid', 'VALIDATION_FAILED', { method: 'GET', url, headers: { 'x-data': Buffer.from('{"length":3}').toString('base64') } }],
    ['XDataInvalid', 'X_DATA_INVALID', { method: 'GET', url, headers: { 'x-data': '!' } }],
    ['MethodNotAllowed', 'METHOD_NOT_ALLOWED', { method: 'PUT', url, headers: json, payload: '{}' }],
    ['PayloadTooLarge', 'PAYLOAD_TOO_LARGE', { method: 'POST', url, headers: json, payload: `"${'x'.repeat(BODY_LIMIT)}"` }],
    ['UnsupportedMediaType', 'UNSUPPORTED_MEDIA_TYPE', { method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'length=32' }]
  ]
  for (const [response, code, request] of cases) {
    const answer = await app.inject(request)
    t.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8', `${code}: problem+json`)
    // Error bodies are serialised by src/http/errors.ts, never by a route's response schema
    t.equal(answer.body, JSON.stringify(example(response, code)), `${response} ${code}: the documented example is the real body`)
  }
  t.equal((await app.inject({ method: 'PUT', url })).headers.allow, GENERATOR_ALLOW, 'the 405 example names the real Allow')
})

t.test('key order does not depend on anything but the routes and schemas', async (t) => {
  const first = await build(t)
  const second = await build(t)
  t.equal(JSON.stringify(first.swagger()), JSON.stringify(second.swagger()))
  const document = first.swagger() as Json
  for (const [, , operation] of operations(document)) {
    const keys = Object.keys(operation)
    t.same(keys, ['operationId', 'summary', 'description', 'tags', 'security', 'parameters', 'requestBody', 'responses'].filter((key) => keys.includes(key)))
  }
  t.same(Object.keys(document.paths['/api/generate/seq']), ['post', 'get'], 'POST (recommended) first')
})
