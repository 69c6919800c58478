// CONTRACT §12 and §12.1: values with their hashes. The rules first (400), then the pool's
// admission (503 BUSY, before anything is drawn), then the draw on the event loop as always, then
// the hashes, made on the work pool's threads (src/http/pooled-work.ts) while the event loop serves
// everyone else. A client that has gone before its hashes start gets none made.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { HASH_INPUT_MAX_BYTES, HASHED_VALUES_MAX, type HashSettings } from '../../schemas/hash.js'
import type { HashJob } from '../hashing/hash-job.js'
import { saltFor } from '../hashing/salt.js'
import { admitToPool, dropAdmission, runAdmitted } from './pooled-work.js'
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

/** One job per value, each with its own fresh salt (CONTRACT §12). */
export function hashJobs (settings: HashSettings, values: readonly string[]): HashJob[] {
  return values.map((value) => ({ settings, value, salt: saltFor(settings.algorithm) }))
}

/**
 * The route's values with `hashes`, or undefined when the client went away before they were
 * made (the REST route then answers nothing anyone reads). `reply` is absent for an MCP call.
 */
export async function hashedDraw<G extends Drawn> (context: HashingContext<G>, parameters: unknown, reply?: FastifyReply): Promise<G | undefined> {
  context.check(parameters)
  const settings = context.hashOf(parameters) as HashSettings
  const { quantity } = parameters as { quantity: number }
  const admission = admitToPool(context.app, quantity, reply)
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
