// CONTRACT §12.1: the request path's side of the work pool (src/work-pool/pool.ts). Admission
// first (503 BUSY with Retry-After, before anything is drawn), then the jobs on the pool's threads
// while the event loop serves everyone else; a client that has gone before its jobs start gets
// none made, and one still waiting at its connection's idle timeout is answered 503 BUSY.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { WorkPoolError, type Admission } from '../work-pool/pool.js'
import type { PoolJob } from '../work-pool/job.js'
import { ProblemError } from './errors.js'

/**
 * `count` jobs admitted to the pool, or 503 BUSY with Retry-After (on `reply` when there is one:
 * the error handler keeps the headers set before it).
 */
export function admitToPool (app: FastifyInstance, count: number, reply?: FastifyReply): Admission {
  const admission = app.workPool.admit(count)
  if (admission !== undefined) return admission
  throw busy(app, reply)
}

/** 503 BUSY, with Retry-After from the queue's expected wait. */
function busy (app: FastifyInstance, reply: FastifyReply | undefined, log: Record<string, string> = {}): ProblemError {
  reply?.header('retry-after', String(app.workPool.retryAfterSeconds()))
  return new ProblemError(503, 'BUSY', 'BUSY', {}, log)
}

/**
 * The admitted jobs' results (undefined when the client has gone before they started). Node closes
 * a connection idle for the server's connection timeout (src/server-options.ts), a request waiting
 * for its hashes included, unless its response listens to 'timeout': a request whose hashes are
 * not done by then (threads starved of CPU by other work on the host) is answered 503 BUSY then,
 * as one that did not fit, instead of losing its connection with no answer. Its waiting jobs are
 * dropped; a running one ends unread.
 */
export async function runAdmitted (app: FastifyInstance, admission: Admission, jobs: PoolJob[], reply?: FastifyReply): Promise<string[] | undefined> {
  const abandon = new AbortController()
  const timedOut = (): void => { abandon.abort() }
  reply?.raw.once('timeout', timedOut)
  try {
    return await admission.run(jobs, clientGone(reply), abandon.signal)
  } catch (error) {
    if (error instanceof WorkPoolError && error.code === 'HASH_ABANDONED') throw busy(app, reply, { reason: 'connection timeout' })
    throw error
  } finally {
    reply?.raw.removeListener('timeout', timedOut)
  }
}

/** Whether the client of `reply` has gone: its connection closed before the answer was written. */
function clientGone (reply: FastifyReply | undefined): () => boolean {
  if (reply === undefined) return () => false
  let gone = false
  reply.raw.once('close', () => { gone = !reply.raw.writableFinished })
  return () => gone || reply.raw.destroyed
}

/** Releases an admission whose values were never drawn (a draw that failed): a run of no jobs frees every slot. */
export function dropAdmission (admission: Admission): void {
  admission.run([], () => true).catch(() => {})
}

/** CONTRACT §13: values made on the pool itself (RSA keys, ES384 keys): the jobs, and the answer made from their results. */
export interface PooledWork<G> {
  jobs: PoolJob[]
  finish: (results: string[]) => G
  /** How many of the values count toward a set's bound on them (RSA keys: at most 5 a set). */
  bounded: number
}

/**
 * Values made on the pool: the rules first (400), then the admission (503 BUSY), then the jobs;
 * undefined when the client went away before they started.
 */
export async function pooledDraw<G> (app: FastifyInstance, check: () => void, work: PooledWork<G>, reply?: FastifyReply): Promise<G | undefined> {
  check()
  const admission = admitToPool(app, work.jobs.length, reply)
  const results = await runAdmitted(app, admission, work.jobs, reply)
  return results === undefined ? undefined : work.finish(results)
}
