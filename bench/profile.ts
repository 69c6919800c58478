// `npm run bench:profile -- <row> [seconds]`: where randgen's CPU time goes for one benchmark row.
// Runs the production build with --cpu-prof under the row's load and prints the functions and
// packages with the most self time, per request. Rows: the ids in bench/scenarios.ts
// (default-password, heaviest-seq, get-password, health, ...), or `floor` / `reference` / `baseline`
// (bare Fastify) / `node-http` / `node-http-headers` for those reference servers. Needs `npm run build` first.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { load } from './load.js'
import { startServer } from './processes.js'
import { REFERENCE_REQUEST, SCENARIOS } from './scenarios.js'

interface ProfileNode { id: number, callFrame: { functionName: string, url: string, lineNumber: number } }
interface CpuProfile { nodes: ProfileNode[], samples: number[], timeDeltas: number[] }

const [rowId = 'default-password', secondsText = '5'] = process.argv.slice(2)
// `floor`, `reference` and `baseline` profile those reference servers (bench/servers/) under the request they answer
const REFERENCE_SERVERS: Record<string, { script: string, nodeArgs: string[], env: Record<string, string> }> = {
  floor: { script: '../bench/servers/contract-floor.mjs', nodeArgs: ['--import', 'tsx'], env: { LOG_LEVEL: 'info', NODE_ENV: 'production' } },
  reference: { script: '../bench/servers/baseline-fastify.mjs', nodeArgs: ['--import', 'tsx'], env: { HEADERS: 'randgen' } },
  baseline: { script: '../bench/servers/baseline-fastify.mjs', nodeArgs: [], env: {} },
  'node-http': { script: '../bench/servers/node-http.mjs', nodeArgs: [], env: {} },
  'node-http-headers': { script: '../bench/servers/node-http.mjs', nodeArgs: ['--import', 'tsx'], env: { HEADERS: 'randgen' } }
}
const reference = REFERENCE_SERVERS[rowId]
const scenario = reference === undefined ? SCENARIOS.find((s) => s.id === rowId) : REFERENCE_REQUEST
if (scenario === undefined) throw new Error(`unknown row ${rowId}; rows: ${SCENARIOS.map((s) => s.id).join(', ')}, ${Object.keys(REFERENCE_SERVERS).join(', ')}`)

const dir = mkdtempSync(join(tmpdir(), 'randgen-profile-'))
const server = await startServer({
  name: rowId,
  script: fileURLToPath(new URL(reference?.script ?? '../dist/server.js', import.meta.url)),
  // The image's flags (Dockerfile), for randgen and the references alike
  env: { LOG_LEVEL: 'info', ...reference?.env, NODE_OPTIONS: '--max-old-space-size=128 --max-semi-space-size=8' },
  ready: reference === undefined ? { path: '/api/health', method: 'GET' } : { path: REFERENCE_REQUEST.path, method: 'POST', body: '{}' },
  nodeArgs: [...reference?.nodeArgs ?? [], '--cpu-prof', `--cpu-prof-dir=${dir}`]
})
await load(server.origin, [scenario], { connections: 64, duration: 2 })
const marker = process.hrtime.bigint()
const sample = await load(server.origin, [scenario], { connections: 64, duration: Number(secondsText), pid: server.pid })
const measuredMs = Number(process.hrtime.bigint() - marker) / 1e6
await server.stop()

const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))
if (file === undefined) throw new Error(`no profile written in ${dir}`)
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile
const nodes = new Map(profile.nodes.map((node) => [node.id, node]))

// Only the last `measuredMs` of the profile: start-up and warm-up left out
const total = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0)
const from = total - measuredMs * 1000 - 300_000
const byFunction = new Map<string, number>()
const byPackage = new Map<string, number>()
let elapsed = 0
profile.samples.forEach((id, index) => {
  elapsed += profile.timeDeltas[index] ?? 0
  const frame = nodes.get(id)?.callFrame
  if (elapsed < from || frame === undefined || frame.functionName === '(idle)') return
  const where = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist\/)/, '$1')
  const name = `${frame.functionName === '' ? '(anonymous)' : frame.functionName} ${where}${where === '' ? '' : `:${frame.lineNumber + 1}`}`
  const pkg = where === '' ? '(native / V8)' : where.startsWith('node:') ? 'node core' : where.replace(/^((@[^/]+\/)?[^/]+).*$/, '$1')
  byFunction.set(name, (byFunction.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0))
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + (profile.timeDeltas[index] ?? 0))
})

const perRequest = (us: number): string => (us / sample.requests).toFixed(1)
const top = (map: Map<string, number>, n: number): string[] =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, us]) => `| ${key.replace(/\|/g, '\\|')} | ${perRequest(us)} |`)
process.stdout.write([
  `## Profile of ${scenario.id} (${scenario.params})`,
  '',
  `${Math.round(sample.rps)} req/s, ${sample.requests} requests, ${sample.cpuUs.toFixed(0)} µs CPU per request (/proc); ` +
    `sampled self time per request below, profile in ${join(dir, file)}.`,
  '',
  '| Package | µs/request |',
  '|---|--:|',
  ...top(byPackage, 12),
  '',
  '| Function | µs/request |',
  '|---|--:|',
  ...top(byFunction, 25),
  ''
].join('\n'))
