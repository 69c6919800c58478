// The password plan cache under distinct `symbolSet` and `exclude` strings (a client can send
// millions): it holds at most MAX_PLANS plans, and the heap it keeps stays bounded, measured after
// full garbage collections.
import t from 'tap'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { CHARACTER_SETS, MAX_PLANS, cachedPlans, drawByComposition, passwordPlan } from '../../plugins/password.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const DEFAULTS = { length: 8, uppercase: true, lowercase: true, numbers: true, symbols: true, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols, exclude: '', quantity: 1 }
const PRINTABLE = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('')

/** The i-th distinct exclude string: i in base 94 over printable ASCII, padded to `width` with `~`. */
function excludeOf (i: number, width: number): string {
  let text = ''
  do {
    text += PRINTABLE[i % 94]
    i = Math.floor(i / 94)
  } while (i > 0)
  return text.padEnd(width, '~')
}

function heapAfterGc (): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

t.test('100,000 distinct exclude values: at most MAX_PLANS plans, and the heap they keep is bounded', async (t) => {
  const MIB = 1024 * 1024
  const before = heapAfterGc()
  let largest = 0
  for (let i = 0; i < 100_000; i++) {
    passwordPlan({ ...DEFAULTS, exclude: excludeOf(i, 128) })
    largest = Math.max(largest, cachedPlans())
  }
  const after = heapAfterGc()
  t.ok(largest <= MAX_PLANS, `at most ${MAX_PLANS} plans at any time (${largest})`)
  const growth = (after - before) / MIB
  // 256 plans of 8 characters with 128-character keys: well under a megabyte; 100,000 kept would be tens
  t.ok(growth < 8, `heap after 100,000 distinct values: ${growth.toFixed(2)} MiB more than before`)
})

t.test('the heaviest plans: 2 × MAX_PLANS of 128 characters with minimums drawn by composition', async (t) => {
  const MIB = 1024 * 1024
  const before = heapAfterGc()
  const heavy = { ...DEFAULTS, length: 128, minUppercase: 30, minLowercase: 30, minNumbers: 30, minSymbols: 30 }
  for (let i = 0; i < 2 * MAX_PLANS; i++) {
    const plan = passwordPlan({ ...heavy, exclude: excludeOf(i, 1) })
    // Drawing fills the plan's tables of cumulative weights: what a plan in use holds
    for (let draw = 0; draw < 20; draw++) drawByComposition(plan)
  }
  const after = heapAfterGc()
  t.ok(cachedPlans() <= MAX_PLANS, `${cachedPlans()} plans cached`)
  const growth = (after - before) / MIB
  t.ok(growth < 64, `heap with the cache full of the heaviest plans: ${growth.toFixed(2)} MiB more than before`)
})
