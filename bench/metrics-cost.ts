// `npm run bench:metrics`: what the metrics of CONTRACT §9 cost per request, in server CPU time.
// Two production builds side by side, one with METRICS_PORT set, the other without, loaded with
// the same row in alternation (A B, then B A, ...), so the machine's drift falls on both alike;
// CPU per request from /proc, as `npm run bench` measures it. The bound: at most 1 µs of CPU
// per request more with metrics on (issue 27), judged on the mean of the paired differences.
// Never part of `npm test` (a shared machine's timings are no unit test).
import { existsSync } from 'node:fs'
import Fastify from 'fastify'
import { createMetrics } from '../src/ops/metrics.js'
import { fileURLToPath } from 'node:url'
import { load } from './load.js'
import { freePort, startServer } from './processes.js'
import { METRICS_ROW_SCENARIO, METRICS_COST_LIMIT_US } from './scenarios.js'

const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 12)
const DURATION = Number(process.env.BENCH_DURATION ?? 4)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)
const SCRIPT = fileURLToPath(new URL('../dist/server.js', import.meta.url))
const ENV = { LOG_LEVEL: 'info', NODE_ENV: 'production', NODE_OPTIONS: '--max-semi-space-size=8' }
const log = (line: string): void => { process.stdout.write(`${line}\n`) }

/**
 * The work metrics add to a request, timed alone in this process: reading the route template
 * (Fastify's routeOptions getter), one observation, one value count. No network, no other
 * process: a figure that load on the machine inflates but cannot hide.
 */
async function isolatedNs (): Promise<{ routeNs: number, observeNs: number, countNs: number }> {
  const metrics = createMetrics()
  const count = metrics.valuesCounter('password')
  const app = Fastify()
  const N = 200_000
  let routeNs = 0
  app.post('/api/generate/password', (request, reply) => {
    let length = 0
    const start = process.hrtime.bigint()
    for (let i = 0; i < N; i++) length += (request.routeOptions.url as string).length
    routeNs = Number(process.hrtime.bigint() - start) / N
    reply.send({ length })
  })
  await app.ready()
  const best = { routeNs: Infinity, observeNs: Infinity, countNs: Infinity }
  for (let round = 0; round < 5; round++) {
    await app.inject({ method: 'POST', url: '/api/generate/password', payload: {} })
    let start = process.hrtime.bigint()
    for (let i = 0; i < N; i++) metrics.observeRequest('/api/generate/password', 'POST', 200, 0.05 + (i & 15) * 0.1)
    const observeNs = Number(process.hrtime.bigint() - start) / N
    start = process.hrtime.bigint()
    for (let i = 0; i < N; i++) count(1)
    const countNs = Number(process.hrtime.bigint() - start) / N
    // The least of the rounds: other processes only ever add time
    best.routeNs = Math.min(best.routeNs, routeNs)
    best.observeNs = Math.min(best.observeNs, observeNs)
    best.countNs = Math.min(best.countNs, countNs)
  }
  await app.close()
  return best
}

const isolated = await isolatedNs()
log(`per-request work alone: route template ${isolated.routeNs.toFixed(0)} ns, observation ${isolated.observeNs.toFixed(0)} ns, value count ${isolated.countNs.toFixed(0)} ns: ${((isolated.routeNs + isolated.observeNs + isolated.countNs) / 1000).toFixed(2)} µs`)

if (!existsSync(SCRIPT)) throw new Error('dist/server.js is missing: run `npm run build` first (`npm run bench:metrics` does)')
// BENCH_METRICS_CONTROL=1: both servers with metrics off (an A/A run): the difference this
// machine shows between two identical servers, the floor under which a cost cannot be told
const CONTROL = process.env.BENCH_METRICS_CONTROL === '1'
const metricsPort = await freePort()
const ready = { path: '/readyz', method: 'GET' }
const off = await startServer({ name: 'metrics off', script: SCRIPT, env: ENV, ready })
const on = await startServer({ name: 'metrics on', script: SCRIPT, env: CONTROL ? ENV : { ...ENV, METRICS_PORT: String(metricsPort) }, ready })
if (CONTROL) log('control run: both servers have metrics off')
try {
  const options = { connections: CONNECTIONS, duration: DURATION }
  for (const server of [off, on]) await load(server.origin, [METRICS_ROW_SCENARIO], { ...options, duration: 3 })
  const differences: number[] = []
  const cpu = { off: [] as number[], on: [] as number[] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [off, on] : [on, off]
    const samples = new Map<string, number>()
    for (const server of order) {
      const sample = await load(server.origin, [METRICS_ROW_SCENARIO], { ...options, pid: server.pid })
      if (sample.errors > 0) throw new Error(`${server.name}: ${sample.errors} errors`)
      samples.set(server.name, sample.cpuUs)
    }
    const [a, b] = [samples.get('metrics off') as number, samples.get('metrics on') as number]
    cpu.off.push(a)
    cpu.on.push(b)
    differences.push(b - a)
    log(`round ${round + 1}/${ROUNDS}: off ${a.toFixed(2)} µs, on ${b.toFixed(2)} µs CPU/request: ${b - a >= 0 ? '+' : ''}${(b - a).toFixed(2)} µs`)
  }
  // The metrics server really counted: its histogram holds every request it answered
  const text = CONTROL ? '' : await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
  const counted = /randgen_http_request_duration_seconds_count\{route="\/api\/generate\/password",method="POST",status_class="2xx"\} ([0-9]+)/.exec(text)?.[1]
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length
  const sd = Math.sqrt(differences.reduce((sum, value) => sum + (value - mean(differences)) ** 2, 0) / (differences.length - 1))
  const halfWidth = 2.2 * sd / Math.sqrt(differences.length)
  const sorted = [...differences].sort((x, y) => x - y)
  log(`${METRICS_ROW_SCENARIO.row}, ${ROUNDS} interleaved pairs of ${DURATION} s at ${CONNECTIONS} connections, Node ${process.version}:`)
  log(`  metrics off ${mean(cpu.off).toFixed(2)} µs, on ${mean(cpu.on).toFixed(2)} µs CPU per request (means)`)
  log(`  cost of metrics: mean ${mean(differences).toFixed(2)} µs (±${halfWidth.toFixed(2)}, 95 %), median ${(sorted[sorted.length >> 1] as number).toFixed(2)} µs; bound ${METRICS_COST_LIMIT_US} µs`)
  log(`  requests counted by the metrics-on server's histogram: ${counted ?? 'none'}`)
  if (!CONTROL && (counted === undefined || Number(counted) === 0)) throw new Error('the metrics-on server counted nothing')
  if (!CONTROL && mean(differences) > METRICS_COST_LIMIT_US) {
    log(`over the bound: ${mean(differences).toFixed(2)} µs > ${METRICS_COST_LIMIT_US} µs`)
    process.exitCode = 1
  }
} finally {
  await off.stop()
  await on.stop()
}
