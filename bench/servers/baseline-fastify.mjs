// The baseline: bare Fastify 5 (the version randgen runs), logger off, one POST route answering
// a constant generation result. What randgen would cost if it did nothing but route and parse JSON.
// The other generator paths (GET and POST) answer the same, so that the memory run can send bare
// Fastify the very requests it sends randgen; the measured rows only ever ask the POST route.
import Fastify from 'fastify'
import { RESULT } from './constant-result.mjs'

const app = Fastify({ logger: false })
app.post('/api/generate/password', async () => RESULT)
app.route({ method: ['GET', 'POST'], url: '/api/generate/:type', handler: async () => RESULT })

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
process.on('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
