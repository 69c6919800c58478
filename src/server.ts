import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import type { ConfigError } from './ops/config-error.js'
import { loadConfig } from './ops/config.js'
import { PRECOMPILED } from './build/precompiled.js'
import { closeApp } from './ops/shutdown.js'

let config
try {
  config = loadConfig(process.env, PRECOMPILED.validateConfig)
} catch (error) {
  // loadConfig throws only ConfigError: one line naming the bad variable, no stack, so the
  // operator fixes the environment and retries
  process.stderr.write((error as ConfigError).message + '\n')
  process.exit(1)
}

const app = await buildApp(config, { compilers: PRECOMPILED.compilers })

// SIGTERM/SIGINT: /readyz turns 503, stop accepting (after SHUTDOWN_DELAY on SIGTERM), answer the requests in flight, exit 0
closeWithGrace({ delay: config.SHUTDOWN_TIMEOUT }, closeApp(app, config.SHUTDOWN_DELAY))

await app.listen({ host: config.HOST, port: config.PORT })
