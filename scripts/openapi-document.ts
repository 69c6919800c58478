// The text of openapi.json: what the app serves at /docs/json, pretty-printed. Used by
// `npm run openapi` (writes the file) and `npm run openapi:check` (fails when it drifted).
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/ops/config.js'

export const OPENAPI_FILE = new URL('../openapi.json', import.meta.url)

/** Two-space JSON with a final newline; key order is the document's own (see plugins/docs.ts). */
export function documentText (document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`
}

/** The document as the running service serves it, built with the test-style configuration. */
export async function servedDocumentText (): Promise<string> {
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }))
  try {
    const response = await app.inject({ method: 'GET', url: '/docs/json' })
    return documentText(response.json())
  } finally {
    await app.close()
  }
}

/** `undefined` when equal, else where the texts first differ (1-based line) and both lines. */
export function firstDifference (expected: string, actual: string): string | undefined {
  if (expected === actual) return undefined
  const want = expected.split('\n')
  const have = actual.split('\n')
  let line = 0
  while (want[line] === have[line]) line++
  return `line ${line + 1}: served ${JSON.stringify(want[line] ?? '<end>')}, file ${JSON.stringify(have[line] ?? '<end>')}`
}
