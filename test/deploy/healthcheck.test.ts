// deploy/healthcheck.mjs, the image's HEALTHCHECK, against a running service and a dead port.
import t from 'tap'
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { build } from '../helper.js'
import { ROOT } from './deploy-files.js'

function healthcheck (env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['deploy/healthcheck.mjs'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' })
    child.on('error', reject)
    child.on('exit', resolve)
  })
}

t.test('exit 0 while /api/health answers 200, 1 once nothing listens', async (t) => {
  const app = await build(t)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const port = String((app.server.address() as AddressInfo).port)
  // The image listens on 0.0.0.0 and is checked on loopback; a specific address on itself
  t.equal(await healthcheck({ HOST: '0.0.0.0', PORT: port }), 0)
  t.equal(await healthcheck({ HOST: '127.0.0.1', PORT: port }), 0)
  await app.close()
  t.equal(await healthcheck({ HOST: '0.0.0.0', PORT: port }), 1)
})

t.test('an IPv6 listen address is checked on itself', async (t) => {
  const app = await build(t)
  await app.listen({ host: '::1', port: 0 })
  const port = String((app.server.address() as AddressInfo).port)
  t.equal(await healthcheck({ HOST: '::1', PORT: port }), 0)
})

t.test('exit 1 when /api/health answers anything but 200 (503: the CSPRNG failed)', async (t) => {
  const server = createServer((_request, response) => { response.writeHead(503).end('{"status":"error"}') })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => server.close())
  t.equal(await healthcheck({ HOST: '127.0.0.1', PORT: String((server.address() as AddressInfo).port) }), 1)
})
