// `npm run bench:flood` (issue 37, CONTRACT §12.1): the production build under a flood of hash
// requests, and what a request without a hash meets meanwhile. Run it on the image's runtime:
// BENCH_NODE=$(.ci/node-runtime/install) npm run bench:flood (the npm script builds first).
//
// One `node dist/server.js`, as the image runs it (NODE_ENV=production, its NODE_OPTIONS, logger at
// info, metrics off, HASH_CONCURRENCY and HASH_QUEUE at their defaults), with a bench-only preload
// (bench/eventloop-probe.mjs) that reads its event-loop delay. Then, in turn:
// - idle: a steady stream of `uuid` requests (STREAM_RATE a second over STREAM_CONNECTIONS
//   connections, from this process) for FLOOD_SECONDS;
// - flood: the same stream while another process (bench/hash-flood-client.ts) keeps
//   FLOOD_CONNECTIONS connections asking for Argon2id hashes at the upper bounds, each asking
//   again as soon as it is answered (FLOOD_PAUSE_MS after a 503), far more than the pool takes;
// idle and flood alternate FLOOD_ROUNDS times (3); then one flood of bcrypt at cost 14 and one of
// sha512-crypt at 100,000 rounds. Between runs the server is left until its CPU is quiet (the
// flood's last hashes done or dropped). Every run is printed; a target is met when every flood
// run meets it: event-loop delay p99 ≤ 10 ms, uuid latency p99 ≤ 25 ms. Beside them: the time the
// event-loop thread (and the stream's client) waited for a CPU (/proc schedstat), the clients' CPU.
// Diagnostics: FLOOD_DIAGNOSE=1 adds to each round a flood that keeps the pool full without a
// single 503 and one of requests without a hash at the 503s' rate (what of a flood's cost is the
// hashing, what the answering), in place of the bcrypt and sha512-crypt floods;
// FLOOD_CLIENT_NICE=19 runs the flood's process at that nice value.
// RSA signing keys (issue 38, CONTRACT §13): FLOOD_ROUNDS more idle runs, each followed by a flood
// of `POST /api/generate/signing-key {"algorithm":"RS256","modulusBits":4096}` (one key a request,
// made on the same pool), judged by the same targets. FLOOD_ROWS=hashes runs the hash floods alone,
// FLOOD_ROWS=rsa the RSA floods alone (with their idle runs); all (the default) both, hashes first.
// FLOOD_SERVER_LOG=<file> keeps the server's output (it is discarded otherwise), to find a 5xx's cause.
import { spawn } from 'node:child_process'
import { readFileSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stream, type FloodOptions, type FloodResult, type StreamResult } from './hash-flood-client.js'
import { cpuOf, rssOf, startServer } from './processes.js'
import { ranUnderBenchNode } from './bench-node.js'
import { numberSetting } from './settings.js'

const setting = (name: string, fallback: number): number => numberSetting(name, fallback, { from: 0 })

const SECONDS = setting('FLOOD_SECONDS', 20)
const ROUNDS = setting('FLOOD_ROUNDS', 3)
const FLOOD_CONNECTIONS = setting('FLOOD_CONNECTIONS', 64)
const PAUSE_MS = setting('FLOOD_PAUSE_MS', 50)
const STREAM_RATE = setting('STREAM_RATE', 200)
const STREAM_CONNECTIONS = setting('STREAM_CONNECTIONS', 4)
/** A nice value for the flood's process (0: as the server); a diagnostic, to see what its CPU costs the stream. */
const CLIENT_NICE = setting('FLOOD_CLIENT_NICE', 0)
const EVENT_LOOP_TARGET_MS = 10
const UUID_TARGET_MS = 25
const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url))
const log = (line: string): void => { process.stdout.write(`${line}\n`) }

const HASH_PATH = '/api/generate/password'
const KEY_PATH = '/api/generate/signing-key'
const RSA_4096 = { algorithm: 'RS256', modulusBits: 4096 }
const ARGON2_UPPER = { hash: { algorithm: 'argon2id', memoryKiB: 65540, iterations: 5, parallelism: 4 } }
/** Hashes the pool admits at its defaults (HASH_CONCURRENCY: the CPUs; HASH_QUEUE: 32). */
const ADMITTED = availableParallelism() + 32
interface Flood {
  label: string
  /** HASH_PATH when absent. */
  path?: string
  body: object
  connections: number
  /** Pause after every answer, not only after a 503. */
  pauseAlways: boolean
  /** Judged against the targets; the others are diagnostics (FLOOD_DIAGNOSE=1). */
  judged: boolean
}
const FLOODS = {
  argon2id: { label: 'Argon2id m=65540,t=5,p=4', body: ARGON2_UPPER, connections: FLOOD_CONNECTIONS, pauseAlways: false, judged: true },
  bcrypt: { label: 'bcrypt cost 14', body: { hash: { algorithm: 'bcrypt', cost: 14 } }, connections: FLOOD_CONNECTIONS, pauseAlways: false, judged: true },
  sha512: { label: 'sha512-crypt 100,000 rounds', body: { hash: { algorithm: 'sha512-crypt', rounds: 100000 } }, connections: FLOOD_CONNECTIONS, pauseAlways: false, judged: true },
  rsa4096: { label: 'RSA 4096 signing keys (RS256)', path: KEY_PATH, body: RSA_4096, connections: FLOOD_CONNECTIONS, pauseAlways: false, judged: true },
  // What of a flood's cost is the hashing and what the answering: the pool kept full with no
  // 503 at all (as many connections as it admits), and requests without a hash at about the
  // BUSY answers' rate (as many connections as a flood has refused, the same pause after each)
  'argon2id-full-pool': { label: `Argon2id m=65540,t=5,p=4 from ${ADMITTED} connections (the pool kept full, no 503)`, body: ARGON2_UPPER, connections: ADMITTED, pauseAlways: false, judged: false },
  'no-hash': { label: `password without a hash from ${Math.max(1, FLOOD_CONNECTIONS - ADMITTED)} connections, ${PAUSE_MS} ms after each answer (the 503s' rate, no hashing)`, body: {}, connections: Math.max(1, FLOOD_CONNECTIONS - ADMITTED), pauseAlways: true, judged: false }
} satisfies Record<string, Flood>
type FloodKind = keyof typeof FLOODS
const DIAGNOSE = process.env.FLOOD_DIAGNOSE === '1'
const FLOOD_ROWS = process.env.FLOOD_ROWS ?? 'all'
if (!['all', 'hashes', 'rsa'].includes(FLOOD_ROWS)) throw new Error('FLOOD_ROWS: all, hashes or rsa')
const floodPath = (kind: FloodKind): string => (FLOODS[kind] as Flood).path ?? HASH_PATH

interface Run {
  kind: 'idle' | FloodKind
  round: number
  at: string
  load: number
  uuid: StreamResult
  eventLoop: { samples: number, p50: number, p99: number, max: number }
  /** The server's CPU over the run, in cores (all threads), and its event-loop thread's alone. */
  cpu: number
  mainThreadCpu: number
  /**
   * Time the event-loop thread was ready to run but waited for a CPU, in ms per second of the run
   * (/proc/<pid>/task/<pid>/schedstat): what the machine's other work, the clients included, took from it.
   */
  mainThreadWait: number
  /** The same for the uuid stream's own thread (this process): the client's share of a latency. */
  clientWait: number
  /** Highest RSS sampled during the run (MB). */
  rssMb: number
  flood?: FloodResult
  /** dist/'s hashing thread was deleted or rewritten during the run (bundleStamp). */
  rebuilt: boolean
}

/**
 * The server's hashing-thread bundle as it is now (inode and mtime). `npm run build` deletes dist/
 * and writes it again, so another build in this working tree (test:deploy starts with one) makes a
 * thread that starts meanwhile fail, and its request is answered 500: the one 500 of an RSA flood
 * on 2026-11-28 came from that (docs/performance.md). The bench says so beside the run.
 */
function bundleStamp (): string {
  try {
    const { ino, mtimeMs } = statSync(here('../dist/pool-thread.js'))
    return `${ino}:${mtimeMs}`
  } catch {
    return 'missing'
  }
}

/** CPU time (µs) of one thread of a process (Linux /proc; clock ticks of 10 ms). */
function threadCpuOf (pid: number, tid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  } catch {
    return Number.NaN
  }
}

/** Nanoseconds the thread has waited on a run queue (Linux schedstat's second field), or NaN. */
function threadWaitOf (pid: number, tid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1])
  } catch {
    return Number.NaN
  }
}

async function runFlood (options: FloodOptions): Promise<FloodResult> {
  const argv = [process.execPath, '--import', 'tsx', here('hash-flood-client.ts'), JSON.stringify(options)]
  const [command, ...args] = CLIENT_NICE > 0 ? ['nice', '-n', String(CLIENT_NICE), ...argv] : argv
  const child = spawn(command as string, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString('utf8') })
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  if (code !== 0) throw new Error(`bench/hash-flood-client.ts exited with ${code}`)
  return JSON.parse(output) as FloodResult
}

/** Waits until the server's CPU stays under a tenth of a core for a second (at most 60 s): the flood's hashes done. */
async function quiet (pid: number): Promise<number> {
  const started = Date.now()
  let calm = 0
  while (Date.now() - started < 60_000 && calm < 4) {
    const before = cpuOf(pid)
    await new Promise((resolve) => setTimeout(resolve, 250))
    calm = (cpuOf(pid) - before) / 250_000 < 0.1 ? calm + 1 : 0
  }
  return (Date.now() - started) / 1000
}

async function main (): Promise<void> {
  const eldFile = join(tmpdir(), `randgen-eld-${process.pid}.jsonl`)
  rmSync(eldFile, { force: true })
  const server = await startServer({
    name: 'randgen',
    script: here('../dist/server.js'),
    nodeArgs: ['--import', here('eventloop-probe.mjs')],
    // As the image runs it (bench/run.ts's RANDGEN), metrics off, hashing settings at their defaults
    env: { LOG_LEVEL: 'info', NODE_ENV: 'production', NODE_OPTIONS: '--max-old-space-size=128 --max-semi-space-size=8', BENCH_ELD_FILE: eldFile },
    ready: { path: '/api/health', method: 'GET' },
    // FLOOD_SERVER_LOG=<file>: keep the server's log (its request log at info, and any error's), e.g. to find a 5xx
    ...(process.env.FLOOD_SERVER_LOG !== undefined && process.env.FLOOD_SERVER_LOG !== '' ? { logFile: process.env.FLOOD_SERVER_LOG } : {})
  })
  const started = new Date()
  log(`bench:flood ${started.toISOString()}: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ` +
    `runs of ${SECONDS} s; uuid stream ${STREAM_RATE}/s over ${STREAM_CONNECTIONS} connections; floods from ${FLOOD_CONNECTIONS} connections, ${PAUSE_MS} ms pause after a 503` +
    (CLIENT_NICE > 0 ? `, the flood's process at nice ${CLIENT_NICE}` : ''))
  const runs: Run[] = []
  let eldLines = 0
  const readDelay = async (): Promise<Run['eventLoop']> => {
    process.kill(server.pid, 'SIGWINCH')
    for (let attempt = 0; attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      const lines = readFileSync(eldFile, 'utf8').trim().split('\n')
      if (lines.length > eldLines) {
        eldLines = lines.length
        return JSON.parse(lines[lines.length - 1] as string) as Run['eventLoop']
      }
    }
    throw new Error('the event-loop probe did not answer')
  }
  try {
    // Warm-up: the uuid route, and one hash of each kind (the pool's threads start, the JIT settles)
    await stream(server.origin, '/api/generate/uuid', '{}', STREAM_RATE, STREAM_CONNECTIONS, 3)
    for (const kind of ['argon2id', 'bcrypt', 'sha512', 'rsa4096'] as const) await stream(server.origin, floodPath(kind), JSON.stringify(FLOODS[kind].body), 1, 1, 1)
    await quiet(server.pid)
    await new Promise((resolve) => setTimeout(resolve, 100))
    // The file exists from the first reading on
    process.kill(server.pid, 'SIGWINCH')
    await new Promise((resolve) => setTimeout(resolve, 200))
    eldLines = readFileSync(eldFile, 'utf8').trim().split('\n').length

    const plan: Array<{ kind: Run['kind'], round: number }> = []
    if (FLOOD_ROWS !== 'rsa') {
      for (let round = 1; round <= ROUNDS; round++) {
        plan.push({ kind: 'idle', round }, { kind: 'argon2id', round })
        if (DIAGNOSE) plan.push({ kind: 'argon2id-full-pool', round }, { kind: 'no-hash', round })
      }
      if (!DIAGNOSE) plan.push({ kind: 'bcrypt', round: 1 }, { kind: 'sha512', round: 1 })
    }
    // The RSA floods' idle runs are numbered on from the hash floods' (idle #4 … when both run)
    const idleBefore = plan.filter((step) => step.kind === 'idle').length
    if (FLOOD_ROWS !== 'hashes') for (let round = 1; round <= ROUNDS; round++) plan.push({ kind: 'idle', round: idleBefore + round }, { kind: 'rsa4096', round })
    for (const { kind, round } of plan) {
      const at = new Date().toISOString().slice(11, 19)
      const load = loadavg()[0] as number
      const bundleBefore = bundleStamp()
      await readDelay()
      const cpuBefore = cpuOf(server.pid)
      const mainBefore = threadCpuOf(server.pid, server.pid)
      const waitBefore = threadWaitOf(server.pid, server.pid)
      const clientWaitBefore = threadWaitOf(process.pid, process.pid)
      const wallBefore = performance.now()
      let rss = rssOf(server.pid)
      const rssTimer = setInterval(() => { rss = Math.max(rss, rssOf(server.pid)) }, 100)
      const floodRun = kind === 'idle'
        ? undefined
        : runFlood({ origin: server.origin, path: floodPath(kind), body: JSON.stringify(FLOODS[kind].body), connections: FLOODS[kind].connections, seconds: SECONDS, pauseMs: PAUSE_MS, pauseAlways: FLOODS[kind].pauseAlways })
      // The flood's process starts its connections in a few hundred ms; the stream begins after
      // it and ends before it, in idle runs as well
      await new Promise((resolve) => setTimeout(resolve, 500))
      const uuid = await stream(server.origin, '/api/generate/uuid', '{}', STREAM_RATE, STREAM_CONNECTIONS, SECONDS - 1)
      const eventLoop = await readDelay()
      const waited = threadWaitOf(server.pid, server.pid) - waitBefore
      const clientWaited = threadWaitOf(process.pid, process.pid) - clientWaitBefore
      const streamSeconds = (performance.now() - wallBefore) / 1000
      const flood = await floodRun
      clearInterval(rssTimer)
      const seconds = (performance.now() - wallBefore) / 1000
      const run: Run = {
        kind,
        round,
        at,
        load,
        uuid,
        eventLoop,
        flood,
        cpu: (cpuOf(server.pid) - cpuBefore) / 1e6 / seconds,
        mainThreadCpu: (threadCpuOf(server.pid, server.pid) - mainBefore) / 1e6 / seconds,
        mainThreadWait: waited / 1e6 / streamSeconds,
        clientWait: clientWaited / 1e6 / streamSeconds,
        rssMb: rss / 2 ** 20,
        rebuilt: bundleStamp() !== bundleBefore
      }
      runs.push(run)
      const calm = await quiet(server.pid)
      log(`  ${at} ${describe(run)}; quiet after ${calm.toFixed(1)} s`)
    }
  } finally {
    await server.stop()
    rmSync(eldFile, { force: true })
  }
  report(runs, started)
}

const ms = (value: number): string => !Number.isFinite(value) ? '—' : value >= 100 ? value.toFixed(0) : value.toFixed(1)
const label = (kind: Run['kind']): string => kind === 'idle' ? 'idle (no flood)' : `flood: ${FLOODS[kind].label}`

function describe (run: Run): string {
  const flood = run.flood
  return `${label(run.kind)} #${run.round}: event loop p99 ${ms(run.eventLoop.p99)} ms, uuid p99 ${ms(run.uuid.latency.p99)} ms` +
    (flood === undefined ? '' : `, ${JSON.stringify(flood.statuses)}, Retry-After ${JSON.stringify(flood.retryAfter)}`) +
    (run.rebuilt ? `; ${REBUILT}` : '')
}

const REBUILT = 'dist/ was rebuilt during this run (another build in this working tree): a hashing thread started meanwhile fails, its request answered 500'

function report (runs: Run[], started: Date): void {
  const floods = runs.filter((run) => run.kind !== 'idle' && FLOODS[run.kind].judged)
  log('')
  log(`${started.toISOString().slice(0, 16).replace('T', ' ')}–${new Date().toISOString().slice(11, 16)} UTC, Node ${process.version}, ${cpus().length} CPUs; ` +
    `uuid stream ${STREAM_RATE}/s over ${STREAM_CONNECTIONS} connections, ${SECONDS} s a run; floods of ${FLOOD_CONNECTIONS} connections (${PAUSE_MS} ms pause after a 503). ` +
    `${CLIENT_NICE > 0 ? `The flood's process at nice ${CLIENT_NICE}. ` : ''}Latencies in ms; the server's CPU in cores (all its threads / its event-loop thread); ` +
    'run-queue wait: ms a second the server\'s event-loop thread (and the uuid stream\'s client) was ready to run and waited for a CPU; the flood client\'s own CPU in cores.' +
    (DIAGNOSE ? ' Diagnostic runs (FLOOD_DIAGNOSE=1) are not judged.' : ''))
  log('')
  log(`| Run | time (UTC), load | event loop delay p50 / p99 / max (≤ ${EVENT_LOOP_TARGET_MS}) | uuid p50 / p99 / max (p99 ≤ ${UUID_TARGET_MS}) | uuid answered | hashes or keys made (/s) | 503 BUSY | BUSY latency p50 / p99 / max | other statuses | Retry-After seen | server CPU (all / event loop) | run-queue wait: event loop / stream client | flood client CPU | peak RSS |`)
  log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const run of runs) {
    const { uuid, eventLoop, flood } = run
    const okUuid = uuid.statuses['200'] ?? 0
    const others = flood === undefined ? '—' : Object.entries(flood.statuses).filter(([key]) => key !== '200' && key !== '503 BUSY').map(([key, n]) => `${key}: ${n}`).join(', ') || 'none'
    const cut = (flood === undefined ? '' : `; cut off at the end ${flood.cutOff}, errors ${flood.errors}`) + (run.rebuilt ? `; ${REBUILT}` : '')
    log(`| ${label(run.kind)} #${run.round} | ${run.at}, ${run.load.toFixed(1)} | ${ms(eventLoop.p50)} / **${ms(eventLoop.p99)}** / ${ms(eventLoop.max)} | ` +
      `${ms(uuid.latency.p50)} / **${ms(uuid.latency.p99)}** / ${ms(uuid.latency.max)} | ${okUuid} of ${uuid.sent}${uuid.errors > 0 ? `, ${uuid.errors} errors` : ''} | ` +
      (flood === undefined
        ? '— | — | — | — | — | '
        : `${flood.hashed.count}${run.kind === 'no-hash' ? ' answers, no hash' : ''} (${(flood.hashed.count / flood.seconds).toFixed(2)}/s; latency p50 ${ms(flood.hashed.p50)}, max ${ms(flood.hashed.max)}) | ${flood.busy.count} | ` +
          `${ms(flood.busy.p50)} / ${ms(flood.busy.p99)} / ${ms(flood.busy.max)} | ${others}${cut} | ${Object.entries(flood.retryAfter).map(([value, n]) => `${value} s ×${n}`).join(', ')} | `) +
      `${run.cpu.toFixed(2)} / ${run.mainThreadCpu.toFixed(2)} | ${run.mainThreadWait.toFixed(0)} / ${run.clientWait.toFixed(0)} ms/s | ${flood === undefined ? '—' : flood.clientCpu.toFixed(2)} | ${run.rssMb.toFixed(0)} MiB |`)
  }
  log('')
  const missed: string[] = []
  const eldOver = floods.filter((run) => run.eventLoop.p99 > EVENT_LOOP_TARGET_MS)
  const uuidOver = floods.filter((run) => run.uuid.latency.p99 > UUID_TARGET_MS)
  const failures = floods.filter((run) => Object.keys(run.flood?.statuses ?? {}).some((key) => key.startsWith('5') && key !== '503 BUSY'))
  const idleRuns = runs.filter((run) => run.flood === undefined)
  const summary = (values: number[]): string => `${values.map(ms).join(', ')}`
  log(`Event-loop delay p99 ≤ ${EVENT_LOOP_TARGET_MS} ms under a flood: ${eldOver.length === 0 ? 'met' : 'MISSED'}, within it in ${floods.length - eldOver.length} of ${floods.length} flood runs ` +
    `(flood runs ${summary(floods.map((run) => run.eventLoop.p99))}; idle ${summary(idleRuns.map((run) => run.eventLoop.p99))})`)
  log(`uuid latency p99 ≤ ${UUID_TARGET_MS} ms under a flood: ${uuidOver.length === 0 ? 'met' : 'MISSED'}, within it in ${floods.length - uuidOver.length} of ${floods.length} flood runs ` +
    `(flood runs ${summary(floods.map((run) => run.uuid.latency.p99))}; idle ${summary(idleRuns.map((run) => run.uuid.latency.p99))})`)
  const rsaFloods = floods.filter((run) => run.kind === 'rsa4096')
  if (rsaFloods.length > 0) {
    log(`Of them the RSA 4096 floods (${rsaFloods.length}): event-loop delay p99 ${summary(rsaFloods.map((run) => run.eventLoop.p99))} ms, ` +
      `uuid p99 ${summary(rsaFloods.map((run) => run.uuid.latency.p99))} ms, keys made ${rsaFloods.map((run) => `${run.flood?.hashed.count ?? 0} (${((run.flood?.hashed.count ?? 0) / (run.flood?.seconds ?? 1)).toFixed(2)}/s)`).join(', ')}, ` +
      `503 BUSY ${rsaFloods.map((run) => run.flood?.busy.count ?? 0).join(', ')}`)
  }
  log(`5xx other than 503 BUSY: ${failures.length === 0 ? 'none' : failures.map((run) => `${label(run.kind)} #${run.round}: ${JSON.stringify(run.flood?.statuses)}${run.rebuilt ? ` (${REBUILT})` : ''}`).join('; ')}`)
  if (eldOver.length > 0) missed.push(`event-loop delay p99 above ${EVENT_LOOP_TARGET_MS} ms in ${eldOver.length} of ${floods.length} flood runs`)
  if (uuidOver.length > 0) missed.push(`uuid latency p99 above ${UUID_TARGET_MS} ms in ${uuidOver.length} of ${floods.length} flood runs`)
  if (failures.length > 0) missed.push(`5xx other than 503 BUSY in ${failures.length} flood runs`)
  for (const line of missed) log(`MISSED: ${line}`)
  if (missed.length > 0) process.exitCode = 1
}

if (!ranUnderBenchNode(import.meta.url)) await main()
