// CONTRACT §12 and §12.1: values with their hashes. The rules first (400), then the pool's
// admission (503 BUSY, before anything is drawn), then the draw on the event loop as always, then
// the hashes, made on the pool's threads (src/hashing/pool.ts) while the event loop serves
// everyone else. A client that has gone before its hashes start gets none made.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { HASH_INPUT_MAX_BYTES, HASHED_VALUES_MAX, type HashSettings } from '../../schemas/hash.js'
import { HashingError, type Admission } from '../hashing/pool.js'
import type { HashJob, PoolJob } from '../hashing/job.js'
import { saltFor } from '../hashing/salt.js'
import { ProblemError } from './errors.js'
import { ParameterError, type FieldProblem } from './parameter-error.js'

/** What a draw gives that hashing reads and completes. */
interface Drawn { values: string[], hashes?: string[] }

/** How a route (or a set's item) draws and checks, for the hashed path. */
export interface HashingContext<G extends Drawn = Drawn> {
  app: FastifyInstance
  /** The generator's rules, hash rules included: throws ParameterError (400) before anything else. */
  check: (parameters: unknown) => void
  draw: (parameters: unknown) => G
  hashOf: (parameters: unknown) => HashSettings | undefined
}

/**
 * `count` hashes admitted to the pool, or 503 BUSY with Retry-After (on `reply` when there is one:
 * the error handler keeps the headers set before it).
 */
export function admitHashes (app: FastifyInstance, count: number, reply?: FastifyReply): Admission {
  const admission = app.hashPool.admit(count)
  if (admission !== undefined) return admission
  throw busy(app, reply)
}

/** 503 BUSY, with Retry-After from the queue's expected wait. */
function busy (app: FastifyInstance, reply: FastifyReply | undefined, log: Record<string, string> = {}): ProblemError {
  reply?.header('retry-after', String(app.hashPool.retryAfterSeconds()))
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
    if (error instanceof HashingError && error.code === 'HASH_ABANDONED') throw busy(app, reply, { reason: 'connection timeout' })
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

/** One job per value, each with its own fresh salt (CONTRACT §12). */
export function hashJobs (settings: HashSettings, values: readonly string[]): HashJob[] {
  return values.map((value) => ({ settings, value, salt: saltFor(settings.algorithm) }))
}

/** Releases an admission whose values were never drawn (a draw that failed): a run of no jobs frees every slot. */
export function dropAdmission (admission: Admission): void {
  admission.run([], () => true).catch(() => {})
}

/**
 * The route's values with `hashes`, or undefined when the client went away before they were
 * made (the REST route then answers nothing anyone reads). `reply` is absent for an MCP call.
 */
export async function hashedDraw<G extends Drawn> (context: HashingContext<G>, parameters: unknown, reply?: FastifyReply): Promise<G | undefined> {
  context.check(parameters)
  const settings = context.hashOf(parameters) as HashSettings
  const { quantity } = parameters as { quantity: number }
  const admission = admitHashes(context.app, quantity, reply)
  let generated: G
  try {
    generated = context.draw(parameters)
  } catch (error) {
    dropAdmission(admission)
    throw error
  }
  const hashes = await runAdmitted(context.app, admission, hashJobs(settings, generated.values), reply)
  if (hashes === undefined) return undefined
  generated.hashes = hashes
  return generated
}

/**
 * CONTRACT §12's rules for a request with `hash`, decided from the parameters before anything is
 * drawn: at most 5 values (TOO_MANY_VALUES at `#/quantity`), and no value that could be longer than
 * its algorithm takes (TOO_LONG_FOR_HASH at `lengthPointer`, the parameter that allows it): bcrypt's
 * 72 bytes, and crypt(3)'s 511 for SHA-512 crypt, which the contract leaves unsaid (a hash no
 * reader can check would be no use). `longestBytes`: the most UTF-8 bytes a value of these parameters can have.
 */
export function hashProblems (settings: HashSettings | undefined, quantity: number, longestBytes: () => number, lengthPointer: string): FieldProblem[] {
  if (settings === undefined) return []
  const problems: FieldProblem[] = []
  const max = HASH_INPUT_MAX_BYTES[settings.algorithm]
  if (max !== undefined && longestBytes() > max) problems.push({ pointer: lengthPointer, code: 'TOO_LONG_FOR_HASH', args: { max } })
  if (quantity > HASHED_VALUES_MAX) problems.push({ pointer: '#/quantity', code: 'TOO_MANY_VALUES', message: 'TOO_MANY_HASHES', args: { max: HASHED_VALUES_MAX } })
  return problems
}

/** Runs a generator's own rules, then adds `more` (the hash rules): one ParameterError with every problem. */
export function checkWith (rules: () => void, more: FieldProblem[]): void {
  let problems: FieldProblem[] = []
  try {
    rules()
  } catch (error) {
    if (!(error instanceof ParameterError)) throw error
    problems = error.problems
  }
  if (problems.length + more.length > 0) throw new ParameterError([...problems, ...more])
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
  const admission = admitHashes(app, work.jobs.length, reply)
  const results = await runAdmitted(app, admission, work.jobs, reply)
  return results === undefined ? undefined : work.finish(results)
}
