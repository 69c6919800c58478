// The page (web/) bundled by esbuild into content-hashed assets and the HTML that loads them.
// From source (npm start, the tests) src/build/page-assets.ts runs this once per process, in memory;
// the production build (scripts/build.ts) runs it once and bundles the result into dist/server.js.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { formSpec, setFormSpec } from '../src/build/form-spec.js'

const root = fileURLToPath(new URL('..', import.meta.url))

export interface PageAsset {
  body: string
  contentType: string
}

export interface PageBundle {
  /** GET /: the page itself. */
  html: string
  /** GET /assets/<name>: each name carries a hash of its content, so it is cached for good. */
  assets: Record<string, PageAsset>
}

/** The browsers the page supports: current ones, whose DOM has what it uses (replaceChildren, CSS.escape, :focus-visible). */
const TARGET = ['chrome100', 'firefox100', 'safari15.4']

/** `page-<hash>.js`: 16 hex digits of the content's SHA-256. */
function hashedName (stem: string, extension: string, body: string): string {
  return `${stem}-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${extension}`
}

async function bundle (entryPoint: string, define: Record<string, string> = {}): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entryPoint],
    bundle: true,
    write: false,
    format: 'esm',
    target: TARGET,
    minify: true,
    define,
    // qr's licence notice stays with its code
    legalComments: 'inline',
    logLevel: 'silent'
  })
  return (result.outputFiles[0] as { text: string }).text
}

export async function bundlePage (): Promise<PageBundle> {
  const [script, style] = await Promise.all([
    bundle('web/main.ts', { FORM_SPEC: JSON.stringify(formSpec()), SET_SPEC: JSON.stringify(setFormSpec()) }),
    bundle('web/style.css')
  ])
  const icon = readFileSync(new URL('../web/icon.svg', import.meta.url), 'utf8')
  const names = { script: hashedName('page', 'js', script), style: hashedName('page', 'css', style), icon: hashedName('icon', 'svg', icon) }
  // No inline script or style (the CSP allows neither); the script builds the page in the
  // browser's language, so `lang` here is only what a reader without JavaScript gets
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>randgen</title>
<link rel="icon" href="/assets/${names.icon}" type="image/svg+xml">
<link rel="stylesheet" href="/assets/${names.style}">
<script type="module" src="/assets/${names.script}"></script>
</head>
<body>
<noscript><main><h1>randgen</h1><p>This page needs JavaScript. The API works without it: <a href="/docs">/docs</a>.</p></main></noscript>
</body>
</html>
`
  return {
    html,
    assets: {
      [names.script]: { body: script, contentType: 'text/javascript; charset=utf-8' },
      [names.style]: { body: style, contentType: 'text/css; charset=utf-8' },
      [names.icon]: { body: icon, contentType: 'image/svg+xml' }
    }
  }
}
