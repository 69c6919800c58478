// Start-up (spawn to the first 200) and idle RSS of servers started in turn (A B C A B C …), so
// that a machine shared with other work slows each of them alike. `npm run bench` measures
// randgen's build against bare Fastify with it; `tsx bench/startup.ts '<variants as JSON>'`
// compares builds: [{"name":…,"script":…,"env":{…},"ready":{"path":…,"method":…}}, …] (scripts
// relative to the project or absolute; BENCH_STARTUPS rounds, BENCH_IDLE_MS the pause before RSS).
import { loadavg } from 'node:os'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cpuOf, rssOf, startServer, type ServerSpec } from './processes.js'

export interface StartupResult {
  name: string
  /** Milliseconds from spawn to the first 200, one per round. */
  startMs: number[]
  /** The process's CPU time (user + system) up to that first 200, in ms (10 ms ticks): what a busy machine disturbs less than the wall clock. */
  startCpuMs: number[]
  /** RSS in bytes `idleMs` after that first 200, one per round. */
  idleRss: number[]
}

/** Each spec started `rounds` times in turn; its RSS read `idleMs` after its first 200, once the start-up's garbage is collectable. */
export async function measureStartups (specs: ServerSpec[], rounds: number, idleMs: number): Promise<StartupResult[]> {
  const results = specs.map(({ name }): StartupResult => ({ name, startMs: [], startCpuMs: [], idleRss: [] }))
  for (let round = 0; round < rounds; round++) {
    for (const [index, spec] of specs.entries()) {
      const server = await startServer(spec)
      const cpuUs = cpuOf(server.pid)
      await new Promise((resolve) => setTimeout(resolve, idleMs))
      const result = results[index] as StartupResult
      result.startMs.push(server.startMs)
      result.startCpuMs.push(cpuUs / 1000)
      result.idleRss.push(rssOf(server.pid))
      await server.stop()
    }
  }
  return results
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] as number

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const specs = (JSON.parse(process.argv[2] ?? '[]') as ServerSpec[]).map((spec) => ({ ...spec, script: isAbsolute(spec.script) ? spec.script : resolve(root, spec.script) }))
  const rounds = Number(process.env.BENCH_STARTUPS ?? 9)
  const before = loadavg()
  const results = await measureStartups(specs, rounds, Number(process.env.BENCH_IDLE_MS ?? 2000))
  const first = results[0] as StartupResult
  const mb = (bytes: number): string => (bytes / 1048576).toFixed(1)
  process.stdout.write(`Node ${process.version}, ${rounds} rounds in turn; load average ${before.map((l) => l.toFixed(2)).join(' ')} before, ${loadavg().map((l) => l.toFixed(2)).join(' ')} after\n`)
  for (const { name, startMs, startCpuMs, idleRss } of results) {
    process.stdout.write(`${name}: start-up median ${median(startMs).toFixed(1)} ms (${(median(startMs) / median(first.startMs)).toFixed(2)}× ${first.name}) [${startMs.map((v) => v.toFixed(0)).join(' ')}], ` +
      `CPU to it median ${median(startCpuMs).toFixed(0)} ms (${(median(startCpuMs) / median(first.startCpuMs)).toFixed(2)}×) [${startCpuMs.map((v) => v.toFixed(0)).join(' ')}]; ` +
      `idle RSS median ${mb(median(idleRss))} MB (${median(idleRss) >= median(first.idleRss) ? '+' : ''}${mb(median(idleRss) - median(first.idleRss))} MB) [${idleRss.map(mb).join(' ')}]\n`)
  }
}
