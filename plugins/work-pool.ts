import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { WorkPool } from '../src/work-pool/pool.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * CONTRACT §12.1: the bounded pool every expensive job goes through, off the event loop:
     * password hashes (§12) and RSA and ES384 signing keys (§13) (src/work-pool/pool.ts).
     */
    workPool: WorkPool
  }
}

export interface WorkPoolPluginOptions {
  /** HASH_CONCURRENCY */
  concurrency: number
  /** HASH_QUEUE */
  queue: number
}

/**
 * The work pool of CONTRACT §12.1, made from the settings; its threads start on the first job,
 * so a process that hashes nothing holds none. After the metrics plugin (its series) and before
 * the generators and MCP (which admit jobs to it).
 */
export default fp(async function workPool (app: FastifyInstance, options: WorkPoolPluginOptions) {
  const metrics = app.metrics
  const pool = new WorkPool({ concurrency: options.concurrency, queue: options.queue, observe: metrics?.observeHash })
  metrics?.watchHashQueue(() => pool.depth)
  app.decorate('workPool', pool)
  // Fastify runs it once the requests in flight are answered (the listener closes first)
  app.addHook('onClose', async () => { await pool.close() })
}, { name: 'work-pool', dependencies: ['metrics'] })
