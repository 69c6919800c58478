// The real tools randgen's keys must satisfy (ssh-keygen, age, age-keygen), installed by .ci/run.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { Test } from 'tap'

type Reporter = Pick<Test, 'fail' | 'pass' | 'teardown'>

/**
 * Whether `command` can be run. When it cannot, the test fails under CI=true (.ci/run installs
 * Debian's `pkg`, so a missing tool there is a broken CI) and is skipped with a message elsewhere.
 */
export function hasTool (t: Reporter, command: string, pkg: string): boolean {
  if (spawnSync(command, ['--help'], { stdio: 'ignore' }).error === undefined) return true
  if (process.env.CI === 'true') t.fail(`${command} is missing under CI=true: .ci/run must install ${pkg}`)
  else t.pass(`${command} checks`, { skip: `${command} is not installed: apt-get install ${pkg} to run these checks` })
  return false
}

/** A fresh directory, removed when the test ends. */
export function temporaryDirectory (t: Reporter): string {
  const directory = mkdtempSync(join(tmpdir(), 'randgen-keys-'))
  t.teardown(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** A loopback TCP port nothing listens on now (for a server a test starts: nginx, PostgreSQL, Mosquitto). */
export async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no TCP port')
  return address.port
}
