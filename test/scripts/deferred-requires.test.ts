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

/** What `source`, loaded as the module at `path` is, requires while it loads. */
function requiredAtLoad (source: string, path = INDEX): string[] {
  const required: string[] = []
  const requireReal = createRequire(path)
  const record = (id: string): unknown => { required.push(id); return requireReal(id) }
  const module = { exports: {} }
  // eslint-disable-next-line no-new-func -- loading the package's own source, as Node's CommonJS loader does
  new Function('require', 'module', 'exports', '__filename', '__dirname', source)(record, module, module.exports, path, dirname(path))
  return required
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
