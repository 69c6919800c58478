// CONTRACT §12.1: the work pool. Orders and counts only, never durations (speed lives in
// bench/): jobs run on a fake thread (fake-thread.ts) whose start the test sees and whose end it
// decides through shared memory, and one real hash goes through the service's own thread.
import t, { type Test } from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { WorkPoolError, WorkPool, INITIAL_SECONDS_PER_HASH, type WorkPoolOptions } from '../../../src/work-pool/pool.js'
import type { HashJob } from '../../../src/hashing/hash-job.js'
import type { PoolAlgorithm } from '../../../src/work-pool/job.js'
import { gateCell, MOST_RUNNING, RUNNING, startCell, type FakeSettings } from './fake-thread.js'

const FAKE_THREAD = new URL('./fake-thread.ts', import.meta.url)

/** A pool on the fake thread, closed with the test. */
function fakePool (t: Test, options: Partial<WorkPoolOptions> & { concurrency: number, queue: number }): WorkPool {
  const pool = new WorkPool({ worker: FAKE_THREAD, ...options })
  t.teardown(() => pool.close())
  return pool
}

/** The test's view of its fake jobs: which started, in what order, and their gates. */
class Jobs {
  readonly control = new Int32Array(new SharedArrayBuffer(4 * 256))
  private next = 0

  job (options: Partial<Pick<FakeSettings, 'gated' | 'behaviour' | 'seconds'>> = {}): HashJob & { id: number } {
    const id = this.next++
    const settings: FakeSettings = { algorithm: 'mosquitto', iterations: 101, id, control: this.control, gated: true, seconds: 0.01, ...options }
    return { id, settings: settings as unknown as HashJob['settings'], value: `value-${id}`, salt: new Uint8Array(12) }
  }

  /** Its start's rank among all starts (1-based), 0 while it has not started. */
  started (job: { id: number }): number {
    return Atomics.load(this.control, startCell(job.id))
  }

  async whenStarted (job: { id: number }): Promise<number> {
    const wait = Atomics.waitAsync(this.control, startCell(job.id), 0)
    if (wait.async) await wait.value
    return this.started(job)
  }

  open (job: { id: number }): void {
    Atomics.store(this.control, gateCell(job.id), 1)
    Atomics.notify(this.control, gateCell(job.id))
  }

  get running (): number {
    return Atomics.load(this.control, RUNNING)
  }

  get mostRunning (): number {
    return Atomics.load(this.control, MOST_RUNNING)
  }
}

/** Waits until `condition` holds (the test's own timeout bounds it). */
async function until (condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5)
}

const present = () => false

t.test('admission is all or nothing at concurrency + queue, and starts no thread', async (t) => {
  const pool = fakePool(t, { concurrency: 2, queue: 3 })
  t.equal(pool.depth, 0)
  const first = pool.admit(3)
  t.ok(first, '3 of 5 admitted')
  t.equal(pool.admit(3), undefined, '3 more do not fit: none admitted')
  t.equal(pool.depth, 3, 'a refused request holds nothing')
  const second = pool.admit(2)
  t.ok(second, '2 more fill it exactly')
  t.equal(pool.depth, 5)
  t.equal(pool.admit(1), undefined, 'full')
  t.equal(pool.admit(0) !== undefined, true, 'nothing to hash always fits')
  t.equal(pool.threadCount, 0, 'no thread before a job runs')

  const jobs = new Jobs()
  const a = [jobs.job({ gated: false }), jobs.job({ gated: false }), jobs.job({ gated: false })]
  const b = [jobs.job({ gated: false })]
  t.same(await first?.run(a, present), ['hash:value-0', 'hash:value-1', 'hash:value-2'], 'hashes in the jobs\' order')
  t.same(await second?.run(b, present), ['hash:value-3'], 'fewer jobs than admitted: the others\' slots are freed')
  t.equal(pool.depth, 0, 'every slot back')
  t.ok(pool.threadCount >= 1 && pool.threadCount <= 2, 'threads on demand, at most concurrency')
  t.ok(pool.admit(5), 'the whole capacity again')

  const third = pool.admit(1)
  t.equal(third, undefined)
  await t.rejects(async () => await pool.admit(0)?.run([jobs.job()], present), RangeError, 'more jobs than admitted')
  t.throws(() => pool.admit(-1), RangeError)
  t.throws(() => pool.admit(1.5), RangeError)
})

t.test('first in, first out, and never more than concurrency at once', async (t) => {
  const pool = fakePool(t, { concurrency: 2, queue: 10 })
  const jobs = new Jobs()
  const a = [jobs.job(), jobs.job()]
  const b = [jobs.job(), jobs.job(), jobs.job()]
  const c = [jobs.job()]
  const runs = [a, b, c].map((batch) => (pool.admit(batch.length) as NonNullable<ReturnType<WorkPool['admit']>>).run(batch, present))
  t.same(new Set(await Promise.all(a.map((job) => jobs.whenStarted(job)))), new Set([1, 2]), 'the first request\'s jobs start first')
  t.equal(pool.running, 2)
  t.equal(pool.waiting, 4)
  t.equal(pool.depth, 6)
  // One slot frees at a time, so each next start is the queue's head
  const order = [...b, ...c]
  const ends = [...a, ...b, ...c]
  for (const [index, job] of order.entries()) {
    jobs.open(ends[index] as { id: number })
    t.equal(await jobs.whenStarted(job), index + 3, `job ${job.id} starts ${index + 3}th`)
    t.ok(pool.running <= 2 && pool.threadCount <= 2, 'at most 2 running, on at most 2 threads')
  }
  for (const job of ends.slice(order.length)) jobs.open(job)
  t.same(await Promise.all(runs), [['hash:value-0', 'hash:value-1'], ['hash:value-2', 'hash:value-3', 'hash:value-4'], ['hash:value-5']])
  t.equal(jobs.mostRunning, 2, 'the threads never ran more than 2 jobs at once')
  t.equal(jobs.running, 0)
  t.equal(pool.depth, 0)
  t.equal(pool.running, 0)
})

t.test('a request whose client has gone before its jobs start is dropped without hashing', async (t) => {
  const pool = fakePool(t, { concurrency: 1, queue: 10 })
  const jobs = new Jobs()

  await t.test('gone while waiting: none of its jobs runs, the next request does', async (t) => {
    const a = [jobs.job()]
    const b = [jobs.job(), jobs.job()]
    const c = [jobs.job()]
    let bGone = false
    const runA = pool.admit(1)?.run(a, present)
    const runB = pool.admit(2)?.run(b, () => bGone)
    const runC = pool.admit(1)?.run(c, present)
    await jobs.whenStarted(a[0] as { id: number })
    t.equal(pool.depth, 4)
    bGone = true
    jobs.open(a[0] as { id: number })
    t.same(await runA, ['hash:value-0'])
    t.equal(await runB, undefined, 'run resolves undefined')
    await jobs.whenStarted(c[0] as { id: number })
    t.equal(pool.depth, 1, 'its slots freed: only the running job holds one')
    jobs.open(c[0] as { id: number })
    t.same(await runC, ['hash:value-3'])
    t.same(b.map((job) => jobs.started(job)), [0, 0], 'neither of its jobs started')
    t.equal(pool.depth, 0)
  })

  await t.test('gone after its first job started: the rest are dropped', async (t) => {
    const b = [jobs.job(), jobs.job(), jobs.job()]
    let gone = false
    const run = pool.admit(3)?.run(b, () => gone)
    await jobs.whenStarted(b[0] as { id: number })
    gone = true
    jobs.open(b[0] as { id: number })
    t.equal(await run, undefined)
    t.same(b.map((job) => jobs.started(job) > 0), [true, false, false])
    await until(() => pool.depth === 0)
    t.equal(pool.depth, 0)
  })

  await t.test('gone before run: nothing queued, nothing started', async (t) => {
    const threads = pool.threadCount
    const run = pool.admit(2)?.run([jobs.job(), jobs.job()], () => true)
    t.equal(pool.depth, 0, 'slots freed at once')
    t.equal(await run, undefined)
    t.equal(pool.threadCount, threads)
  })

  await t.test('a full pool first drops the requests whose clients have gone', async (t) => {
    const small = fakePool(t, { concurrency: 1, queue: 1 })
    const running = jobs.job()
    const waiting = jobs.job()
    let gone = false
    const runRunning = small.admit(1)?.run([running], present)
    const runWaiting = small.admit(1)?.run([waiting], () => gone)
    await jobs.whenStarted(running)
    t.equal(small.admit(1), undefined, 'full while its client is there')
    gone = true
    const next = small.admit(1)
    t.ok(next, 'room once its client has gone')
    t.equal(await runWaiting, undefined)
    jobs.open(running)
    t.same(await runRunning, [`hash:value-${running.id}`])
    const last = jobs.job({ gated: false })
    t.same(await next?.run([last], present), [`hash:value-${last.id}`])
    t.equal(jobs.started(waiting), 0, 'never hashed')
  })
})

t.test('a run abandoned through its signal is rejected at once, its waiting jobs dropped, its running one ended unread', async (t) => {
  const pool = fakePool(t, { concurrency: 1, queue: 10 })
  const jobs = new Jobs()
  const running = jobs.job()
  const waiting = [jobs.job(), jobs.job()]
  const runRunning = pool.admit(1)?.run([running], present)
  const abandonWaiting = new AbortController()
  const runWaiting = pool.admit(2)?.run(waiting, present, abandonWaiting.signal)
  await jobs.whenStarted(running)
  t.equal(pool.depth, 3)
  abandonWaiting.abort()
  await t.rejects(runWaiting as Promise<unknown>, { name: 'WorkPoolError', code: 'HASH_ABANDONED' }, 'a waiting run is rejected')
  t.equal(pool.depth, 1, 'its slots freed: only the running job holds one')
  t.same(waiting.map((job) => jobs.started(job)), [0, 0], 'none of its jobs started')

  const later = jobs.job({ gated: false })
  const runLater = pool.admit(1)?.run([later], present)
  jobs.open(running)
  t.same(await runRunning, ['hash:value-0'], 'a run never abandoned is answered')
  t.same(await runLater, ['hash:value-3'], 'the next one runs')

  // A run whose job is running: rejected now; the job ends on its own and frees its slot then
  const slow = jobs.job()
  const abandonSlow = new AbortController()
  const runSlow = pool.admit(1)?.run([slow], present, abandonSlow.signal)
  await jobs.whenStarted(slow)
  abandonSlow.abort()
  await t.rejects(runSlow as Promise<unknown>, { code: 'HASH_ABANDONED' }, 'a running run is rejected at once')
  t.equal(pool.depth, 1, 'its slot held while its job still runs')
  jobs.open(slow)
  await until(() => pool.depth === 0)
  t.equal(pool.depth, 0, 'and freed when the job ends')

  // Abandoned before it is run: rejected, nothing started
  const early = new AbortController()
  early.abort()
  const never = jobs.job()
  await t.rejects(pool.admit(1)?.run([never], present, early.signal) as Promise<unknown>, { code: 'HASH_ABANDONED' })
  t.equal(jobs.started(never), 0)
  t.equal(pool.depth, 0)

  // Done before the signal fires: the signal changes nothing after
  const quick = new AbortController()
  t.same(await pool.admit(1)?.run([jobs.job({ gated: false })], present, quick.signal), ['hash:value-6'])
  quick.abort()
  t.equal(pool.depth, 0)
})

t.test('slots are released when a job fails, and a dead thread is replaced', async (t) => {
  const pool = fakePool(t, { concurrency: 1, queue: 2 })
  const jobs = new Jobs()

  const failing = [jobs.job({ gated: false, behaviour: 'fail' }), jobs.job(), jobs.job()]
  const error = await pool.admit(3)?.run(failing, present).then(() => undefined, (reason: unknown) => reason)
  t.ok(error instanceof WorkPoolError, 'the run rejects')
  t.match(error, { code: 'HASH_FAILED', message: 'hashing failed: the fake primitive refused' })
  t.equal(pool.depth, 0, 'every slot back, the failed job\'s and its request\'s others\'')
  t.same(failing.slice(1).map((job) => jobs.started(job)), [0, 0], 'the request\'s other jobs are not hashed')

  for (const behaviour of ['crash', 'exit'] as const) {
    const threads = pool.threadCount
    t.equal(threads, 1)
    const dead = await pool.admit(1)?.run([jobs.job({ gated: false, behaviour })], present).then(() => undefined, (reason: unknown) => reason)
    t.match(dead, { name: 'WorkPoolError', code: 'HASH_THREAD_DIED' }, `${behaviour}: the run rejects`)
    t.notMatch((dead as Error).message, /value-/, 'never the value')
    t.equal(pool.depth, 0, `${behaviour}: its slot is back`)
    const after = jobs.job({ gated: false })
    t.same(await pool.admit(1)?.run([after], present), [`hash:value-${after.id}`], `${behaviour}: the next job runs on a new thread`)
    t.equal(pool.threadCount, 1)
  }
})

t.test('Retry-After: whole seconds, at least 1, growing with the queue and the time a hash takes', async (t) => {
  const pool = fakePool(t, { concurrency: 2, queue: 40 })
  t.equal(pool.retryAfterSeconds(), 1, 'empty: 1')
  const seen: number[] = []
  for (let i = 0; i < 42; i++) {
    t.ok(pool.admit(1))
    seen.push(pool.retryAfterSeconds())
  }
  t.ok(seen.every((seconds) => Number.isInteger(seconds) && seconds >= 1), 'whole seconds, >= 1')
  t.ok(seen.every((seconds, i) => i === 0 || seconds >= (seen[i - 1] as number)), 'never less for a longer queue')
  t.equal(seen.at(-1), Math.ceil(42 / 2 * INITIAL_SECONDS_PER_HASH), 'waiting / concurrency × the initial guess')
  t.ok((seen.at(-1) as number) > 1)

  // Hashes measured slower than the guess: the same queue now says longer
  const measured = fakePool(t, { concurrency: 1, queue: 20 })
  const jobs = new Jobs()
  for (let i = 0; i < 20; i++) measured.admit(1)
  const before = measured.retryAfterSeconds()
  const slow = measured.admit(1)
  await slow?.run([jobs.job({ gated: false, seconds: 5 })], present)
  t.ok(measured.retryAfterSeconds() > before, `${measured.retryAfterSeconds()} s after a 5 s hash, ${before} s before`)

  // A hash still running after 8 times the mean (here the initial guess, 0.25 s) counts for what it
  // has taken so far (a lower bound: a slower machine only makes it longer): with 4 waiting on 1
  // thread, past 2.1 s a running hash makes Retry-After at least 9 s, where the guess says 1
  const starved = fakePool(t, { concurrency: 1, queue: 4 })
  const running = jobs.job()
  const run = starved.admit(1)?.run([running], present)
  for (let i = 0; i < 4; i++) starved.admit(1)
  await jobs.whenStarted(running)
  await sleep(2100)
  t.ok(starved.retryAfterSeconds() >= 9, `${starved.retryAfterSeconds()} s while a hash has run over 2.1 s`)
  jobs.open(running)
  await run
})

t.test('threads end after their idle time, and on close', async (t) => {
  await t.test('idle', async (t) => {
    const pool = fakePool(t, { concurrency: 2, queue: 0, idleMilliseconds: 1 })
    const jobs = new Jobs()
    const both = [jobs.job(), jobs.job()]
    const run = pool.admit(2)?.run(both, present)
    await Promise.all(both.map((job) => jobs.whenStarted(job)))
    t.equal(pool.threadCount, 2)
    for (const job of both) jobs.open(job)
    await run
    await until(() => pool.threadCount === 0)
    t.equal(pool.threadCount, 0, 'no thread left once idle')
    const again = jobs.job({ gated: false })
    t.same(await pool.admit(1)?.run([again], present), [`hash:value-${again.id}`], 'a new thread for the next job')
  })

  await t.test('close', async (t) => {
    const pool = fakePool(t, { concurrency: 1, queue: 2 })
    const jobs = new Jobs()
    const first = jobs.job()
    const running = pool.admit(1)?.run([first], present)
    const waiting = pool.admit(1)?.run([jobs.job()], present)
    let gone = false
    const waitingGone = pool.admit(1)?.run([jobs.job()], () => gone)
    const admitted = pool.admit(0)
    await jobs.whenStarted(first)
    const rejections = [
      t.rejects(running as Promise<unknown>, { name: 'WorkPoolError', code: 'HASH_POOL_CLOSED' }, 'a running job\'s run rejects'),
      t.rejects(waiting as Promise<unknown>, { name: 'WorkPoolError', code: 'HASH_POOL_CLOSED' }, 'a waiting job\'s run rejects')
    ]
    gone = true
    const closing = pool.close()
    // The fake thread blocks as a synchronous hash does; let it reach its end
    jobs.open(first)
    await closing
    await Promise.all(rejections)
    t.equal(await waitingGone, undefined, 'a run whose client has gone resolves undefined: dropped, not an error')
    await t.rejects(admitted?.run([], present) as Promise<unknown>, { code: 'HASH_POOL_CLOSED' }, 'an admission run after close rejects')
    t.equal(pool.threadCount, 0)
    t.equal(pool.depth, 0)
    t.equal(pool.admit(1), undefined, 'nothing admitted once closed (BUSY)')
    await pool.close()
    t.pass('closing twice is harmless')
  })
})

t.test('every hash is observed once, by algorithm', async (t) => {
  const observed: Array<[PoolAlgorithm, number]> = []
  const pool = fakePool(t, { concurrency: 2, queue: 3, observe: (algorithm, seconds) => observed.push([algorithm, seconds]) })
  const jobs = new Jobs()
  await pool.admit(3)?.run([jobs.job({ gated: false, seconds: 0.5 }), jobs.job({ gated: false, seconds: 0.5 }), jobs.job({ gated: false, seconds: 0.5 })], present)
  await pool.admit(1)?.run([jobs.job({ gated: false, behaviour: 'fail' })], present).catch(() => {})
  t.same(observed, [['mosquitto', 0.5], ['mosquitto', 0.5], ['mosquitto', 0.5]], 'hashes made, not failures')
})

t.test('a real hash on the service\'s own thread, at the lowest priority', async (t) => {
  const pool = new WorkPool({ concurrency: 1, queue: 0 })
  t.teardown(() => pool.close())
  const settings = { algorithm: 'sha512-crypt', rounds: 5000 } as const
  const salt = Buffer.from('abcdefghijklmnop', 'latin1')
  // openssl passwd -6 -salt abcdefghijklmnop pw0
  t.same(await pool.admit(1)?.run([{ settings, value: 'pw0', salt }], present),
    ['$6$abcdefghijklmnop$TBcE8Amz0e7/4zFDFWo.WqmCztB83BXw8UOOkl3KrexL.9ccWCOcD2m.3Dz2mTCfQln4Vqe2WX/EWXYu9h3j./'])
  t.equal(pool.threadCount, 1)

  if (process.platform === 'linux') {
    // Field 19 of /proc/<pid>/task/<tid>/stat (after the parenthesised name): the thread's nice value
    const nices = readdirSync('/proc/self/task').map((tid) => {
      try {
        return Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[16])
      } catch {
        return undefined
      }
    })
    t.ok(nices.includes(19), `a thread at nice 19 (the hashing thread) among ${JSON.stringify(nices)}`)
  }

  const unknown = { settings: { algorithm: 'md5' } as unknown as HashJob['settings'], value: 'pw1', salt }
  await t.rejects(pool.admit(1)?.run([unknown], present) as Promise<unknown>, { code: 'HASH_FAILED' }, 'an algorithm it does not know is an error, never a hash')
})
