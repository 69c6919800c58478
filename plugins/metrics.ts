import fp from 'fastify-plugin'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { Metrics } from '../src/ops/metrics.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The series of CONTRACT §9; null when METRICS_PORT is unset (no per-request work at all then). */
    metrics: Metrics | null
    /** The metrics listener's `http://host:port` once the app is ready; undefined when metrics are off. */
    metricsUrl: () => string | undefined
  }
}

export interface MetricsOptions {
  /** The app's series (src/app.ts makes them before Fastify, for the request log controller); null when metrics are off. */
  metrics: Metrics | null
  /** METRICS_PORT */
  port?: number
  /** METRICS_HOST */
  host: string
}

export default fp(async function metricsPlugin (app: FastifyInstance, options: MetricsOptions) {
  const { metrics, port, host } = options
  app.decorate('metrics', metrics)
  if (metrics === null || port === undefined) {
    app.decorate('metricsUrl', () => undefined)
    return
  }

  // Already loaded by src/app.ts, which made `metrics`; imported here, not at the top, so that a
  // process with metrics off never loads the Prometheus client
  const { metricsServer, serverUrl } = await import('../src/ops/metrics.js')
  // Its own listener, never the public one (CONTRACT §9): opened with the app, closed with it
  let server: Server | undefined
  app.decorate('metricsUrl', () => (server?.listening === true ? serverUrl(server) : undefined))
  app.addHook('onReady', async () => {
    server = metricsServer(metrics)
    server.listen(port, host)
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => { throw error })])
    app.log.info(`Metrics listening at ${serverUrl(server)}`)
  })
  app.addHook('onClose', async () => {
    const listener = server
    // Never opened, or refused its port: nothing to close
    if (listener?.listening !== true) return
    listener.closeAllConnections()
    await new Promise((resolve) => listener.close(resolve))
  })
}, { name: 'metrics' })
