import type { FastifyInstance } from 'fastify'

/**
 * close-with-grace's handler: log why the process stops, then close the app, which stops
 * accepting connections and answers the requests in flight. `err` is an uncaught exception or
 * unhandled rejection that brought the process down.
 */
export function closeApp (app: FastifyInstance) {
  return async ({ signal, err }: { signal?: string, err?: Error }): Promise<void> => {
    if (err !== undefined) app.log.error({ err }, 'server closing after an unexpected error')
    else app.log.info({ signal }, 'server closing')
    await app.close()
  }
}
