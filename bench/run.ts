// `npm run bench`: builds (in the npm script), then measures randgen's production build against a
// reference (bare Fastify answering a constant result with randgen's headers), plain bare Fastify
// and node:http ceilings, each in its own process, and writes
// bench/RESULTS.md, bench/results.json and bench/results.svg. Never part of `npm test`.
// BENCH_NODE=<path to node> runs the whole benchmark under that Node.js (servers, load generator
// and micro-benchmarks alike); BENCH_OUTPUT_DIR writes the three files to another directory.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { renderChart } from './chart.js'
import { load, type Sample } from './load.js'
import type { MicroResult } from './micro.js'
import { rssOf, startServer, type RunningServer, type ServerSpec } from './processes.js'
import { measureStartups, type StartupResult } from './startup.js'
import { BARE_FASTIFY_ROW, FLOOR_ROW, HEADERS_CEILING_ROW, HEAVY_CEILING_ROW, missedTargets, renderMarkdown, summary, type HttpRow, type MemoryResult, type Report } from './report.js'
import { METRICS_ROW_SCENARIO, REFERENCE_REQUEST, SCENARIOS, expectedStatus, type Scenario } from './scenarios.js'
import { ranUnderBenchNode } from './bench-node.js'
import { numberSetting as setting } from './settings.js'

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url))

const DURATION = setting('BENCH_DURATION', 4)
const ROUNDS = setting('BENCH_ROUNDS', 2)
const CONNECTIONS = setting('BENCH_CONNECTIONS', 64)
const WARMUP = setting('BENCH_WARMUP', 3)
const MEMORY_REQUESTS = setting('BENCH_MEMORY_REQUESTS', 1_000_000)
// Keeps `npm run bench` under 10 minutes on a slow machine; the report says how many requests ran
const MEMORY_MAX_SECONDS = setting('BENCH_MEMORY_MAX_SECONDS', 240)
const MICRO_MS = setting('BENCH_MICRO_MS', 250)
const STARTUPS = setting('BENCH_STARTUPS', 9)
// Idle RSS: read this long after each start-up's first 200, once the start-up's garbage is collectable
const IDLE_MS = setting('BENCH_IDLE_MS', 2000)
// Only these rows (ids, comma-separated: bench/scenarios.ts's and REFERENCES' below), for targeted interleaved runs
const ONLY = process.env.BENCH_ROWS?.split(',').map((row) => row.trim()).filter((row) => row !== '')
const SERVER_SCRIPT = here('../dist/server.js')
const OUTPUT_DIR = resolve(process.env.BENCH_OUTPUT_DIR ?? here('.'))
const log = (line: string): void => { process.stdout.write(`${line}\n`) }

const RANDGEN = {
  name: 'randgen',
  script: SERVER_SCRIPT,
  // As the image runs it (Dockerfile: NODE_ENV and NODE_OPTIONS, node dist/server.js)
  env: { LOG_LEVEL: 'info', NODE_ENV: 'production', NODE_OPTIONS: '--max-old-space-size=128 --max-semi-space-size=8' },
  ready: { path: '/api/health', method: 'GET' }
}
// Every other server runs with the image's flags too: same runtime, same flags
const IMAGE_FLAGS = { NODE_ENV: 'production', NODE_OPTIONS: RANDGEN.env.NODE_OPTIONS }
// Bare Fastify: the start-up, idle and peak RSS targets are against it, and it is a row of its own
const BARE_FASTIFY: ServerSpec = { name: 'bare Fastify', script: here('servers/baseline-fastify.mjs'), env: IMAGE_FLAGS, ready: { path: REFERENCE_REQUEST.path, method: 'POST', body: '{}' } }
// The reference every row alternates with: bare Fastify answering the headers randgen answers
// (helmet's, Cache-Control, Vary), which CONTRACT §6 puts on every answer and which cost Node
// itself several µs; the CPU targets are ratios to it
const REFERENCE: ServerSpec = { ...BARE_FASTIFY, name: 'reference', nodeArgs: ['--import', 'tsx'], env: { ...IMAGE_FLAGS, HEADERS: 'randgen' } }
const CEILING: ServerSpec = { name: 'ceiling', script: here('servers/node-http.mjs'), env: IMAGE_FLAGS, ready: { path: '/', method: 'POST', body: '{}' } }
// The ceiling again, answering as many bytes as the heaviest rows: what their size alone costs
const HEAVY_CEILING: ServerSpec = { ...CEILING, name: 'heavy ceiling', env: { ...IMAGE_FLAGS, ANSWER: 'heavy' } }
// The ceiling with randgen's headers, as one array built once: what they cost Node itself
const HEADERS_CEILING: ServerSpec = { ...CEILING, name: 'ceiling with headers', nodeArgs: ['--import', 'tsx'], env: { ...IMAGE_FLAGS, HEADERS: 'randgen' } }
// randgen's server options and security headers around the reference's constant answer
const FLOOR: ServerSpec = { name: 'floor', script: here('servers/contract-floor.mjs'), nodeArgs: ['--import', 'tsx'], env: RANDGEN.env, ready: BARE_FASTIFY.ready }
// The same build with the metrics of CONTRACT §9 on (their own listener, on a port the system picks):
// its row beside randgen's password row tells what metrics cost (bench:metrics measures it closely)
const RANDGEN_METRICS: ServerSpec = { ...RANDGEN, name: 'randgen, metrics on', env: { ...RANDGEN.env, METRICS_PORT: '0' } }

/** A server of its own and its row: asked `request` (the reference's by default), interleaved with the reference like every row. */
interface ReferenceRow { id: string, row: string, group: HttpRow['group'], server: string, params: string, spec: ServerSpec, request?: Scenario }
// Another reference (a variant of the floor, say) is one more entry here
const REFERENCES: ReferenceRow[] = ([
  { id: 'floor', row: FLOOR_ROW, group: 'floor', server: 'floor', params: 'POST {}, constant answer', spec: FLOOR },
  { id: 'bare-fastify', row: BARE_FASTIFY_ROW, group: 'bare', server: 'bare Fastify', params: 'POST {}, no headers of randgen\'s', spec: BARE_FASTIFY },
  { id: 'ceiling-headers', row: HEADERS_CEILING_ROW, group: 'ceiling', server: 'node:http', params: 'POST {}, randgen\'s headers', spec: HEADERS_CEILING },
  { id: 'ceiling', row: 'node:http ceiling', group: 'ceiling', server: 'node:http', params: 'POST {}', spec: CEILING },
  { id: 'ceiling-heavy', row: HEAVY_CEILING_ROW, group: 'ceiling', server: 'node:http', params: 'POST {}, 26 KB answer', spec: HEAVY_CEILING },
  { id: METRICS_ROW_SCENARIO.id, row: METRICS_ROW_SCENARIO.row, group: METRICS_ROW_SCENARIO.group, server: 'randgen', params: METRICS_ROW_SCENARIO.params, spec: RANDGEN_METRICS, request: METRICS_ROW_SCENARIO }
] satisfies ReferenceRow[]).filter(({ id }) => ONLY === undefined || ONLY.includes(id))
const ROWS = SCENARIOS.filter(({ id }) => ONLY === undefined || ONLY.includes(id))

/** One request per row before any load: a row that answers anything but the expected 200 stops the run. */
async function checkScenario (origin: string, scenario: Scenario): Promise<void> {
  const response = await fetch(origin + scenario.path, { method: scenario.method, headers: scenario.headers, body: scenario.body })
  const text = await response.text()
  const body = JSON.parse(text) as { type?: string, status?: string, code?: string, errors?: unknown[] }
  // Abuse rows must be refused, with CONTRACT §4's capped answer, for their cost to mean anything
  const abuse = scenario.group === 'abuse'
  const expected = abuse
    ? body.code === 'VALIDATION_FAILED' && (body.errors?.length ?? 0) <= 20 && Buffer.byteLength(text) <= 16_384
    : scenario.target === 'health' ? body.status === 'ok' : body.type === scenario.target
  if (response.status !== expectedStatus(scenario) || !expected || response.headers.get('cache-control') !== 'no-store') {
    throw new Error(`${scenario.id}: unexpected answer ${response.status} ${JSON.stringify(body)}`)
  }
}

/** Samples a process's RSS every 250 ms until stopped; the peak. */
function rssSampler (pid: number): { peak: () => number, stop: () => void } {
  let peak = rssOf(pid)
  const timer = setInterval(() => { peak = Math.max(peak, rssOf(pid)) }, 250)
  return { peak: () => peak, stop: () => { clearInterval(timer) } }
}

/**
 * Spawn to first 200, randgen and bare Fastify alternately (A B A B …), each with the image's
 * flags; then each one's RSS, idle, IDLE_MS later.
 */
async function measureStartup (): Promise<{ randgen: number[], baseline: number[], idle: { randgen: number[], baseline: number[] } }> {
  const [randgen, bare] = await measureStartups([RANDGEN, BARE_FASTIFY], STARTUPS, IDLE_MS) as [StartupResult, StartupResult]
  return { randgen: randgen.startMs, baseline: bare.startMs, idle: { randgen: randgen.idleRss, baseline: bare.idleRss } }
}

/**
 * The reference must answer what randgen answers, header for header (names and values; the
 * date, length and connection's own aside), or its ratios would measure the contract again.
 */
async function checkReferenceHeaders (randgen: string, reference: string): Promise<void> {
  const own = new Set(['date', 'content-length', 'connection', 'keep-alive'])
  const headersOf = async (origin: string): Promise<Record<string, string>> => {
    const response = await fetch(origin + REFERENCE_REQUEST.path, { method: REFERENCE_REQUEST.method, headers: REFERENCE_REQUEST.headers, body: REFERENCE_REQUEST.body })
    await response.arrayBuffer()
    return Object.fromEntries([...response.headers].filter(([name]) => !own.has(name)).sort(([a], [b]) => a.localeCompare(b)))
  }
  const [expected, answered] = [JSON.stringify(await headersOf(randgen)), JSON.stringify(await headersOf(reference))]
  if (expected !== answered) throw new Error(`the reference's headers differ from randgen's:\n  randgen   ${expected}\n  reference ${answered}`)
}

/**
 * bench/micro.ts in a process of its own, so that the load generator, which runs in this one,
 * shares it with nothing else: run here, the micro-benchmarks loaded every generator and left this
 * process at ~560 MB of RSS during the HTTP rows (~320 MB without them).
 */
function microInChild (): MicroResult[] {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('micro.ts', import.meta.url))], {
    env: { ...process.env, BENCH_MICRO_MS: String(MICRO_MS), BENCH_MICRO_ROUNDS: '3', BENCH_MICRO_JSON: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024
  })
  if (child.status !== 0) throw new Error(`bench/micro.ts exited ${String(child.status)}`)
  const lines = child.stdout.trimEnd().split('\n')
  for (const line of lines.slice(0, -1)) log(line)
  return JSON.parse(lines.at(-1) as string) as MicroResult[]
}

/** Every row alternates with the reference; rounds go over all rows, so drift spreads evenly. */
async function measureHttp (randgen: RunningServer, baseline: RunningServer, references: RunningServer[]): Promise<HttpRow[]> {
  const rows: HttpRow[] = [
    ...ROWS.map((scenario) => ({ row: scenario.row, group: scenario.group, server: 'randgen', params: scenario.params, samples: [], baseline: [] })),
    ...REFERENCES.map(({ row, group, server, params }) => ({ row, group, server, params, samples: [], baseline: [] }))
  ]
  const targets: Array<[RunningServer, Scenario]> = [
    ...ROWS.map((s): [RunningServer, Scenario] => [randgen, s]),
    ...references.map((server, index): [RunningServer, Scenario] => [server, REFERENCES[index]?.request ?? REFERENCE_REQUEST])
  ]
  const options = { connections: CONNECTIONS, duration: DURATION }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, [server, scenario]] of targets.entries()) {
      const row = rows[index] as HttpRow
      const sample = await load(server.origin, [scenario], { ...options, pid: server.pid })
      const reference = await load(baseline.origin, [REFERENCE_REQUEST], { ...options, pid: baseline.pid })
      row.samples.push(sample)
      row.baseline.push(reference)
      log(`round ${round + 1}/${ROUNDS} ${row.row}: ${Math.round(sample.rps)} req/s, p99 ${sample.p99} ms, ${Math.round(sample.cpuUs)} µs CPU/req ` +
        `(reference ${Math.round(reference.rps)} req/s, p99 ${reference.p99} ms, ${Math.round(reference.cpuUs)} µs CPU/req)`)
    }
  }
  return rows
}

/**
 * A long run cycling through every generator at defaults, on a fresh process of `spec`; RSS read
 * after every tenth of it, and sampled every 250 ms for the peak. randgen and bare Fastify (whose
 * catch-all route answers the same paths) get the same requests, one after the other.
 */
async function measureMemory (spec: ServerSpec): Promise<MemoryResult> {
  const server = await startServer(spec)
  try {
    const defaults = SCENARIOS.filter((s) => s.group === 'default' || s.group === 'get')
    let responses = 0
    const rss: number[] = []
    const sampler = rssSampler(server.pid)
    const tenth = Math.floor(MEMORY_REQUESTS / 10)
    const sample: Sample = await load(server.origin, defaults, {
      connections: CONNECTIONS,
      amount: MEMORY_REQUESTS,
      maxSeconds: MEMORY_MAX_SECONDS,
      onResponse: () => {
        responses++
        if (responses % tenth === 0 && rss.length < 9) rss.push(rssOf(server.pid))
      }
    })
    rss.push(rssOf(server.pid))
    sampler.stop()
    return { planned: MEMORY_REQUESTS, requests: sample.requests, rps: sample.rps, errors: sample.errors, rss, rssPeak: Math.max(sampler.peak(), ...rss) }
  } finally {
    await server.stop()
  }
}

async function main (): Promise<void> {
  if (!existsSync(SERVER_SCRIPT)) throw new Error('dist/server.js is missing: run `npm run build` first (`npm run bench` does)')
  const began = Date.now()
  const info = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    cores: cpus().length,
    loadAverage: loadavg(),
    duration: DURATION,
    rounds: ROUNDS,
    connections: CONNECTIONS,
    elapsedSeconds: 0,
    command: process.env.BENCH_COMMAND ?? 'npm run bench'
  }
  const runs = (ROWS.length + REFERENCES.length) * ROUNDS * 2
  log(`randgen benchmark: ${runs} runs of ${DURATION} s (about ${Math.round((runs * (DURATION + 0.3) + 60) / 60)} min), then ${MEMORY_REQUESTS} requests for memory (at most ${MEMORY_MAX_SECONDS} s)`)

  const micro = microInChild()
  const { randgen: startup, baseline: baselineStartup, idle } = await measureStartup()
  log(`start-up: ${startup.map((v) => v.toFixed(1)).join(', ')} ms (bare Fastify: ${baselineStartup.map((v) => v.toFixed(1)).join(', ')} ms)`)
  const megabytes = (values: number[]): string => values.map((bytes) => (bytes / 1048576).toFixed(1)).join(', ')
  log(`idle RSS: ${megabytes(idle.randgen)} MB (bare Fastify: ${megabytes(idle.baseline)} MB)`)

  const servers: RunningServer[] = []
  try {
    const randgen = await startServer(RANDGEN)
    servers.push(randgen)
    const baseline = await startServer(REFERENCE)
    servers.push(baseline)
    const references: RunningServer[] = []
    for (const { spec } of REFERENCES) {
      const server = await startServer(spec)
      servers.push(server)
      references.push(server)
    }
    for (const scenario of SCENARIOS) await checkScenario(randgen.origin, scenario)
    await checkReferenceHeaders(randgen.origin, baseline.origin)
    for (const [index, server] of references.entries()) {
      const request = REFERENCES[index]?.request
      if (request !== undefined) await checkScenario(server.origin, request)
    }

    // JIT warm-up: every row once, and the reference servers, before anything counts
    await load(randgen.origin, SCENARIOS, { connections: CONNECTIONS, duration: WARMUP })
    await load(baseline.origin, [REFERENCE_REQUEST], { connections: CONNECTIONS, duration: WARMUP })
    for (const [index, server] of references.entries()) await load(server.origin, [REFERENCES[index]?.request ?? REFERENCE_REQUEST], { connections: CONNECTIONS, duration: WARMUP })

    const sampler = rssSampler(randgen.pid)
    const http = await measureHttp(randgen, baseline, references)
    sampler.stop()
    for (const server of servers.splice(0)) await server.stop()
    const memory = await measureMemory(RANDGEN)
    log(`memory: ${memory.requests} requests, RSS ${megabytes(memory.rss)} MB, peak ${(memory.rssPeak / 1048576).toFixed(1)} MB`)
    const baselineMemory = await measureMemory(BARE_FASTIFY)
    log(`memory, bare Fastify: ${baselineMemory.requests} requests, RSS ${megabytes(baselineMemory.rss)} MB, peak ${(baselineMemory.rssPeak / 1048576).toFixed(1)} MB`)

    info.elapsedSeconds = (Date.now() - began) / 1000
    const report: Report = { info, http, micro, memory, baselineMemory, idle, startup, baselineStartup, rssPeakUnderLoad: sampler.peak() }
    mkdirSync(OUTPUT_DIR, { recursive: true })
    writeFileSync(join(OUTPUT_DIR, 'results.json'), JSON.stringify(report, null, 2) + '\n')
    writeFileSync(join(OUTPUT_DIR, 'RESULTS.md'), renderMarkdown(report))
    const chartRows = http.map((row) => ({ row: row.row, group: row.group, ...summary(row) }))
    writeFileSync(join(OUTPUT_DIR, 'results.svg'), await renderChart(chartRows, `${info.date.slice(0, 10)}, Node ${info.node}, ${info.cores} cores; ratios to the interleaved reference runs (bare Fastify with randgen's headers)`))
    log(`wrote RESULTS.md, results.json, results.svg to ${OUTPUT_DIR} in ${Math.round(info.elapsedSeconds)} s`)
    // A missed target fails the run, as bench:cost does
    const missed = missedTargets(report)
    for (const target of missed) log(`MISSED: ${target}`)
    if (missed.length > 0) process.exitCode = 1
  } finally {
    for (const server of servers) await server.stop()
  }
}

if (!ranUnderBenchNode(import.meta.url)) await main()
