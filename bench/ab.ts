// `tsx bench/ab.ts`: a few server variants, interleaved (A B C A B C …), CPU µs per request from
// /proc beside req/s and latencies: for trying one change at a time before a full `npm run bench`.
// Variants are JSON on the command line: [{"name":…,"script":…,"env":{…},"nodeArgs":[…],"row":…}, …]
import { interleaved, median, type Variant } from './interleaved.js'

const variants = JSON.parse(process.argv[2] ?? '[]') as Variant[]
const results = await interleaved(variants, Number(process.env.AB_ROUNDS ?? 5), Number(process.env.AB_SECONDS ?? 3))
for (const { name, cpu, p50, p99, rps } of results) {
  process.stdout.write(`${name}: CPU median ${median(cpu).toFixed(1)} µs/req [${cpu.map((v) => v.toFixed(0)).join(' ')}], ` +
    `p50 median ${median(p50)} ms, p99 median ${median(p99)} ms [${p99.join(' ')}], ${Math.round(median(rps))} req/s\n`)
}
