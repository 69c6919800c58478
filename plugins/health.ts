import fp from 'fastify-plugin'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Health } from '../schemas/health.js'
import { isoNow } from '../src/clock.js'
import { freshRandomBytes } from '../src/random.js'
import { SERVICE_VERSION } from '../src/version.js'

/** Ready only when the CSPRNG answers: a service that cannot draw must not take traffic. */
export function csprngWorks (draw: (n: number) => Buffer = freshRandomBytes): boolean {
  try {
    return draw(16).length === 16
  } catch {
    return false
  }
}

export default fp(async function health (app: FastifyInstance, options: { draw?: (n: number) => Buffer }) {
  app.addSchema(Health)
  app.get('/api/health', {
    schema: {
      operationId: 'getHealth',
      summary: 'Liveness and readiness',
      description: '200 with `status: ok` when the service can draw from the CSPRNG; 503 with `status: error` otherwise.',
      tags: ['health'],
      response: {
        200: Type.Ref('Health', { description: 'Ready: a draw from the CSPRNG succeeded.' }),
        503: Type.Ref('Health', { description: 'Not ready: the CSPRNG did not answer; `status` is `error`.' })
      }
    }
  }, async (_request, reply) => {
    const ok = csprngWorks(options.draw)
    return reply.code(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'error',
      service: 'randgen',
      version: SERVICE_VERSION,
      uptime: process.uptime(),
      timestamp: isoNow()
    })
  })
}, { name: 'health', dependencies: ['errors'] })
