// The contract's floor: what every randgen request costs before it does any work of its own.
// Fastify with randgen's own server options (logger at `info` with its request-log rules,
// timeouts, limits) and randgen's security plugin (helmet's headers, Cache-Control: no-store),
// answering the same constant JSON as the baseline, with no schema and no generation. Its
// ratio to the bare baseline is the most a randgen row can reach; randgen's ratio to it is
// what the service's own routing, validation, generation and serialisation cost.
// Started with `node --import tsx`: it loads randgen's TypeScript sources, which the production
// bundle does not expose one by one.
import Fastify from 'fastify'
import { RESULT } from './constant-result.mjs'
import { loadConfig } from '../../src/ops/config.js'
import { serverOptions } from '../../src/server-options.js'
import security from '../../plugins/security.js'

const config = loadConfig()
const app = Fastify(serverOptions(config))
await app.register(security)
app.post('/api/generate/password', async () => RESULT)

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
process.on('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
