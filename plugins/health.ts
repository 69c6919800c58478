import fp from 'fastify-plugin'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Health, Liveness, Readiness } from '../schemas/health.js'
import { isoNow } from '../src/http/clock.js'
import { freshRandomBytes } from '../src/random/csprng.js'
import { SERVICE_VERSION } from '../src/version.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on /readyz answers 503 `draining` (src/ops/shutdown.ts calls it on SIGTERM). */
    startDraining: () => void
  }
}

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
  app.addSchema(Liveness)
  app.addSchema(Readiness)
  let draining = false
  app.decorate('startDraining', () => { draining = true })

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

  // CONTRACT §9: for orchestrators. Liveness says only that the event loop answers (restarting a
  // replica never fixes a CSPRNG); readiness says whether to route requests here
  app.get('/livez', {
    schema: {
      operationId: 'getLiveness',
      summary: 'Liveness for orchestrators',
      description: '200 while the process runs and its event loop answers (a Kubernetes liveness probe). Never asks for an access key.',
      tags: ['health'],
      response: { 200: Type.Ref('Liveness', { description: 'The process is alive.' }) }
    }
  }, (_request, reply) => reply.send({ status: 'ok' }))

  app.get('/readyz', {
    schema: {
      operationId: 'getReadiness',
      summary: 'Readiness for orchestrators',
      description: '200 when the service can serve (a draw from the CSPRNG succeeded); 503 `draining` from SIGTERM until the process exits, so load balancers stop routing before the listener closes; 503 `error` when the CSPRNG cannot be read. Never asks for an access key.',
      tags: ['health'],
      response: {
        200: Type.Ref('Readiness', { description: 'Ready: `status` is `ok`.' }),
        503: Type.Ref('Readiness', { description: 'Not ready: `draining` (shutting down) or `error` (the CSPRNG did not answer).' })
      }
    }
  }, (_request, reply) => {
    if (draining) return reply.code(503).send({ status: 'draining' })
    const ok = csprngWorks(options.draw)
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'error' })
  })
}, { name: 'health', dependencies: ['errors'] })
