// The production build's precompiled validators and serializers (scripts/compile-schemas.ts,
// src/build/compiled-schemas.ts) must behave exactly as the ones Fastify compiles at start-up: the
// same requests get the same statuses, the same problem documents and results of the same shape.
import { rmSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import t from 'tap'
import { compileSchemas, writeCompiledSchemas } from '../../../scripts/compile-schemas.js'
import { restoringCompilers, schemaKey } from '../../../src/build/compiled-schemas.js'
import { ConfigError } from '../../../src/ops/config-error.js'
import { loadConfig } from '../../../src/ops/config.js'
import type { Precompiled } from '../../../src/build/precompiled.js'
import { GENERATORS as FUZZED } from '../../fuzz/invariants.js'
import { jsonText } from '../../fuzz/properties.js'
import { build, buildUnready, GENERATORS } from '../../helper.js'

/**
 * What must not differ: status, content type, Vary, problem documents whole; results by type,
 * entropy and counts (values and public keys are random), text/plain by its line count, health
 * without its clock readings.
 */
async function outcome (app: FastifyInstance, request: InjectOptions): Promise<unknown> {
  const response = await app.inject(request)
  const type = response.headers['content-type']
  // Random values and clock readings may differ in length; a problem document may not (HEAD too)
  const head = { status: response.statusCode, type, vary: response.headers.vary, length: response.statusCode >= 400 ? response.headers['content-length'] : undefined }
  if (typeof type === 'string' && type.startsWith('text/plain')) return { ...head, lines: response.body.split('\n').length - 1 }
  const { values, publicKeys, hashes, generatedAt, uptime, timestamp, ...rest } = response.body === '' ? {} : response.json()
  return {
    ...head,
    body: { ...rest, count: values?.length, publicKeys: publicKeys?.length, hashes: hashes?.length, generatedAt: typeof generatedAt, uptime: typeof uptime, timestamp: typeof timestamp }
  }
}

t.test('schemaKey names the route and the part of it a schema describes', async (t) => {
  t.equal(schemaKey({ method: 'POST', url: '/api/generate/password', httpPart: 'body' }), 'POST /api/generate/password body')
  t.equal(schemaKey({ method: 'GET', url: '/api/health', httpStatus: '503' }), 'GET /api/health 503')
  t.equal(schemaKey({ method: 'POST', url: '/x', httpStatus: '200', contentType: 'application/json' }), 'POST /x 200 application/json')
})

t.test('a route the build did not compile stops the start, naming the route', async (t) => {
  const everything = new Proxy({}, { get: () => () => true })
  const noSerializers = await buildUnready(t, {}, { compilers: restoringCompilers({ validators: everything, serializers: {} }) })
  await t.rejects(async () => { await noSerializers.ready() }, /No precompiled serializer for GET \/api\/health 200: rebuild with npm run build/)
  const noValidators = await buildUnready(t, {}, { compilers: restoringCompilers({ validators: {}, serializers: everything }) })
  await t.rejects(async () => { await noValidators.ready() }, /No precompiled validator for POST \/api\/generate\/password body: rebuild with npm run build/)
})

t.test('precompiled functions answer exactly as functions compiled at start-up', async (t) => {
  const code = await compileSchemas()
  // Every generator's POST, GET and HEAD, and the set's (/api/generate): a validator each, and a
  // serializer for each media type of the 200 (text/plain is sent as the string it is, but Fastify
  // compiles every declared schema); for GET and HEAD, /api/health's and /readyz's 200 and 503,
  // and /livez's 200; signing-key's 200 has a third media type (a JWK Set, CONTRACT §13); the
  // recipes' (§14.1): GET and HEAD of /api/recipes/:id validate the id, and both routes' 200
  const paths = [...GENERATORS.map((name) => `/api/generate/${name}`), '/api/generate']
  t.equal(code.validators.size, paths.length * 3 + 2)
  t.equal(code.serializers.size, paths.length * 3 * 2 + 3 + 2 * 5 + 2 * 2)
  for (const method of ['GET', 'HEAD']) {
    t.ok(code.validators.has(`${method} /api/recipes/:id params`), `${method} /api/recipes/:id: its id's validator`)
    for (const path of ['/api/recipes', '/api/recipes/:id']) t.ok(code.serializers.has(`${method} ${path} 200`), `${method} ${path}: its serializer`)
  }
  for (const path of paths) {
    for (const method of ['POST', 'GET', 'HEAD']) {
      for (const media of ['application/json', 'text/plain']) {
        t.ok(code.serializers.has(`${method} ${path} 200 ${media}`), `${method} ${path}: ${media} serializer, keyed by media type`)
      }
    }
  }
  const dir = new URL(`../../../node_modules/.cache/randgen/test-${process.pid}`, import.meta.url)
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const index = writeCompiledSchemas(code, dir.pathname)
  const { PRECOMPILED } = await import(pathToFileURL(index).href) as { PRECOMPILED: Required<Precompiled> }

  // The environment: the same configuration, or the same one-line error
  const environments = [{}, { PORT: '8080', DOCS_ENABLED: 'false', TRUST_PROXY: '10.0.0.0/8', SHUTDOWN_TIMEOUT: '2000', LOG_LEVEL: 'warn', OTHER: 'x' }, { PORT: 'abc', LOG_LEVEL: 'loud', HOST: '' }]
  for (const env of environments) {
    const settle = (validate?: Precompiled['validateConfig']) => {
      try { return loadConfig(env, validate) } catch (error) { return (error as ConfigError).message }
    }
    t.same(settle(PRECOMPILED.validateConfig), settle(), `config from ${JSON.stringify(env)}`)
  }

  const precompiled = await buildUnready(t, {}, { compilers: PRECOMPILED.compilers })
  const compiled = await build(t)
  t.same(await outcome(precompiled, { method: 'GET', url: '/api/health' }), await outcome(compiled, { method: 'GET', url: '/api/health' }))
  for (const url of ['/livez', '/readyz']) {
    t.same(await outcome(precompiled, { method: 'GET', url }), await outcome(compiled, { method: 'GET', url }), url)
  }

  // Every generator, each form, as JSON and as text/plain (the response map by media type)
  for (const name of GENERATORS) {
    const url = `/api/generate/${name}`
    for (const accept of [undefined, 'text/plain']) {
      const headers = accept === undefined ? {} : { accept }
      const requests: InjectOptions[] = [
        { method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: '{"quantity":3}' },
        { method: 'GET', url, headers: { ...headers, 'x-data': Buffer.from('{"quantity":2}').toString('base64') } },
        { method: 'HEAD', url, headers },
        { method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: '{"quantity":0}' }
      ]
      for (const request of requests) {
        const fromBuild = await outcome(precompiled, request)
        t.same(fromBuild, await outcome(compiled, request), `${request.method} ${name}, Accept ${accept ?? 'none'}`)
        if (accept !== undefined && request.method !== 'HEAD' && request.payload !== '{"quantity":0}') {
          t.match(fromBuild, { status: 200, type: 'text/plain; charset=utf-8', vary: 'Accept' }, `${request.method} ${name}: text/plain from the build`)
        }
      }
    }
  }

  // Fuzzed parameters (test/fuzz/properties.ts, for the generators it knows), mostly valid, some
  // not, as a body and as X-Data, asking for JSON or text. Deterministic: the same 1,400 cases every run.
  let cases = 0
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(...FUZZED).chain((name) => fc.tuple(fc.constant(name), jsonText(name), fc.boolean(), fc.constantFrom({}, { accept: 'text/plain' }))),
    async ([name, text, asHeader, accept]) => {
      const url = `/api/generate/${name}`
      // X-Data carries the same text, Base64 (at most 48 KiB of header)
      const request = asHeader && text.length <= 36_000
        ? { method: 'GET' as const, url, headers: { ...accept, 'x-data': Buffer.from(text).toString('base64') } }
        : { method: 'POST' as const, url, headers: { ...accept, 'content-type': 'application/json' }, payload: text }
      const [fromBuild, fromStart] = [await outcome(precompiled, request), await outcome(compiled, request)]
      cases++
      if (JSON.stringify(fromBuild) !== JSON.stringify(fromStart)) {
        throw new Error(`${request.method} ${url} ${text.slice(0, 200)}: ${JSON.stringify(fromBuild)} vs ${JSON.stringify(fromStart)}`)
      }
    }
  ), { numRuns: 1400, seed: 20261123 })
  t.equal(cases, 1400, '1,400 requests answered alike')
})
