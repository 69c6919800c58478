// The long fuzz run: `npm run fuzz` (FUZZ_CASES, default 1,000,000) runs the properties of
// test/fuzz/properties.ts in chunks, printing progress, and ends with a summary: cases, 5xx seen,
// statuses, and every failing chunk's counterexample. Exit 1 on any violation.
// Each chunk gets a fresh app: under app.inject a Fastify instance keeps ~10 KB per request until
// it is closed (a test-harness effect: over real HTTP, `npm run soak` shows flat memory), which
// would otherwise exhaust the heap long before a million cases.
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/ops/config.js'
import { newStats, PROPERTIES, stillAnswers } from '../test/fuzz/properties.js'

const TOTAL = Number(process.env.FUZZ_CASES ?? 1_000_000)
const CHUNK = 10_000
// Each chunk is bounded in time too, so the run always ends
const CHUNK_TIME_LIMIT_MS = 600_000

async function freshApp () {
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }))
  await app.ready()
  return app
}

const stats = newStats()
const failures: string[] = []
const started = Date.now()

for (const { name, share, run } of PROPERTIES) {
  const target = Math.ceil(TOTAL * share)
  for (let done = 0; done < target;) {
    const numRuns = Math.min(CHUNK, target - done)
    const app = await freshApp()
    const result = await run(app, stats, numRuns, CHUNK_TIME_LIMIT_MS)
    if (!await stillAnswers(app)) failures.push(`${name}: the app stopped answering`)
    await app.close()
    done += result.numRuns
    if (result.failed) {
      failures.push(`${name}: ${result.report}`)
      process.stdout.write(`FAILED ${name}: ${result.report}\n`)
      // A failing chunk stops early; count what ran and go on with a fresh chunk
      if (result.numRuns === 0) done += numRuns
    }
    process.stdout.write(`${name}: ${done}/${target} (total ${stats.cases}, 5xx ${stats.serverErrors}, ${Math.round((Date.now() - started) / 1000)} s)\n`)
  }
}

const summary = {
  cases: stats.cases,
  serverErrors: stats.serverErrors,
  statuses: Object.fromEntries([...stats.byStatus].sort((a, b) => a[0] - b[0])),
  failures: failures.length,
  seconds: Math.round((Date.now() - started) / 1000)
}
process.stdout.write(`${JSON.stringify(summary)}\n`)
process.exitCode = failures.length === 0 && stats.serverErrors === 0 ? 0 : 1
