// Fuzzing every route through app.inject (production options via test/helper.ts). Invariants
// (test/fuzz/invariants.ts): never a 5xx, never a hang (each exchange bounded by INJECT_TIMEOUT_MS),
// every response a contract-valid success or problem document; the app answers afterwards.
// FUZZ_CASES (default 20,000) is split across the properties; `npm run fuzz` runs 1,000,000.
import t from 'tap'
import { build } from '../helper.js'
import { newStats, PROPERTIES, stillAnswers } from './properties.js'

const TOTAL = Number(process.env.FUZZ_CASES ?? 20_000)

t.test(`fuzz: ${TOTAL} cases over every route`, async (t) => {
  const app = await build(t)
  const stats = newStats()
  for (const { name, share, run } of PROPERTIES) {
    const numRuns = Math.ceil(TOTAL * share)
    await t.test(`${name}: ${numRuns} cases`, async (t) => {
      const result = await run(app, stats, numRuns, 240_000)
      t.notOk(result.failed, result.failed ? result.report : `${result.numRuns} cases passed`)
      t.equal(result.numRuns, numRuns, 'every case ran')
      t.ok(await stillAnswers(app), 'the app still answers')
    })
  }
  t.ok(stats.cases >= TOTAL, `${stats.cases} exchanges`)
  t.equal(stats.serverErrors, 0, 'no 5xx')
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries([...stats.byStatus].sort((a, b) => a[0] - b[0])))}`)
})
