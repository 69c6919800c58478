import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { HashPool } from '../src/hashing/pool.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** CONTRACT §12.1: the bounded pool every hash goes through (src/hashing/pool.ts). */
    hashPool: HashPool
  }
}

export interface HashingOptions {
  /** HASH_CONCURRENCY */
  concurrency: number
  /** HASH_QUEUE */
  queue: number
}

/**
 * The hashing pool of CONTRACT §12.1, made from the settings; its threads start on the first hash,
 * so a process that hashes nothing holds none. After the metrics plugin (its series) and before
 * the generators and MCP (which admit hashes to it).
 */
export default fp(async function hashing (app: FastifyInstance, options: HashingOptions) {
  const metrics = app.metrics
  const pool = new HashPool({ concurrency: options.concurrency, queue: options.queue, observe: metrics?.observeHash })
  metrics?.watchHashQueue(() => pool.depth)
  app.decorate('hashPool', pool)
  // Fastify runs it once the requests in flight are answered (the listener closes first)
  app.addHook('onClose', async () => { await pool.close() })
}, { name: 'hashing', dependencies: ['metrics'] })
