import fp from 'fastify-plugin'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { createMetrics, metricsServer, serverUrl, type Metrics } from '../src/metrics.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The series of CONTRACT §9; null when METRICS_PORT is unset (no per-request work at all then). */
    metrics: Metrics | null
    /** The metrics listener's `http://host:port` once the app is ready; undefined when metrics are off. */
    metricsUrl: () => string | undefined
  }
}

export interface MetricsOptions {
  /** METRICS_PORT: undefined turns metrics off. */
  port?: number
  /** METRICS_HOST */
  host: string
}

export default fp(async function metrics (app: FastifyInstance, options: MetricsOptions) {
  if (options.port === undefined) {
    app.decorate('metrics', null)
    app.decorate('metricsUrl', () => undefined)
    return
  }
  const metrics = createMetrics()
  app.decorate('metrics', metrics)
  // reply.elapsedTime is Fastify's own high-resolution clock from the request's arrival
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime)
    done()
  })

  // Its own listener, never the public one (CONTRACT §9): opened with the app, closed with it
  let server: Server | undefined
  app.decorate('metricsUrl', () => (server?.listening === true ? serverUrl(server) : undefined))
  app.addHook('onReady', async () => {
    server = metricsServer(metrics)
    server.listen(options.port, options.host)
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => { throw error })])
    app.log.info(`Metrics listening at ${serverUrl(server)}`)
  })
  app.addHook('onClose', async () => {
    if (server?.listening !== true) return
    server.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  })
}, { name: 'metrics' })
