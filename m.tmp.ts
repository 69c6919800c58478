import { spawn } from 'node:child_process'
import { interpolate, readCompose } from './test/deploy/deploy-files.js'
const api = interpolate(readCompose('docker-compose.yml').services.api as any, {}) as any
console.log(api.environment)
const child = spawn(process.execPath, ['dist/server.js'], { env: { PATH: process.env.PATH, ...api.environment, HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'debug' }, stdio: ['ignore', 'pipe', 'inherit'] })
child.stdout.on('data', (d) => process.stdout.write(d))
child.on('exit', (c) => console.log('exit', c))
setTimeout(() => child.kill(), 6000)
