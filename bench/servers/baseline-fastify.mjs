// Bare Fastify 5 (the version randgen runs), logger off, one POST route answering a constant
// generation result: what randgen would cost if it did nothing but route and parse JSON.
// HEADERS=randgen makes it the bench's reference: the same answer with every header randgen's
// generator answers carry (helmet's and Cache-Control from src/http/security-headers.ts, and
// Vary: Accept from src/http/generator-route.ts; started with `node --import tsx`), set in the
// handler, the plainest way Fastify has. CONTRACT §6 requires those headers on every answer and
// Node itself spends several µs writing them, so randgen's rows are judged against a server that
// pays for them too; bench/run.ts checks at the start that both answer the same headers.
// The other generator paths (GET and POST) answer the same, so that the memory run can send bare
// Fastify the very requests it sends randgen; the measured rows only ever ask the POST route.
import Fastify from 'fastify'
import { RESULT } from './constant-result.mjs'

const headers = process.env.HEADERS === 'randgen'
  ? { ...(await import('../../src/http/security-headers.js')).SECURITY_HEADERS, vary: 'Accept' }
  : undefined
const handler = headers === undefined
  ? async () => RESULT
  : async (_request, reply) => { reply.headers(headers); return RESULT }

const app = Fastify({ logger: false })
app.post('/api/generate/password', handler)
app.route({ method: ['GET', 'POST'], url: '/api/generate/:type', handler })

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
process.on('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
