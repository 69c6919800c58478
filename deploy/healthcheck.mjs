// Container healthcheck (Dockerfile HEALTHCHECK, docker-compose.yml): the image has no curl, so
// Node asks the service's own /api/health. Exit 0 when it answers 200, 1 otherwise.
// The app's own defaults (src/ops/config.ts)
const { HOST: host = '127.0.0.1', PORT: port = '3000' } = process.env
// A wildcard listen address is reached on loopback; a specific one on itself
const target = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host
const url = `http://${target.includes(':') ? `[${target}]` : target}:${port}/api/health`

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(2500) })
  process.exitCode = response.status === 200 ? 0 : 1
} catch {
  process.exitCode = 1
}
