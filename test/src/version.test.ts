import t from 'tap'
import { readFileSync } from 'node:fs'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

t.test('name and version come from package.json', async (t) => {
  const { SERVICE_NAME, SERVICE_VERSION } = await import('../../src/version.js')
  t.equal(SERVICE_NAME, 'randgen')
  t.equal(SERVICE_VERSION, pkg.version)
})
