// Servers measured in turn (A B C A B C …) under the same load: CPU µs per request from /proc,
// req/s and latencies, each server's medians over the rounds. For bench/ab.ts and bench/floor-parts.ts.
import { fileURLToPath } from 'node:url'
import { load } from './load.js'
import { startServer, type ServerSpec } from './processes.js'
import { REFERENCE_REQUEST, SCENARIOS, type Scenario } from './scenarios.js'

/** A server to measure: a script under bench/ (or an absolute path), and optionally the row it is asked (a scenario id; the reference request otherwise). */
export type Variant = Omit<ServerSpec, 'ready'> & { row?: string }

export interface Measured {
  name: string
  cpu: number[]
  p50: number[]
  p99: number[]
  rps: number[]
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] as number

export async function interleaved (variants: Variant[], rounds: number, seconds: number): Promise<Measured[]> {
  const servers: Array<{ server: Awaited<ReturnType<typeof startServer>>, request: Scenario, measured: Measured }> = []
  try {
    for (const variant of variants) {
      const request = SCENARIOS.find((s) => s.id === variant.row) ?? REFERENCE_REQUEST
      const script = variant.script.startsWith('/') ? variant.script : fileURLToPath(new URL(`../${variant.script}`, import.meta.url))
      const server = await startServer({ ...variant, script, ready: { path: REFERENCE_REQUEST.path, method: 'POST', body: '{}' } })
      // Warm-up: the JIT settles before the first measured round
      await load(server.origin, [request], { connections: 64, duration: 2 })
      servers.push({ server, request, measured: { name: variant.name, cpu: [], p50: [], p99: [], rps: [] } })
    }
    for (let round = 0; round < rounds; round++) {
      for (const { server, request, measured } of servers) {
        const sample = await load(server.origin, [request], { connections: 64, duration: seconds, pid: server.pid })
        measured.cpu.push(sample.cpuUs)
        measured.p50.push(sample.p50)
        measured.p99.push(sample.p99)
        measured.rps.push(sample.rps)
      }
    }
  } finally {
    for (const { server } of servers) await server.stop()
  }
  return servers.map(({ measured }) => measured)
}
