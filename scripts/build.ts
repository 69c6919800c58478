// `npm run build`: the production build, dist/server.js, one ES module with the service, its
// dependencies and its route schemas already compiled. Node 20 spends most of a start-up
// resolving, reading and compiling modules (TypeBox alone is 266 files, Fastify and AJV a few
// hundred more) and then compiling schemas; one file with compiled schemas starts in about half
// the time. Type checking is `npm run typecheck`; esbuild only strips types.
import { readFileSync, rmSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions, type Plugin } from 'esbuild'
import { mnemonicOf } from '../plugins/phrase.js'
import { PHRASE_LANGUAGES } from '../schemas/phrase.js'
import { compileSchemas, writeCompiledSchemas } from './compile-schemas.js'
import { bundlePage } from './page-bundle.js'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * @fastify/swagger-ui reads its logo and serves Swagger UI's files from its own directory
 * (`__dirname`), which CommonJS gives every module and an ES module bundle does not. Each of its
 * files gets the directory it has in node_modules, found at run time the way Node finds the
 * package, so the bundle serves the installed files exactly as the unbundled package does. Its
 * source is bundled as published: one declaration goes before it and none of its statements is
 * read or changed, so an update of the package needs no review here. The alternatives measured
 * worse or change what is served (docs/performance.md, issue 31): the package left out of the
 * bundle (`external`, loaded from node_modules) cost +9 MB of idle RSS and start-up with it, over
 * the idle target; its `baseDir` option adds a route serving every file of that folder.
 */
const SWAGGER_UI = '@fastify/swagger-ui'
const swaggerUiDirectory: Plugin = {
  name: 'swagger-ui-directory',
  setup (esbuild) {
    const packageRoot = dirname(fileURLToPath(import.meta.resolve(`${SWAGGER_UI}/package.json`)))
    esbuild.onLoad({ filter: /[\\/]@fastify[\\/]swagger-ui[\\/].*\.js$/ }, ({ path }) => {
      const own = JSON.stringify(relative(packageRoot, dirname(path)))
      const dirnameAtRunTime = `var __dirname = require('node:path').join(require('node:path').dirname(require.resolve('${SWAGGER_UI}/package.json')), ${own});`
      return { contents: `${dirnameAtRunTime}\n${readFileSync(path, 'utf8')}`, loader: 'js' }
    })
  }
}

/**
 * Every route's validator and serializer compiled now rather than at each start-up (~35 ms of
 * it here): the bundle gets the generated module that restores them in place of
 * src/build/precompiled.ts. test/src/build/compiled-schemas.test.ts holds them to the same answers.
 */
function precompiledSchemas (index: string): Plugin {
  return {
    name: 'precompiled-schemas',
    setup (esbuild) {
      esbuild.onLoad({ filter: /[\\/]src[\\/]build[\\/]precompiled\.ts$/ }, () => ({
        contents: readFileSync(index, 'utf8'),
        loader: 'js',
        resolveDir: dirname(index)
      }))
    }
  }
}
/**
 * The page (web/) bundled now rather than at each start-up: dist/server.js holds its HTML and
 * assets as strings in place of src/build/page-assets.ts, so production serves them from memory without
 * esbuild (a dev dependency) and without a moment's work at start-up.
 */
function bundledPage (page: Awaited<ReturnType<typeof bundlePage>>): Plugin {
  const contents = `const bundled = Promise.resolve(${JSON.stringify(page)});\nexport function pageBundle () { return bundled }\n`
  return {
    name: 'bundled-page',
    setup (esbuild) {
      esbuild.onLoad({ filter: /[\\/]src[\\/]build[\\/]page-assets\.ts$/ }, () => ({ contents, loader: 'js' }))
    }
  }
}

// The service builds each BIP-39 list on its first use (plugins/phrase.ts); every one is built
// and checked here, so a change in @scure/bip39 that breaks one stops the build, not a request
for (const language of PHRASE_LANGUAGES) mnemonicOf(new Uint8Array(16), language)

const compiledIndex = writeCompiledSchemas(await compileSchemas(), fileURLToPath(new URL('../node_modules/.cache/randgen/precompiled', import.meta.url)))

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })

/** What both bundles share: one ES module each for Node, every dependency inside unless said otherwise. */
const bundled = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Bundled CommonJS packages call require() for Node built-ins (and swaggerUiDirectory resolves a
  // package with it); an ES module has no require of its own
  banner: { js: "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);" },
  // Whitespace and syntax minified: a third less to parse at start-up (~60 ms here). Identifiers
  // are kept, so stack traces in production logs still name every function.
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: false,
  // Licence comments go to dist/<bundle>.LEGAL.txt, beside the bundle in the image: one
  // non-ASCII character among them (a name in formdata-polyfill's) made V8 hold the whole 2 MB
  // source as a two-byte string, 4.3 MB of heap instead of 2.1 (idle RSS, docs/performance.md)
  legalComments: 'external',
  logLevel: 'warning'
} satisfies BuildOptions

await build({
  ...bundled,
  entryPoints: ['src/server.ts'],
  outfile: 'dist/server.js',
  // Every dependency is bundled: loading a package from node_modules costs its module resolution,
  // file reads and a compile per file (~60 ms of start-up for Swagger UI's packages, yaml and pino).
  // pino's transports would need its worker files, but the logger writes to stdout and starts none.
  plugins: [swaggerUiDirectory, precompiledSchemas(compiledIndex), bundledPage(await bundlePage())]
})

// CONTRACT §12.1: the work pool's thread (src/work-pool/thread.ts), which src/work-pool/pool.ts starts
// from beside dist/server.js on the first job. The native addons stay outside, loaded from
// node_modules at run time (the image's production dependencies hold them; a .node file cannot
// be bundled): bcrypt, whose node-gyp-build finds its prebuilt binary in
// node_modules/bcrypt/prebuilds, and @node-rs/argon2, whose loader picks the package of this
// platform and libc among its optional dependencies (@node-rs/argon2-linux-x64-gnu in the image)
await build({
  ...bundled,
  entryPoints: ['src/work-pool/thread.ts'],
  outfile: 'dist/pool-thread.js',
  external: ['bcrypt', '@node-rs/argon2']
})
