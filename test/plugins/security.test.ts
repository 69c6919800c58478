import t from 'tap'
import { SECURITY_HEADERS } from '../../src/http/security-headers.js'
import { build, xData } from '../helper.js'

// Helmet's headers on every kind of response: generation, error, health, options
t.test('security headers on every response', async (t) => {
  const app = await build(t)
  const requests = [
    { method: 'POST' as const, url: '/api/generate/password', headers: { 'content-type': 'application/json' }, payload: '{}' },
    { method: 'GET' as const, url: '/api/generate/uuid', headers: { 'x-data': xData({}) } },
    { method: 'GET' as const, url: '/api/health' },
    { method: 'GET' as const, url: '/nowhere' },
    { method: 'DELETE' as const, url: '/api/generate/seq' },
    { method: 'POST' as const, url: '/api/generate/seq', headers: { 'content-type': 'application/json' }, payload: '{"byteLength":1}' },
    { method: 'OPTIONS' as const, url: '/api/generate/seq' },
    // Broken percent-encoding: Fastify answers through frameworkErrors, before any hook runs
    { method: 'GET' as const, url: '/nope%zz' },
    { method: 'POST' as const, url: '/api/generate/password%', headers: { 'content-type': 'application/json' }, payload: '{}' }
  ]
  for (const request of requests) {
    const response = await app.inject(request)
    const name = `${request.method} ${request.url} (${response.statusCode})`
    t.equal(response.headers['x-content-type-options'], 'nosniff', name)
    t.equal(response.headers['x-frame-options'], 'SAMEORIGIN', name)
    t.match(response.headers['strict-transport-security'], /max-age=/, name)
    t.match(response.headers['content-security-policy'], /default-src 'self'/, name)
    t.notMatch(response.headers['content-security-policy'], /upgrade-insecure-requests/, name)
    t.equal(response.headers['x-powered-by'], undefined, name)
    for (const [header, value] of Object.entries(SECURITY_HEADERS)) t.equal(response.headers[header], value, `${name}: ${header}`)
  }
})
