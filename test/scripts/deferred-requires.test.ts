// scripts/deferred-requires.ts: the build's rewrite of @fastify/static's requires. On the installed
// package it finds every statement and leaves no require of @fastify/send or glob at load; on a
// package that moved one it stops the build. What the rewritten bundle serves is compared with the
// unbundled service by test/deploy/static-files.deploy.ts.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { build } from 'esbuild'
import t from 'tap'
import { DEFERRALS, FASTIFY_STATIC_DEFERRALS, YAML_DEFERRALS, deferRequires, deferredRequires, deferredSource } from '../../scripts/deferred-requires.js'

const INDEX = createRequire(import.meta.url).resolve('@fastify/static')
const SOURCE = readFileSync(INDEX, 'utf8')

/** `source` loaded as the module at `path` is: what it requires while it loads, and its exports. */
function load (source: string, path: string): { required: string[], exports: any } {
  const required: string[] = []
  const requireReal = createRequire(path)
  const record = (id: string): unknown => { required.push(id); return requireReal(id) }
  const module = { exports: {} }
  // eslint-disable-next-line no-new-func -- loading the package's own source, as Node's CommonJS loader does
  new Function('require', 'module', 'exports', '__filename', '__dirname', source)(record, module, module.exports, path, dirname(path))
  return { required, exports: module.exports }
}

function requiredAtLoad (source: string, path = INDEX): string[] {
  return load(source, path).required
}

t.test('the installed @fastify/static: every statement replaced, and it loads without send or glob', async (t) => {
  const rewritten = deferRequires(SOURCE, FASTIFY_STATIC_DEFERRALS, INDEX)
  for (const { statement } of FASTIFY_STATIC_DEFERRALS) t.notOk(rewritten.includes(statement), `${JSON.stringify(statement)} gone`)
  t.ok(['glob', '@fastify/send'].every((id) => requiredAtLoad(SOURCE).includes(id)), 'as published, both required when it loads')
  const deferred = requiredAtLoad(rewritten)
  t.notOk(deferred.includes('glob') || deferred.includes('@fastify/send'), `rewritten, neither (${deferred.join(', ')})`)
  t.match(rewritten, "required.mime.default_type = 'application/octet-stream'", 'the default type set when send loads')
})

t.test('every file of DEFERRALS, as installed: rewritten, and loads without what it defers', async (t) => {
  const requireHere = createRequire(import.meta.url)
  for (const [file, deferrals] of Object.entries(DEFERRALS)) {
    const path = requireHere.resolve(file)
    const deferred = deferrals.map(({ statement }) => /require\('([^']+)'\)/.exec(statement)?.[1]).filter((id) => id !== undefined)
    t.ok(deferred.every((id) => requiredAtLoad(readFileSync(path, 'utf8'), path).includes(id)), `${file}: as published, requires ${deferred.join(', ')} at load`)
    const required = requiredAtLoad(deferredSource(path), path)
    t.notOk(deferred.some((id) => required.includes(id)), `${file}: rewritten, not at load`)
  }
  t.equal(deferredSource(requireHere.resolve('fastify-plugin')), readFileSync(requireHere.resolve('fastify-plugin'), 'utf8'), 'any other file as published')
})

t.test('the stand-ins work when called: AJV and fast-json-stringify compile through them', async (t) => {
  const requireHere = createRequire(import.meta.url)
  const ajvCompiler = requireHere.resolve('@fastify/ajv-compiler')
  const { exports: AjvCompiler } = load(deferredSource(ajvCompiler), ajvCompiler)
  const validate = AjvCompiler()({}, { customOptions: {} })({ schema: { type: 'integer', maximum: 3 } })
  t.ok(validate(3), 'a validator from the deferred ValidatorCompiler (called with new)')
  t.notOk(validate(4))
  const serialize = AjvCompiler({ jtdSerializer: true })({}, {})({ schema: { properties: { a: { type: 'int32' } } } })
  t.equal(serialize({ a: 1 }), '{"a":1}', 'a serializer from the deferred SerializerCompiler')
  const fjsCompiler = requireHere.resolve('@fastify/fast-json-stringify-compiler/standalone.js')
  const { exports: { SerializerSelector } } = load(deferredSource(fjsCompiler), fjsCompiler)
  t.equal(SerializerSelector()({}, {})({ schema: { type: 'object', properties: { b: { type: 'string' } } } })({ b: 'x' }), '{"b":"x"}', 'fast-json-stringify through its stand-in')
})

t.test('a stand-in for yaml provides stringify: a source using another member stops the build', async (t) => {
  t.throws(() => deferRequires("const yaml = require('yaml')\nyaml.stringify({})\nyaml.parse('a: 1')\n", YAML_DEFERRALS, 'x.js'), { message: 'x.js: uses yaml.parse, which the deferred require does not provide; review scripts/deferred-requires.ts' })
  t.equal(deferRequires("const yaml = require('yaml')\nyaml.stringify({})\n", YAML_DEFERRALS, 'x.js'), "const yaml = { stringify: (...args) => require('yaml').stringify(...args) }\nyaml.stringify({})\n")
})

t.test('a package that moved a statement stops the build', async (t) => {
  const [first] = FASTIFY_STATIC_DEFERRALS
  t.throws(() => deferRequires(SOURCE.replace(first?.statement ?? '', ''), FASTIFY_STATIC_DEFERRALS, 'index.js'), { message: /expected "const \{ glob \} = require\('glob'\)" exactly once/ })
  t.throws(() => deferRequires(`${SOURCE}\n${first?.statement ?? ''}`, FASTIFY_STATIC_DEFERRALS, 'index.js'), { message: /exactly once; the package changed/ })
})

t.test('the esbuild plugin applies it to @fastify/static and to nothing else', async (t) => {
  const result = await build({ entryPoints: [INDEX, createRequire(INDEX).resolve('@fastify/send')], bundle: false, write: false, outdir: 'out', plugins: [deferredRequires], logLevel: 'silent' })
  const [stat, send] = result.outputFiles
  t.match(stat?.text, 'loadedSend', '@fastify/static rewritten')
  t.notMatch(send?.text, 'loadedSend', '@fastify/send as published')
})
