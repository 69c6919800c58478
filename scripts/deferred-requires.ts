// Part of `npm run build` (scripts/build.ts): some bundled packages require at load what only some
// requests use. @fastify/static (which @fastify/swagger-ui registers to serve Swagger UI's files)
// requires @fastify/send, which loads mime and builds its whole type table, and glob, which it
// calls only for `wildcard: false` (we keep the default, true): ~30 ms of a start-up (a CPU
// profile, issue 26) and their memory for files few processes are ever asked for. In the bundle
// each becomes a require on first use: esbuild turns it into the bundled module's own lazy
// initialiser, synchronous, so the first request for a file is served as every later one is.
import { readFileSync } from 'node:fs'
import type { Plugin } from 'esbuild'

/** One statement of a package's source and what the bundle has in its place. */
export interface Deferral {
  statement: string
  replacement: string
}

/** @fastify/static 10's index.js: its requires of @fastify/send and glob, made on first use. */
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
 * `source` with each statement replaced; throws when one is not there exactly once, so a new
 * version of the package that moves them stops the build instead of silently loading them again.
 */
export function deferRequires (source: string, deferrals: readonly Deferral[], file: string): string {
  let result = source
  for (const { statement, replacement } of deferrals) {
    const at = result.indexOf(statement)
    if (at === -1 || result.indexOf(statement, at + 1) !== -1) {
      throw new Error(`${file}: expected ${JSON.stringify(statement)} exactly once; the package changed, review scripts/deferred-requires.ts`)
    }
    result = result.slice(0, at) + replacement + result.slice(at + statement.length)
  }
  return result
}

/** The esbuild plugin: @fastify/static's index.js with FASTIFY_STATIC_DEFERRALS applied. */
export const deferredRequires: Plugin = {
  name: 'deferred-requires',
  setup (esbuild) {
    esbuild.onLoad({ filter: /[\\/]@fastify[\\/]static[\\/]index\.js$/ }, ({ path }) => ({
      contents: deferRequires(readFileSync(path, 'utf8'), FASTIFY_STATIC_DEFERRALS, path),
      loader: 'js'
    }))
  }
}
