// `npm run bench:floor`: where the contract floor's CPU goes. Bare Fastify, then the floor's parts
// added one at a time (bench/servers/floor-parts.mjs), beside plain node:http with and without
// randgen's headers, all interleaved under the same load with the image's heap flags. Each step's
// difference from the one before is what that part costs a request; the node:http pair shows what
// the headers cost Node itself, before any of Fastify's way of setting them.
import { interleaved, median, type Variant } from './interleaved.js'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const SECONDS = Number(process.env.BENCH_DURATION ?? 3)
const IMAGE_FLAGS = { NODE_OPTIONS: '--max-old-space-size=128 --max-semi-space-size=8', NODE_ENV: 'production', LOG_LEVEL: 'info' }
const TSX = ['--import', 'tsx']

const nodeHttp: Variant[] = [
  { name: 'node:http', script: 'bench/servers/node-http.mjs', nodeArgs: TSX, env: IMAGE_FLAGS },
  { name: 'node:http + randgen\'s headers', script: 'bench/servers/node-http.mjs', nodeArgs: TSX, env: { ...IMAGE_FLAGS, HEADERS: 'randgen' } }
]
const steps: Array<[string, string]> = [
  ['bare Fastify', ''],
  ['+ an empty onRequest hook', 'hook'],
  ['+ helmet\'s headers and Cache-Control (plugins/security.ts, in that hook)', 'headers'],
  ['+ the logger (pino at info, request-log controller, lazy children)', 'headers,logger'],
  ['+ the other server options = the contract floor', 'headers,options']
]
const fastify: Variant[] = steps.map(([name, parts]) => ({ name, script: 'bench/servers/floor-parts.mjs', nodeArgs: TSX, env: { ...IMAGE_FLAGS, PARTS: parts } }))
// The bench's reference, last: bare Fastify setting randgen's headers in its handler; the floor's target is a ratio to it
const reference: Variant = { name: 'the reference: bare Fastify + randgen\'s headers, set in the handler', script: 'bench/servers/baseline-fastify.mjs', nodeArgs: TSX, env: { ...IMAGE_FLAGS, HEADERS: 'randgen' } }

const results = await interleaved([...nodeHttp, ...fastify, reference], ROUNDS, SECONDS)
const us = (value: number): string => value.toFixed(1)
const lines = [
  `Node ${process.version}, ${ROUNDS} interleaved rounds of ${SECONDS} s, 64 connections; CPU µs per request (median of the rounds; the spread is each round's figure).`,
  '',
  '| Server | CPU µs/req | Δ from the row above | rounds | req/s | p50 ms | p99 ms |',
  '|---|--:|--:|---|--:|--:|--:|'
]
results.forEach(({ name, cpu, p50, p99, rps }, index) => {
  // The first row of each group (node:http, bare Fastify) has nothing above it to compare with
  const above = index === 0 || index === nodeHttp.length || index === results.length - 1 ? undefined : results[index - 1]
  const delta = above === undefined ? '' : `${median(cpu) - median(above.cpu) >= 0 ? '+' : ''}${us(median(cpu) - median(above.cpu))}`
  lines.push(`| ${name} | ${us(median(cpu))} | ${delta} | ${cpu.map((v) => v.toFixed(0)).join(' ')} | ${Math.round(median(rps))} | ${median(p50)} | ${median(p99)} |`)
})
const bare = results[nodeHttp.length] as typeof results[number]
const floor = results[results.length - 2] as typeof results[number]
const ofReference = results[results.length - 1] as typeof results[number]
lines.push('', `The floor: ${(median(ofReference.cpu) / median(floor.cpu)).toFixed(2)}× the reference (CPU per request; the target is 0.90×), ${(median(bare.cpu) / median(floor.cpu)).toFixed(2)}× bare Fastify.`, '')
process.stdout.write(lines.join('\n'))
