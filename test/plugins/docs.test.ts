import t from 'tap'
import { build, GENERATORS } from '../helper.js'

t.test('docs enabled (default)', async (t) => {
  const app = await build(t)

  t.test('/docs serves Swagger UI under its own CSP', async (t) => {
    const response = await app.inject({ method: 'GET', url: '/docs' })
    t.equal(response.statusCode, 200)
    t.match(response.headers['content-type'], /^text\/html/)
    t.match(response.body, /swagger-ui/)
    const csp = String(response.headers['content-security-policy'])
    t.match(csp, /default-src 'self'/)
    t.notMatch(csp, /upgrade-insecure-requests/, 'works over plain HTTP on a private network')
  })

  t.test('/docs/json and /docs/yaml: OpenAPI 3.1 with every route', async (t) => {
    const json = await app.inject({ method: 'GET', url: '/docs/json' })
    t.equal(json.statusCode, 200)
    const document = json.json()
    t.equal(document.openapi, '3.1.0')
    for (const type of GENERATORS) {
      const path = document.paths[`/api/generate/${type}`]
      t.ok(path.post.requestBody, `${type}: POST has a body`)
      t.notOk(path.get.parameters?.some((p: any) => p.in === 'query'), `${type}: GET reads no query string`)
      t.ok(path.get.parameters?.some((p: any) => p.in === 'header' && /^x-data$/i.test(p.name)), `${type}: GET takes X-Data`)
      t.notOk(path.options, 'OPTIONS is hidden')
    }
    t.ok(document.paths['/api/health'].get)
    for (const name of ['PasswordParams', 'NumberParams', 'Problem', 'Health']) t.ok(document.components.schemas[name], name)
    const yaml = await app.inject({ method: 'GET', url: '/docs/yaml' })
    t.equal(yaml.statusCode, 200)
    t.match(yaml.body, /openapi: 3\.1\.0/)
  })
})

t.test('DOCS_ENABLED=false: no /docs', async (t) => {
  const app = await build(t, { DOCS_ENABLED: 'false' })
  for (const url of ['/docs', '/docs/json']) {
    const response = await app.inject({ method: 'GET', url })
    t.equal(response.statusCode, 404, url)
    t.equal(response.json().code, 'NOT_FOUND')
  }
  t.equal((await app.inject({ method: 'GET', url: '/api/health' })).statusCode, 200, 'the service still runs')
})
