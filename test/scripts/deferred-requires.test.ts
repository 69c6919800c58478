// scripts/deferred-requires.ts: the build's rewrite of @fastify/static's requires. On the installed
// package it finds every statement and leaves no require of @fastify/send or glob at load; on a
// package that moved one it stops the build. What the rewritten bundle serves is compared with the
// unbundled service by test/deploy/static-files.deploy.ts.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { build } from 'esbuild'
import t from 'tap'
import { FASTIFY_STATIC_DEFERRALS, deferRequires, deferredRequires } from '../../scripts/deferred-requires.js'

const INDEX = createRequire(import.meta.url).resolve('@fastify/static')
const SOURCE = readFileSync(INDEX, 'utf8')

/** What `source`, loaded as @fastify/static's index.js is, requires while it loads. */
function requiredAtLoad (source: string): string[] {
  const required: string[] = []
  const requireReal = createRequire(INDEX)
  const record = (id: string): unknown => { required.push(id); return requireReal(id) }
  const module = { exports: {} }
  // eslint-disable-next-line no-new-func -- loading the package's own source, as Node's CommonJS loader does
  new Function('require', 'module', 'exports', '__filename', '__dirname', source)(record, module, module.exports, INDEX, dirname(INDEX))
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
