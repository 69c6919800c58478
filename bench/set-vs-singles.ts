// `npm run bench:set`: CONTRACT §10's point in CPU: a set of five items (password, WireGuard key
// pair, pre-shared key, API token, UUID) against the same five values asked in five single
// requests, on the production build (`npm run build` first), under the same load, interleaved
// (set, singles, set, singles, …) as bench/interleaved.ts measures rows: the server's CPU per
// request from /proc, medians over the rounds. The set must cost at most half the five singles.
// And CONTRACT §14: a recipe (supabase's eight secrets, two of them JWTs signed with a third)
// against the same items posted by hand, interleaved the same way: a recipe must cost no more
// than its items (its items were checked when the catalog loaded; AJV has nothing left to do).
// A small addition beside the HTTP benchmark's rows, not one of them (bench/run.ts is unchanged).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { load } from './load.js'
import { startServer } from './processes.js'
import { median } from './interleaved.js'
import type { Scenario } from './scenarios.js'
import supabase from '../recipes/supabase.js'

const ROUNDS = Number(process.env.SET_BENCH_ROUNDS ?? 5)
const SECONDS = Number(process.env.SET_BENCH_SECONDS ?? 3)
const CONNECTIONS = 64
/** The bar: the set's CPU at most this share of the five single requests'. */
const MAX_RATIO = 0.5
/** The bar: a recipe's CPU at most its items' posted by hand. */
const RECIPE_MAX_RATIO = 1

const ITEMS = [
  { name: 'DB_PASSWORD', type: 'password', params: {} },
  { name: 'WG', type: 'vpn', params: { protocol: 'wireguard' } },
  { name: 'WG_PSK', type: 'vpn', params: { protocol: 'wireguard-psk' } },
  { name: 'API_TOKEN', type: 'token', params: {} },
  { name: 'ID', type: 'uuid', params: {} }
]
const JSON_HEADERS = { 'content-type': 'application/json' }

const SET: Scenario = {
  id: 'set-5',
  row: 'set of 5 (password, wireguard, wireguard-psk, token, uuid)',
  group: 'default',
  target: 'set',
  params: '5 items',
  method: 'POST',
  path: '/api/generate',
  headers: JSON_HEADERS,
  body: JSON.stringify({ items: ITEMS })
}
const SINGLES: Scenario[] = ITEMS.map(({ type, params }) => ({
  id: `single-${type}`,
  row: `${type} alone`,
  group: 'default',
  target: type,
  params: JSON.stringify(params),
  method: 'POST',
  path: `/api/generate/${type}`,
  headers: JSON_HEADERS,
  body: JSON.stringify(params)
}))

const RECIPE: Scenario = {
  id: 'recipe-supabase',
  row: 'recipe supabase (8 items, 2 JWTs)',
  group: 'default',
  target: 'set',
  params: '{"recipe":"supabase"}',
  method: 'POST',
  path: '/api/generate',
  headers: JSON_HEADERS,
  body: JSON.stringify({ recipe: supabase.id })
}
const RECIPE_ITEMS: Scenario = { ...RECIPE, id: 'recipe-items-supabase', row: 'the same items posted by hand', params: 'supabase\'s items', body: JSON.stringify({ items: supabase.items }) }

const script = fileURLToPath(new URL('../dist/server.js', import.meta.url))
if (!existsSync(script)) throw new Error('dist/server.js is missing: run `npm run build` first')
const server = await startServer({ name: 'randgen', script, env: { LOG_LEVEL: 'info' }, ready: { path: '/api/generate/uuid', method: 'POST', body: '{}' } })
try {
  // Warm-up: the JIT settles on both before the first measured round
  await load(server.origin, [SET], { connections: CONNECTIONS, duration: 2 })
  await load(server.origin, SINGLES, { connections: CONNECTIONS, duration: 2 })
  await load(server.origin, [RECIPE], { connections: CONNECTIONS, duration: 2 })
  await load(server.origin, [RECIPE_ITEMS], { connections: CONNECTIONS, duration: 2 })
  const set: number[] = []
  const singles: number[] = []
  const recipe: number[] = []
  const items: number[] = []
  const cpuUs = async (scenarios: Scenario[]) => (await load(server.origin, scenarios, { connections: CONNECTIONS, duration: SECONDS, pid: server.pid })).cpuUs
  for (let round = 0; round < ROUNDS; round++) {
    set.push(await cpuUs([SET]))
    // autocannon cycles through the five: CPU per request × 5 is what the five values cost
    singles.push(5 * await cpuUs(SINGLES))
    recipe.push(await cpuUs([RECIPE]))
    items.push(await cpuUs([RECIPE_ITEMS]))
  }
  const ratio = median(set) / median(singles)
  const recipeRatio = median(recipe) / median(items)
  process.stdout.write(`Node ${process.version}, ${ROUNDS} interleaved rounds of ${SECONDS} s, ${CONNECTIONS} connections; server CPU µs (user + system, /proc), medians\n`)
  process.stdout.write(`${median(set).toFixed(1).padStart(8)} µs  ${SET.row} [${set.map((v) => v.toFixed(0)).join(' ')}]\n`)
  process.stdout.write(`${median(singles).toFixed(1).padStart(8)} µs  the same five values in five single requests [${singles.map((v) => v.toFixed(0)).join(' ')}]\n`)
  process.stdout.write(`ratio ${ratio.toFixed(2)} (at most ${MAX_RATIO})\n`)
  process.stdout.write(`${median(recipe).toFixed(1).padStart(8)} µs  ${RECIPE.row} [${recipe.map((v) => v.toFixed(0)).join(' ')}]\n`)
  process.stdout.write(`${median(items).toFixed(1).padStart(8)} µs  ${RECIPE_ITEMS.row} [${items.map((v) => v.toFixed(0)).join(' ')}]\n`)
  process.stdout.write(`ratio ${recipeRatio.toFixed(2)} (at most ${RECIPE_MAX_RATIO})\n`)
  if (ratio > MAX_RATIO || recipeRatio > RECIPE_MAX_RATIO) process.exitCode = 1
} finally {
  await server.stop()
}
