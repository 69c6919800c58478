// CONTRACT §12.1: the bounded pool that does the work too costly for the event loop (password
// hashes, §12; RSA and ES384 signing keys, §13), so that it never stalls the service. Below, a
// "hash" is any job: the settings (HASH_CONCURRENCY, HASH_QUEUE) and metrics keep the name §12.1 gave them.
//
// - At most `concurrency` hashes run at once (HASH_CONCURRENCY), each on a pool thread of our
//   own (src/work-pool/thread.ts) that runs at the lowest CPU priority and calls the synchronous
//   primitive, one job at a time. Measured on the 2-core machine (Node 26, two Argon2id hashes at
//   the upper bounds kept in flight under load): through `crypto.argon2` (libuv's threads, normal
//   priority) the event loop's delay reached 9.4 ms at p99 and a trivial route 18.7k req/s; through
//   two such threads 2.5 ms and 33.6k req/s (idle: 1.5 ms, 68k req/s).
// - At most `queue` more wait (HASH_QUEUE), first in, first out. A request's hashes (up to 5) are
//   admitted all together or not at all (`admit`), before anything is drawn: a refused request is
//   answered 503 BUSY with Retry-After from the queue's expected wait (`retryAfterSeconds`).
// - Before a job starts, its request's `gone()` is asked: a client that has gone gets that job and
//   its request's remaining jobs dropped without hashing, their slots freed.
// - A run given up through its `abandon` signal (its connection's idle timeout: the threads got
//   little CPU, other work on the host having a higher priority) is rejected then with
//   HASH_ABANDONED, its waiting jobs dropped, so that its request is answered 503 BUSY where the
//   timeout would have closed its socket with no answer at all (src/http/pooled-work.ts).
// - Threads start on first use, up to `concurrency`, and end after IDLE_MILLISECONDS without work
//   (unref'd timers): an idle process holds none, so idle memory and start-up are as before.
//   A thread that dies is replaced by the next job that needs one.
//
// Not piscina (STYLE.md asks): (a) the service ships as one esbuild bundle, and piscina's threads
// first load a file of its own from its package (node_modules), which the bundle does not carry;
// (b) a request's hashes are admitted all or nothing, with a Retry-After from the queue's expected
// wait, which piscina's per-task `maxQueue` does not express. What is left is this small module.
import { Worker } from 'node:worker_threads'
import type { PoolAlgorithm, PoolJob } from './job.js'

/** A pool thread ends after this long without work (ms). */
export const IDLE_MILLISECONDS = 30_000
/**
 * Seconds per hash assumed for Retry-After until hashes are measured: a bcrypt hash at its default
 * cost (12), between the defaults' tens of milliseconds and the upper bounds' second.
 */
export const INITIAL_SECONDS_PER_HASH = 0.25
/** Weight of the newest hash in the mean seconds per hash (an exponentially weighted mean). */
const MEAN_WEIGHT = 0.2
/** A running hash this many times slower than the mean means the threads are starved of CPU (retryAfterSeconds). */
const STARVED = 8

/** What a pool thread answers for one job (src/work-pool/thread.ts): never the value, nor a hash in an error. */
export type WorkerReply = { hash: string, seconds: number } | { error: string }

export interface WorkPoolOptions {
  /** HASH_CONCURRENCY: hashes running at once. */
  concurrency: number
  /** HASH_QUEUE: hashes admitted to wait beyond those. */
  queue: number
  /** Called once per hash made, with its algorithm and seconds (metrics); absent: not counted. */
  observe?: (algorithm: PoolAlgorithm, seconds: number) => void
  /**
   * The pool thread's module; by default the service's own: src/work-pool/thread.ts from source,
   * dist/pool-thread.js beside the bundle. Tests name a fake one (test/src/work-pool/).
   */
  worker?: URL
  /** A thread ends after this many milliseconds without work (IDLE_MILLISECONDS). */
  idleMilliseconds?: number
}

/** The hashes of one request, admitted together (WorkPool.admit). */
export interface Admission {
  /**
   * Hashes `jobs` (exactly as many as admitted), each on a pool thread; resolves their hashes
   * in the jobs' order, or `undefined` when `gone()` was true as a job's turn came (the rest are
   * then dropped without hashing). Every slot is released when its job ends or is dropped.
   * Rejects when a job fails (its thread's error message, never the value), when the pool is
   * closed before the jobs are done, and when `abandon` is aborted first (HASH_ABANDONED); the
   * request's jobs not yet started are then dropped, its running ones end unread. Fewer
   * jobs than admitted release the others' slots; called once.
   */
  run: (jobs: PoolJob[], gone: () => boolean, abandon?: AbortSignal) => Promise<string[] | undefined>
}

/** Why a run was rejected: a job failed, its thread died, the pool closed, or the run was abandoned. Never holds a value or a hash. */
export class WorkPoolError extends Error {
  constructor (message: string, readonly code: 'HASH_FAILED' | 'HASH_THREAD_DIED' | 'HASH_POOL_CLOSED' | 'HASH_ABANDONED') {
    super(message)
    this.name = 'WorkPoolError'
  }
}

/** One request's jobs in the pool. */
interface Batch {
  jobs: PoolJob[]
  hashes: string[]
  gone: () => boolean
  /** Its jobs still in the queue. */
  queued: number
  /** Its jobs not yet ended (queued or running). */
  left: number
  settled: boolean
  /** Stops listening to the run's `abandon` signal; called when the batch settles. */
  unlisten: () => void
  resolve: (hashes: string[] | undefined) => void
  reject: (error: Error) => void
}

interface Task { batch: Batch, index: number }

interface Thread {
  worker: Worker
  /** The job it runs; undefined while idle. */
  task: Task | undefined
  /** When it started that job (performance.now()). */
  startedAt: number
  idleTimer: NodeJS.Timeout | undefined
}

/** The service's own pool thread: beside this module from source, beside the bundle in dist/. */
function defaultWorkerUrl (): URL {
  return import.meta.url.endsWith('.ts') ? new URL('./thread.ts', import.meta.url) : new URL('./pool-thread.js', import.meta.url)
}

/**
 * A thread running `url`. A TypeScript module (from source, under tsx) starts through a small
 * evaluated script that registers tsx first: Node 20's threads do not inherit the parent's loader
 * hooks (Node 26's do; registering again is harmless there).
 */
function startWorker (url: URL): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { name: 'randgen-pool' })
  const tsx = import.meta.resolve('tsx/esm/api')
  const script = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(script, { eval: true, name: 'randgen-pool' })
}

export class WorkPool {
  readonly concurrency: number
  readonly queue: number
  private readonly observe: ((algorithm: PoolAlgorithm, seconds: number) => void) | undefined
  private readonly workerUrl: URL
  private readonly idleMilliseconds: number
  /** Slots held: hashes admitted and not yet ended or dropped. */
  private admitted = 0
  private runningJobs = 0
  /** Jobs of runs in order of arrival; a job leaves it when it starts or is dropped. */
  private waitingTasks: Task[] = []
  private readonly threads = new Set<Thread>()
  /** Idle threads, the most recently used last (taken first, so the others can time out). */
  private idle: Thread[] = []
  private meanSeconds = INITIAL_SECONDS_PER_HASH
  private closed = false

  constructor (options: WorkPoolOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError('concurrency must be an integer >= 1')
    if (!Number.isInteger(options.queue) || options.queue < 0) throw new RangeError('queue must be an integer >= 0')
    this.concurrency = options.concurrency
    this.queue = options.queue
    this.observe = options.observe
    this.workerUrl = options.worker ?? defaultWorkerUrl()
    this.idleMilliseconds = options.idleMilliseconds ?? IDLE_MILLISECONDS
  }

  /** `count` hashes admitted together, or undefined when they do not all fit (503 BUSY), or the pool is closed. */
  admit (count: number): Admission | undefined {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be an integer >= 0')
    if (this.closed) return undefined
    if (!this.fits(count)) {
      // Slots held by clients that have already gone are freed before anyone is refused
      this.dropGone()
      if (!this.fits(count)) return undefined
    }
    this.admitted += count
    let used = false
    return {
      run: async (jobs, gone, abandon) => {
        if (used) throw new Error('an admission runs once')
        used = true
        return await this.run(count, jobs, gone, abandon)
      }
    }
  }

  /**
   * Whole seconds a refused request should wait (Retry-After): at least 1, the queue's expected
   * wait, i.e. the hashes waiting shared among the threads, times the seconds per hash: the mean
   * (exponentially weighted over every algorithm: the queue holds a mix, and an admitted request's
   * algorithm is not known until it runs). But a running hash that has already taken STARVED times
   * the mean says the threads get little CPU (other work on the host), and the mean, which only
   * finished hashes update, would say a few seconds: its time so far stands in for the mean then.
   * (An RSA key's time varies ~7-fold from key to key, so a smaller factor would misread one slow key.)
   */
  retryAfterSeconds (): number {
    const now = performance.now()
    let secondsPerHash = this.meanSeconds
    for (const { task, startedAt } of this.threads) {
      const seconds = (now - startedAt) / 1000
      if (task !== undefined && seconds > STARVED * this.meanSeconds) secondsPerHash = Math.max(secondsPerHash, seconds)
    }
    return Math.max(1, Math.ceil(this.waiting / this.concurrency * secondsPerHash))
  }

  /** Hashes admitted and not yet done (running and waiting): the queue-depth gauge reads it. */
  get depth (): number {
    return this.admitted
  }

  /** Hashes running now (at most `concurrency`). */
  get running (): number {
    return this.runningJobs
  }

  /** Hashes admitted and not running: in the queue, or admitted and not yet handed to `run`. */
  get waiting (): number {
    return this.admitted - this.runningJobs
  }

  /** Hashing threads alive (running or idle). */
  get threadCount (): number {
    return this.threads.size
  }

  /**
   * Stops the pool threads (the app's onClose, which Fastify runs once the requests in flight
   * are answered). Runs not yet done reject with WorkPoolError HASH_POOL_CLOSED, so nothing waits
   * forever nor is answered as if its client had gone; those whose client has gone (what is left
   * when the server closes with a queue, their sockets closed) resolve undefined, as they would
   * at their turn: no error logged for answers nobody reads. admit answers undefined (BUSY) from now on.
   */
  async close (): Promise<void> {
    if (this.closed) return
    this.closed = true
    const closedError = new WorkPoolError('the hashing pool is closed', 'HASH_POOL_CLOSED')
    for (const thread of this.threads) {
      clearTimeout(thread.idleTimer)
      const task = thread.task
      if (task === undefined) continue
      thread.task = undefined
      this.runningJobs--
      this.release(1)
      this.settle(task.batch, task.batch.gone() ? undefined : closedError)
    }
    for (const { batch } of this.waitingTasks) this.settle(batch, batch.gone() ? undefined : closedError)
    const threads = [...this.threads]
    this.threads.clear()
    this.idle = []
    await Promise.all(threads.map(async ({ worker }) => await worker.terminate()))
  }

  private fits (count: number): boolean {
    return this.admitted + count <= this.concurrency + this.queue
  }

  private release (count: number): void {
    this.admitted -= count
  }

  private async run (count: number, jobs: PoolJob[], gone: () => boolean, abandon?: AbortSignal): Promise<string[] | undefined> {
    if (jobs.length > count) {
      this.release(count)
      throw new RangeError(`${jobs.length} jobs for ${count} admitted hashes`)
    }
    this.release(count - jobs.length)
    if (this.closed) {
      this.release(jobs.length)
      throw new WorkPoolError('the hashing pool is closed', 'HASH_POOL_CLOSED')
    }
    if (jobs.length === 0) return []
    if (gone()) {
      this.release(jobs.length)
      return undefined
    }
    return await new Promise((resolve, reject) => {
      const batch: Batch = { jobs, hashes: new Array<string>(jobs.length), gone, queued: jobs.length, left: jobs.length, settled: false, unlisten: () => {}, resolve, reject }
      const abandoned = (): void => this.settle(batch, new WorkPoolError('the run was abandoned before its hashes were done', 'HASH_ABANDONED'))
      for (let index = 0; index < jobs.length; index++) this.waitingTasks.push({ batch, index })
      if (abandon?.aborted === true) return abandoned()
      if (abandon !== undefined) {
        abandon.addEventListener('abort', abandoned, { once: true })
        batch.unlisten = () => abandon.removeEventListener('abort', abandoned)
      }
      this.pump()
    })
  }

  /** Starts waiting jobs, first come first, while fewer than `concurrency` run. */
  private pump (): void {
    while (!this.closed && this.runningJobs < this.concurrency) {
      const task = this.waitingTasks.shift()
      if (task === undefined) return
      const { batch } = task
      // A batch leaves the queue whole when it settles, so a task here belongs to a live batch
      batch.queued--
      if (batch.gone()) {
        this.release(1)
        this.settle(batch)
        continue
      }
      this.start(task)
    }
  }

  /**
   * Ends `batch` once: resolves undefined (its client has gone) or rejects with `error`; its jobs
   * still waiting leave the queue unhashed and free their slots. Its running jobs end on their
   * own and free theirs then.
   */
  private settle (batch: Batch, error?: Error): void {
    if (batch.settled) return
    batch.settled = true
    batch.unlisten()
    if (batch.queued > 0) {
      this.waitingTasks = this.waitingTasks.filter((task) => task.batch !== batch)
      this.release(batch.queued)
      batch.queued = 0
    }
    if (error === undefined) batch.resolve(undefined)
    else batch.reject(error)
  }

  /** Drops the waiting jobs of every request whose client has gone. */
  private dropGone (): void {
    const batches = new Set(this.waitingTasks.map((task) => task.batch))
    for (const batch of batches) if (batch.gone()) this.settle(batch)
  }

  private start (task: Task): void {
    const thread = this.idle.pop() ?? this.spawn()
    clearTimeout(thread.idleTimer)
    thread.idleTimer = undefined
    thread.task = task
    thread.startedAt = performance.now()
    this.runningJobs++
    // Held while it hashes (a pending run keeps the process up), let go while idle
    thread.worker.ref()
    const job = task.batch.jobs[task.index] as PoolJob
    // The salt's own bytes only: a Buffer from Node's shared pool is a view on an 8 KiB slab,
    // which posting would copy whole, others' bytes included
    thread.worker.postMessage({ ...job, salt: Uint8Array.from(job.salt) } satisfies PoolJob)
  }

  private spawn (): Thread {
    const thread: Thread = { worker: startWorker(this.workerUrl), task: undefined, startedAt: 0, idleTimer: undefined }
    this.threads.add(thread)
    let failure: string | undefined
    thread.worker.on('message', (reply: WorkerReply) => this.finish(thread, reply))
    // Without a listener a thread's uncaught error would be thrown on the event loop. Only the
    // error's code is kept: its message is not ours to vouch for
    thread.worker.on('error', (error: Error & { code?: unknown }) => {
      failure = typeof error.code === 'string' ? error.code : 'an uncaught error'
    })
    thread.worker.on('exit', (code) => this.lost(thread, failure ?? `exit code ${code}`))
    return thread
  }

  /** A job's answer: the slot is freed, the thread goes idle, the next job starts. */
  private finish (thread: Thread, reply: WorkerReply): void {
    const task = thread.task
    if (task === undefined) return
    thread.task = undefined
    this.runningJobs--
    this.release(1)
    const { batch, index } = task
    if ('hash' in reply) {
      const algorithm = (batch.jobs[index] as PoolJob).settings.algorithm
      this.meanSeconds += MEAN_WEIGHT * (reply.seconds - this.meanSeconds)
      this.observe?.(algorithm, reply.seconds)
      batch.hashes[index] = reply.hash
      batch.left--
      if (!batch.settled && batch.left === 0) {
        batch.settled = true
        batch.unlisten()
        batch.resolve(batch.hashes)
      }
    } else {
      this.settle(batch, new WorkPoolError(`hashing failed: ${reply.error}`, 'HASH_FAILED'))
    }
    this.rest(thread)
    this.pump()
  }

  /** A thread that is done with its job waits for the next, and ends if none comes in time. */
  private rest (thread: Thread): void {
    if (this.closed || !this.threads.has(thread)) return
    thread.worker.unref()
    this.idle.push(thread)
    thread.idleTimer = setTimeout(() => {
      this.threads.delete(thread)
      this.idle = this.idle.filter((other) => other !== thread)
      thread.worker.terminate().catch(() => {})
    }, this.idleMilliseconds).unref()
  }

  /** A thread that ended on its own (a crash): its job fails, and a new thread takes the next. */
  private lost (thread: Thread, why: string): void {
    // Threads the pool ended itself (idle, close) have already left the set
    if (!this.threads.delete(thread)) return
    clearTimeout(thread.idleTimer)
    this.idle = this.idle.filter((other) => other !== thread)
    const task = thread.task
    if (task === undefined) return
    thread.task = undefined
    this.runningJobs--
    this.release(1)
    this.settle(task.batch, new WorkPoolError(`the hashing thread stopped (${why})`, 'HASH_THREAD_DIED'))
    this.pump()
  }
}
