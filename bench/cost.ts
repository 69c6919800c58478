// `npm run bench:cost`: CONTRACT §5's cost of a valid request, as a check that fails. Every
// heaviest and option row of the benchmark (50 ML-DSA-65 key pairs included), and password's
// heaviest request with a plan not yet cached (a new `exclude` every time, as a client sending
// distinct strings gets), must take under 20 ms of CPU on the runtime that runs this script; and a
// 78 KiB Accept-Language, ignored, must add under 1 ms to the request that carries it. Every
// recipe (CONTRACT §14) too, its event loop's share alone: a recipe's hashes (Vaultwarden's and
// Authelia's Argon2id at 64 MiB) run on the work pool's threads, whose CPU is not the loop's.
// .ci/run runs it on the image's runtime (.node-version); it is a benchmark, not a unit test,
// because these machines' speed drifts. Each request's cost is the least CPU time (user +
// system) of RUNS tries: other processes on the machine only ever add to it.
import { Writable } from 'node:stream'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/ops/config.js'
import { DEFAULT_SYMBOLS } from '../schemas/password.js'
import { readFileSync } from 'node:fs'
import { SCENARIOS, VALID_REQUEST_CPU_MS as LIMIT_MS, expectedStatus, isValidRequestRow, type Scenario } from './scenarios.js'
import { RECIPES } from '../recipes/index.js'

const RUNS = 40

/** Password at its heaviest (length 128, all four sets with minimums, ×50), each time with another `exclude`. */
function coldPasswordPlan (run: number): Scenario {
  // RUNS + 1 distinct characters of the default sets, one per try: every try builds its plan anew
  const excluded = `${DEFAULT_SYMBOLS}ABCDEFGHJKMNP`[run] as string
  return {
    id: 'cold-plan-password',
    row: 'password (heaviest, a new plan each time)',
    group: 'heaviest',
    target: 'password',
    params: 'length 128, one of each set at least, a new exclude each time, ×50',
    method: 'POST',
    path: '/api/generate/password',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ length: 128, minLowercase: 1, minUppercase: 1, minNumbers: 1, minSymbols: 1, exclude: excluded, quantity: 50 })
  }
}

/** CONTRACT §10: the heaviest valid set, 50 ML-DSA-65 key pairs across items, costs what the heaviest request does. */
const HEAVIEST_SET: Scenario = {
  id: 'heaviest-set',
  row: 'set (heaviest: 50 ML-DSA-65 key pairs in 5 items)',
  group: 'heaviest',
  target: 'set',
  params: '5 items of vpn mldsa65 ×10',
  method: 'POST',
  path: '/api/generate',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ items: Array.from({ length: 5 }, (_, i) => ({ name: `PQ_${i}`, type: 'vpn', params: { protocol: 'mldsa65', quantity: 10 } })) })
}

/**
 * A refused request (its problem document is in the negotiated language) with a 78 KiB
 * Accept-Language, which the service ignores unparsed (over 256 characters, CONTRACT §4). Parsed,
 * it costs ~4 ms more than the same request without it (Node 20, negotiator 1.1): well under the
 * 20 ms limit, so its own check is that it adds under HUGE_HEADER_EXTRA_MS to that request.
 */
const HUGE_ACCEPT_LANGUAGE: Scenario = {
  id: 'huge-accept-language',
  row: 'password (refused, with a 78 KiB Accept-Language ignored)',
  group: 'abuse',
  target: 'password',
  params: 'length 0, Accept-Language of 79,872 characters',
  method: 'POST',
  path: '/api/generate/password',
  headers: { 'content-type': 'application/json', 'accept-language': ('ru;q=0.9, ' + 'zz;q=0.1, '.repeat(8192)).slice(0, 78 * 1024) },
  body: '{"length":0}'
}
const HUGE_HEADER_EXTRA_MS = 1

const app = await buildApp(loadConfig({ LOG_LEVEL: 'info' }), { logStream: new Writable({ write: (_chunk, _encoding, done) => done() }) })
await app.ready()

/** Linux's clock ticks a second (USER_HZ), in which /proc counts a thread's CPU time. */
const TICKS_PER_SECOND = 100

/** A CPU clock in µs; a coarse one counts in ticks, so a request's cost is the mean of the tries, not the least. */
interface CpuClock { read: () => number, coarse: boolean }

const processCpu: CpuClock = {
  read: () => {
    const { user, system } = process.cpuUsage()
    return user + system
  },
  coarse: false
}

const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage
/**
 * The CPU of the event loop's thread alone: Node's own count where it has one (Node 23.9 and
 * later, the image's runtime), else the main thread's line of /proc, in 10 ms ticks. Both are
 * coarse: Linux samples a thread's time by the tick (measured here: 2,000 draws read 0 to 7.9 ms
 * through threadCpuUsage where the process's own clock said 3.3 to 8.0), so the mean of the tries it is.
 */
const loopCpu: CpuClock = threadCpuUsage !== undefined
  ? {
      read: () => {
        const { user, system } = threadCpuUsage.call(process)
        return user + system
      },
      coarse: true
    }
  : {
      read: () => {
        const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
        return (Number(fields[11]) + Number(fields[12])) * 1e6 / TICKS_PER_SECOND
      },
      coarse: true
    }

async function leastCpuMs (scenarioOf: (run: number) => Scenario, clock: CpuClock = processCpu): Promise<number> {
  let least = Infinity
  let total = 0
  for (let run = -1; run < RUNS; run++) {
    const scenario = scenarioOf(run < 0 ? RUNS : run)
    const before = clock.read()
    const response = await app.inject({ method: scenario.method, url: scenario.path, headers: scenario.headers, payload: scenario.body })
    const used = clock.read() - before
    if (response.statusCode !== expectedStatus(scenario)) throw new Error(`${scenario.row}: ${response.statusCode} ${response.body}`)
    // The first try warms the route up (compiled code, word lists): not counted
    if (run < 0) continue
    least = Math.min(least, used / 1000)
    total += used / 1000
  }
  return clock.coarse ? total / RUNS : least
}

/** CONTRACT §14: a recipe's `.env`, the form that draws everything, Argon2id at 64 MiB included. */
function recipeScenario (id: string): Scenario {
  return {
    id: `recipe-${id}`,
    row: `recipe ${id} (.env; the event loop's CPU alone, the mean of the tries)`,
    group: 'heaviest',
    target: 'set',
    params: `{"recipe":"${id}"}`,
    method: 'POST',
    path: '/api/generate',
    headers: { 'content-type': 'application/json', accept: 'text/plain' },
    body: JSON.stringify({ recipe: id })
  }
}

const rows: Array<[string, (run: number) => Scenario, CpuClock?]> = SCENARIOS
  .filter(isValidRequestRow)
  .map((scenario) => [scenario.row, () => scenario])
rows.push([coldPasswordPlan(0).row, coldPasswordPlan])
rows.push([HEAVIEST_SET.row, () => HEAVIEST_SET])
for (const { id } of RECIPES) rows.push([recipeScenario(id).row, () => recipeScenario(id), loopCpu])

const over: string[] = []
process.stdout.write(`Cost of a valid request on Node ${process.version}: least CPU of ${RUNS} tries, limit ${LIMIT_MS} ms\n`)
for (const [row, scenarioOf, clock] of rows) {
  let ms = await leastCpuMs(scenarioOf, clock)
  // The tries take a second or so: a process busy on the other hyperthread for all of it slows
  // every one (CI measured 23.4 ms for a row that takes 14-17). A figure over the limit is
  // measured again a few seconds later, and only a second one over it counts; both are printed
  if (ms >= LIMIT_MS) {
    process.stdout.write(`${ms.toFixed(2).padStart(7)} ms  ${row} (over the limit: measured again in 5 s)\n`)
    await new Promise((resolve) => setTimeout(resolve, 5000))
    ms = await leastCpuMs(scenarioOf, clock)
  }
  process.stdout.write(`${ms.toFixed(2).padStart(7)} ms  ${row}\n`)
  if (ms >= LIMIT_MS) over.push(`${row} ${ms.toFixed(2)} ms`)
}
const withoutHeader = await leastCpuMs(() => ({ ...HUGE_ACCEPT_LANGUAGE, headers: { 'content-type': 'application/json' } }))
const withHeader = await leastCpuMs(() => HUGE_ACCEPT_LANGUAGE)
process.stdout.write(`${withHeader.toFixed(2).padStart(7)} ms  ${HUGE_ACCEPT_LANGUAGE.row}: ${(withHeader - withoutHeader).toFixed(2)} ms more than without it (limit ${HUGE_HEADER_EXTRA_MS} ms)\n`)
if (withHeader - withoutHeader >= HUGE_HEADER_EXTRA_MS) over.push(`${HUGE_ACCEPT_LANGUAGE.row}: ${(withHeader - withoutHeader).toFixed(2)} ms more than without the header`)
await app.close()
if (over.length > 0) {
  process.stdout.write(`over the limit: ${over.join('; ')}\n`)
  process.exitCode = 1
}
