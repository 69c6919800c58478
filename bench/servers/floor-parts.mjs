// The contract floor (contract-floor.mjs) built up one part at a time, for `npm run bench:floor`:
// PARTS lists what bare Fastify gets on top, in the order the floor adds them.
// - hook: one onRequest hook that does nothing (what any hook costs Fastify)
// - headers: randgen's security plugin (helmet's headers and Cache-Control, set by its hook)
// - logger: randgen's logger options alone (pino at LOG_LEVEL, its request-log controller, lazy children)
// - options: all of randgen's server options (the logger, timeouts, limits, trustProxy, error handlers)
// Started with `node --import tsx`: it loads randgen's TypeScript sources.
import Fastify from 'fastify'
import { RESULT } from './constant-result.mjs'
import { loadConfig } from '../../src/ops/config.js'
import { serverOptions } from '../../src/server-options.js'
import security from '../../plugins/security.js'

const parts = new Set((process.env.PARTS ?? '').split(',').filter((part) => part !== ''))
const all = serverOptions(loadConfig())
const options = parts.has('options')
  ? all
  : parts.has('logger')
    ? { logger: all.logger, logController: all.logController, childLoggerFactory: all.childLoggerFactory }
    : { logger: false }
const app = Fastify(options)
if (parts.has('headers')) await app.register(security)
else if (parts.has('hook')) app.addHook('onRequest', (_request, _reply, done) => { done() })
app.post('/api/generate/password', async () => RESULT)

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
process.on('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
