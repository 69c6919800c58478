// How the apps' readers are asked (CONTRACT §14.4): each is a program or library no one here wrote,
// run as a child process that reads one JSON request on stdin and writes one JSON answer on
// stdout. Values travel only in that JSON, never spliced into a script's source. A reader's
// refusal is an answer ({ ok: false, error }), caught in the script by the reader's own exception
// types only; anything else (a missing module, a syntax error, a crash) exits non-zero and throws
// here, so a broken harness can never pass for "the reader refused the bad value".
import { spawnSync } from 'node:child_process'
import type { Test } from 'tap'
import { DEBIAN_PYTHON } from '../hash-readers.js'

export { DEBIAN_PYTHON }

/** What a reader said of a value: what it gave back, or its refusal in its own words. */
export type Verdict<T> = ({ ok: true } & T) | { ok: false, error: string }

/** A reader and how to tell it is installed. */
export interface Reader {
  name: string
  /** The Debian packages .ci/run installs for it. */
  packages: string
  /** A command that exits 0 when the reader can run. */
  probe: readonly [string, ...string[]]
}

/** The JSON `command args` answers to `input` on stdin; throws when it does not exit 0. */
export function askJson<T> (reader: string, command: string, args: readonly string[], input: unknown, env?: NodeJS.ProcessEnv): T {
  const run = spawnSync(command, args, { input: JSON.stringify(input), encoding: 'utf8', env, maxBuffer: 16 * 1024 * 1024 })
  if (run.error !== undefined) throw new Error(`${reader} could not be run: ${run.error.message}`)
  if (run.status !== 0) throw new Error(`${reader} failed (exit ${run.status}): ${run.stderr}`)
  return JSON.parse(run.stdout) as T
}

const known = new Map<string, boolean>()

/**
 * Whether `reader` can run. When it cannot, the test fails under CI=true (.ci/run installs its
 * packages, so a missing reader there is a broken CI) and is skipped with a message elsewhere,
 * as test/tools.ts's hasTool does for commands.
 */
export function hasReader (t: Pick<Test, 'fail' | 'pass'>, reader: Reader): boolean {
  let present = known.get(reader.name)
  if (present === undefined) {
    const [command, ...args] = reader.probe
    present = spawnSync(command, args, { stdio: 'ignore' }).status === 0
    known.set(reader.name, present)
  }
  if (present) return true
  if (process.env.CI === 'true') t.fail(`${reader.name} is missing under CI=true: .ci/run must install ${reader.packages}`)
  else t.pass(`${reader.name} checks`, { skip: `${reader.name} is not installed: apt-get install ${reader.packages} to run these checks` })
  return false
}
