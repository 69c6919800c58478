// `npm run bench:cost`: CONTRACT §5's cost of a valid request, as a check that fails. Every
// heaviest and option row of the benchmark (50 ML-DSA-65 key pairs included), and password's
// heaviest request with a plan not yet cached (a new `exclude` every time, as a client sending
// distinct strings gets), must take under 20 ms of CPU on the runtime that runs this script; and a
// 78 KiB Accept-Language, ignored, must add under 1 ms to the request that carries it.
// .ci/run runs it on the image's runtime (.node-version); it is a benchmark, not a unit test,
// because these machines' speed drifts. Each request's cost is the least CPU time (user +
// system) of RUNS tries: other processes on the machine only ever add to it.
import { Writable } from 'node:stream'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/ops/config.js'
import { DEFAULT_SYMBOLS } from '../schemas/password.js'
import { SCENARIOS, VALID_REQUEST_CPU_MS as LIMIT_MS, expectedStatus, isValidRequestRow, type Scenario } from './scenarios.js'

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

async function leastCpuMs (scenarioOf: (run: number) => Scenario): Promise<number> {
  let least = Infinity
  for (let run = -1; run < RUNS; run++) {
    const scenario = scenarioOf(run < 0 ? RUNS : run)
    const before = process.cpuUsage()
    const response = await app.inject({ method: scenario.method, url: scenario.path, headers: scenario.headers, payload: scenario.body })
    const used = process.cpuUsage(before)
    if (response.statusCode !== expectedStatus(scenario)) throw new Error(`${scenario.row}: ${response.statusCode} ${response.body}`)
    // The first try warms the route up (compiled code, word lists): not counted
    if (run >= 0) least = Math.min(least, (used.user + used.system) / 1000)
  }
  return least
}

const rows: Array<[string, (run: number) => Scenario]> = SCENARIOS
  .filter(isValidRequestRow)
  .map((scenario) => [scenario.row, () => scenario])
rows.push([coldPasswordPlan(0).row, coldPasswordPlan])
rows.push([HEAVIEST_SET.row, () => HEAVIEST_SET])

const over: string[] = []
process.stdout.write(`Cost of a valid request on Node ${process.version}: least CPU of ${RUNS} tries, limit ${LIMIT_MS} ms\n`)
for (const [row, scenarioOf] of rows) {
  let ms = await leastCpuMs(scenarioOf)
  // The tries take a second or so: a process busy on the other hyperthread for all of it slows
  // every one (CI measured 23.4 ms for a row that takes 14-17). A figure over the limit is
  // measured again a few seconds later, and only a second one over it counts; both are printed
  if (ms >= LIMIT_MS) {
    process.stdout.write(`${ms.toFixed(2).padStart(7)} ms  ${row} (over the limit: measured again in 5 s)\n`)
    await new Promise((resolve) => setTimeout(resolve, 5000))
    ms = await leastCpuMs(scenarioOf)
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
