// npm run openapi        writes openapi.json from the app
// npm run openapi:check  exits 1 when openapi.json differs from what the app serves at /docs/json
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { OPENAPI_FILE, firstDifference, servedDocumentText } from './openapi-document.js'

const served = await servedDocumentText()
const path = fileURLToPath(OPENAPI_FILE)

if (process.argv.includes('--check')) {
  const file = await readFile(path, 'utf8').catch(() => '')
  const difference = firstDifference(served, file)
  if (difference !== undefined) {
    console.error(`openapi.json differs from the document the app serves (${difference}). Run \`npm run openapi\` and commit the result.`)
    process.exit(1)
  }
  console.log('openapi.json matches /docs/json')
} else {
  await writeFile(path, served)
  console.log(`wrote ${path}`)
}
