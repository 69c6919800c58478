// Requests the fuzzer found answered wrongly, kept as fixed cases (the fuzzer's draws are random).
import t from 'tap'
import { build } from '../helper.js'
import { checkResponse, type SentRequest } from './invariants.js'

const FOUND: Array<SentRequest & { status: number }> = [
  // hasRoute read the path as a route pattern and threw: 500 with Fastify's own body
  { method: 'GET', url: '/*a', headers: {}, status: 404 },
  // the router's bad-URL error bypassed the error handler: 400 with Fastify's own body
  { method: 'GET', url: '/api/%zz', headers: { 'x-language': 'de' }, status: 404 },
  // the router decodes %70 to p, so this is the password path: 405, not 404
  { method: 'DELETE', url: '/api/generate/%70assword', headers: {}, status: 405 },
  // Fastify rejects QUERY without Content-Type before the not-found handler: 400 BAD_REQUEST
  { method: 'QUERY', url: '/api/generate/password', headers: {}, status: 405 },
  { method: 'QUERY', url: '/nowhere', headers: {}, status: 404 }
]

t.test('requests the fuzzer found are answered with contract-valid problems', async (t) => {
  const app = await build(t)
  for (const request of FOUND) {
    const response = await app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers })
    t.equal(response.statusCode, request.status, `${request.method} ${request.url}`)
    t.same(checkResponse(request, response), [], `${request.method} ${request.url}: no violation`)
  }
})
