import t from 'tap'
import { readFileSync } from 'node:fs'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

t.test('name and version come from package.json', async (t) => {
  const { SERVICE_NAME, SERVICE_VERSION } = await import('../../src/version.js')
  t.equal(SERVICE_NAME, 'randgen')
  t.equal(SERVICE_VERSION, pkg.version)
})

t.test('compiled layout: package.json two levels up', async (t) => {
  const read: string[] = []
  const { SERVICE_VERSION } = await t.mockImport<typeof import('../../src/version.js')>('../../src/version.js', {
    'node:fs': {
      readFileSync: (url: URL) => {
        read.push(url.pathname)
        // One level up is some other package (or nothing at all)
        if (read.length === 1) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' })
        return JSON.stringify({ name: 'randgen', version: '9.9.9' })
      }
    }
  })
  t.equal(SERVICE_VERSION, '9.9.9')
  t.equal(read.length, 2)
})

t.test('no package.json of randgen: a clear error at start', async (t) => {
  await t.rejects(t.mockImport('../../src/version.js', {
    'node:fs': { readFileSync: () => JSON.stringify({ name: 'something-else', version: '1.0.0' }) }
  }), { message: 'package.json of randgen not found' })
})
