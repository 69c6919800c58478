// Part of `npm run build` (scripts/build.ts): some bundled packages require at load what only some
// requests use (Swagger UI's files, /docs/yaml) or what a production process never runs (the
// schema compilers): ~55 ms of a profiled start-up in all (issue 26). In the bundle each such
// require happens on first use: esbuild turns it into the bundled module's own lazy initialiser,
// synchronous, so the first request that needs it is answered as every later one is. Each
// rewrite names the exact statement it replaces and the build stops if a package moved it.
import { readFileSync } from 'node:fs'
import type { Plugin } from 'esbuild'

/** One statement of a package's source and what the bundle has in its place. */
export interface Deferral {
  statement: string
  replacement: string
  /** The binding the replacement stands in for and the only members of it the source may use. */
  uses?: { binding: string, members: readonly string[] }
}

/**
 * @fastify/static 10's index.js (registered by @fastify/swagger-ui for Swagger UI's files): its
 * requires of @fastify/send, which loads mime and builds its whole type table, and of glob, which
 * it calls only for `wildcard: false` (we keep the default, true), made on first use (~30 ms).
 */
export const FASTIFY_STATIC_DEFERRALS: readonly Deferral[] = [
  {
    statement: "const { glob } = require('glob')",
    replacement: "const glob = (...args) => require('glob').glob(...args)"
  },
  {
    statement: "const send = require('@fastify/send')",
    // The default type @fastify/static sets when it loads, set when @fastify/send does
    replacement: "let loadedSend\nconst send = (...args) => {\n  if (loadedSend === undefined) {\n    const required = require('@fastify/send')\n    required.mime.default_type = 'application/octet-stream'\n    loadedSend = required\n  }\n  return loadedSend(...args)\n}"
  },
  {
    statement: "send.mime.default_type = 'application/octet-stream'\n",
    replacement: ''
  }
]

/**
 * yaml, which @fastify/swagger (both spec modules) and @fastify/swagger-ui require at load, only
 * for `stringify` when /docs/yaml is asked for: its parser, composer and schemas (~5 ms of a
 * start-up) loaded on the first such request.
 */
export const YAML_DEFERRALS: readonly Deferral[] = [
  {
    statement: "const yaml = require('yaml')",
    replacement: "const yaml = { stringify: (...args) => require('yaml').stringify(...args) }",
    uses: { binding: 'yaml', members: ['stringify'] }
  }
]

/**
 * AJV and fast-json-stringify: the production build restores every route's validator and
 * serializer compiled ahead of time (src/build/compiled-schemas.ts, through the compilers' standalone
 * read mode), yet importing the compilers loaded both to compile schemas a production process
 * never compiles (~15 ms of a profiled start-up). Loaded on first use, should anything compile.
 */
export const AJV_COMPILER_DEFERRALS: readonly Deferral[] = [
  // Both only ever called with `new`: a function that returns an object makes `new` return it
  {
    statement: "const ValidatorCompiler = require('./lib/validator-compiler')",
    replacement: "const ValidatorCompiler = function (...args) { return new (require('./lib/validator-compiler'))(...args) }",
    uses: { binding: 'ValidatorCompiler', members: [] }
  },
  {
    statement: "const SerializerCompiler = require('./lib/serializer-compiler')",
    replacement: "const SerializerCompiler = function (...args) { return new (require('./lib/serializer-compiler'))(...args) }",
    uses: { binding: 'SerializerCompiler', members: [] }
  }
]
export const AJV_STANDALONE_DEFERRALS: readonly Deferral[] = [
  {
    statement: "const standaloneCode = require('ajv/dist/standalone').default",
    replacement: "const standaloneCode = (...args) => require('ajv/dist/standalone').default(...args)",
    uses: { binding: 'standaloneCode', members: [] }
  }
]
export const FAST_JSON_STRINGIFY_DEFERRALS: readonly Deferral[] = [
  {
    statement: "const fastJsonStringify = require('fast-json-stringify')",
    replacement: "const fastJsonStringify = (...args) => require('fast-json-stringify')(...args)",
    uses: { binding: 'fastJsonStringify', members: [] }
  }
]

/** The files rewritten (paths inside node_modules, / as separator) and their deferrals. */
export const DEFERRALS: Readonly<Record<string, readonly Deferral[]>> = {
  '@fastify/static/index.js': FASTIFY_STATIC_DEFERRALS,
  '@fastify/swagger/lib/spec/openapi/index.js': YAML_DEFERRALS,
  '@fastify/swagger/lib/spec/swagger/index.js': YAML_DEFERRALS,
  '@fastify/swagger-ui/lib/routes.js': YAML_DEFERRALS,
  '@fastify/ajv-compiler/index.js': AJV_COMPILER_DEFERRALS,
  '@fastify/ajv-compiler/standalone.js': AJV_STANDALONE_DEFERRALS,
  '@fastify/fast-json-stringify-compiler/standalone.js': FAST_JSON_STRINGIFY_DEFERRALS
}

/**
 * `source` with each statement replaced; throws when one is not there exactly once, so a new
 * version of the package that moves them stops the build instead of silently loading them again.
 */
export function deferRequires (source: string, deferrals: readonly Deferral[], file: string): string {
  let result = source
  for (const { statement, replacement, uses } of deferrals) {
    const at = result.indexOf(statement)
    if (at === -1 || result.indexOf(statement, at + 1) !== -1) {
      throw new Error(`${file}: expected ${JSON.stringify(statement)} exactly once; the package changed, review scripts/deferred-requires.ts`)
    }
    result = result.slice(0, at) + replacement + result.slice(at + statement.length)
    if (uses === undefined) continue
    // The stand-in has only these members: a use of any other would fail when first called
    for (const [, member] of source.matchAll(new RegExp(`\\b${uses.binding}\\.(\\w+)`, 'g'))) {
      if (!uses.members.includes(member as string)) throw new Error(`${file}: uses ${uses.binding}.${member}, which the deferred require does not provide; review scripts/deferred-requires.ts`)
    }
  }
  return result
}

/** Where `path` is inside node_modules (the innermost), / as separator; undefined outside. */
function packagePath (path: string): string | undefined {
  return /.*node_modules[\\/](.*)$/.exec(path)?.[1]?.replaceAll('\\', '/')
}

/** The source of `path` as the bundle takes it: with its deferrals, if DEFERRALS has any. */
export function deferredSource (path: string): string {
  const source = readFileSync(path, 'utf8')
  const deferrals = DEFERRALS[packagePath(path) ?? '']
  return deferrals === undefined ? source : deferRequires(source, deferrals, path)
}

/**
 * The esbuild plugin: the files of DEFERRALS with their deferrals applied, every other file as
 * published. A plugin placed before it that loads a file itself (scripts/build.ts's
 * swaggerUiDirectory) takes it from deferredSource.
 */
export const deferredRequires: Plugin = {
  name: 'deferred-requires',
  setup (esbuild) {
    esbuild.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, ({ path }) => {
      if (DEFERRALS[packagePath(path) ?? ''] === undefined) return undefined
      return { contents: deferredSource(path), loader: 'js' }
    })
  }
}
