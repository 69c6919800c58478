// `tsx bench/ab.ts`: a few server variants, interleaved (A B C A B C …), CPU µs per request from
// /proc beside req/s and p99: for trying one change at a time before a full `npm run bench`.
// Variants are JSON on the command line: [{"name":…,"script":…,"env":{…},"nodeArgs":[…]}, …]
import { fileURLToPath } from 'node:url'
import { load } from './load.js'
import { startServer, type RunningServer, type ServerSpec } from './processes.js'
import { REFERENCE_REQUEST, SCENARIOS } from './scenarios.js'

const variants = JSON.parse(process.argv[2] ?? '[]') as Array<Omit<ServerSpec, 'ready'> & { row?: string }>
const rounds = Number(process.env.AB_ROUNDS ?? 5)
const seconds = Number(process.env.AB_SECONDS ?? 3)
const servers: Array<{ server: RunningServer, request: typeof REFERENCE_REQUEST, cpu: number[], p99: number[], rps: number[] }> = []
try {
  for (const variant of variants) {
    const request = SCENARIOS.find((s) => s.id === variant.row) ?? REFERENCE_REQUEST
    const script = variant.script.startsWith('/') ? variant.script : fileURLToPath(new URL(`../${variant.script}`, import.meta.url))
    const server = await startServer({ ...variant, script, ready: { path: REFERENCE_REQUEST.path, method: 'POST', body: '{}' } })
    await load(server.origin, [request], { connections: 64, duration: 2 })
    servers.push({ server, request, cpu: [], p99: [], rps: [] })
  }
  for (let round = 0; round < rounds; round++) {
    for (const entry of servers) {
      const sample = await load(entry.server.origin, [entry.request], { connections: 64, duration: seconds, pid: entry.server.pid })
      entry.cpu.push(sample.cpuUs)
      entry.p99.push(sample.p99)
      entry.rps.push(sample.rps)
    }
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] as number
  for (const { server, cpu, p99, rps } of servers) {
    process.stdout.write(`${server.name}: CPU median ${median(cpu).toFixed(1)} µs/req [${cpu.map((v) => v.toFixed(0)).join(' ')}], p99 median ${median(p99)} ms [${p99.join(' ')}], ${Math.round(median(rps))} req/s\n`)
  }
} finally {
  for (const { server } of servers) await server.stop()
}
