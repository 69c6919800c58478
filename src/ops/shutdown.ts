import type { FastifyInstance } from 'fastify'

/**
 * close-with-grace's handler: log why the process stops, then close the app, which stops
 * accepting connections and answers the requests in flight. `err` is an uncaught exception or
 * unhandled rejection that brought the process down.
 *
 * On SIGTERM (an orchestrator stopping the replica) /readyz turns 503 at once, and the listener
 * stays open `delay` ms more (SHUTDOWN_DELAY), so a load balancer that follows readiness stops
 * routing here before connections are refused. SIGINT (Ctrl-C) and errors do not wait.
 */
export function closeApp (app: FastifyInstance, delay = 0) {
  return async ({ signal, err }: { signal?: string, err?: Error }): Promise<void> => {
    app.startDraining()
    if (err !== undefined) app.log.error({ err }, 'server closing after an unexpected error')
    else app.log.info({ signal }, 'server closing')
    if (signal === 'SIGTERM' && delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
    await app.close()
  }
}
