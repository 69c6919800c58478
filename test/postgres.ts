// A throwaway PostgreSQL cluster for the tests that hand it randgen's SCRAM verifiers and log in
// through libpq (test/src/hashing/formats/scram-sha-256.test.ts). Debian's `postgresql` package,
// installed by .ci/run. initdb and postgres refuse to run as root, and the tests run as root here
// and in CI: the cluster then belongs to an unprivileged system user, in a directory it owns.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { freePort } from './tools.js'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'

const DEBIAN_POSTGRESQL = '/usr/lib/postgresql'
/** The superuser, trusted on the cluster's unix socket only. */
const SUPERUSER = 'postgres'

export interface Postgres {
  port: number
  /** Runs `script` as the superuser over the unix socket; its unaligned output, or throws. */
  sql: (script: string) => string
  /** Whether libpq logs `user` in over TCP (SCRAM, pg_hba.conf) with PGPASSWORD=`password`. */
  logsIn: (user: string, password: string) => boolean
}

/** The newest installed server's bin directory, or undefined. */
function binaries (): string | undefined {
  if (!existsSync(DEBIAN_POSTGRESQL)) return undefined
  return readdirSync(DEBIAN_POSTGRESQL)
    .filter((version) => /^\d+$/.test(version) && existsSync(join(DEBIAN_POSTGRESQL, version, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(DEBIAN_POSTGRESQL, version, 'bin'))[0]
}

/** uid and gid of `user`, from id(1). */
function ids (user: string): [number, number] | undefined {
  const uid = spawnSync('id', ['-u', user], { encoding: 'utf8' })
  const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' })
  if (uid.status !== 0 || gid.status !== 0) return undefined
  return [Number(uid.stdout), Number(gid.stdout)]
}

function check (run: SpawnSyncReturns<string>, what: string): string {
  if (run.status !== 0) throw new Error(`${what} failed (${run.status ?? run.signal}): ${run.stderr}${run.error?.message ?? ''}`)
  return run.stdout
}

/**
 * Starts a cluster for this test (SCRAM over TCP on a free loopback port, `password_encryption =
 * scram-sha-256`) and stops it in teardown, however the test ends. Undefined when PostgreSQL is
 * not installed: then the test fails under CI=true (.ci/run installs it) and is skipped elsewhere.
 */
export async function startPostgres (t: Test): Promise<Postgres | undefined> {
  const bin = binaries()
  if (bin === undefined) {
    if (process.env.CI === 'true') t.fail('PostgreSQL is missing under CI=true: .ci/run must install postgresql')
    else t.pass('PostgreSQL checks', { skip: 'PostgreSQL is not installed: apt-get install postgresql to run these checks' })
    return undefined
  }
  // As root, the cluster's commands run as `postgres` (Debian's package makes it), else `nobody`
  const owner = process.getuid?.() === 0 ? (['postgres', 'nobody'].find((user) => ids(user) !== undefined) as string) : undefined
  const as = (command: string, args: string[]): [string, string[]] =>
    owner === undefined ? [command, args] : ['runuser', ['-u', owner, '--', command, ...args]]
  // A bare environment: no PG* variable of the caller's (PGHOST, PGSERVICE, ...) steers psql
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', PGCLIENTENCODING: 'UTF8' }
  const run = (command: string, args: string[], options: { input?: string, env?: NodeJS.ProcessEnv } = {}) => {
    const [file, argv] = as(command, args)
    return spawnSync(file, argv, { encoding: 'utf8', env: options.env ?? env, input: options.input, timeout: 60_000 })
  }

  const directory = mkdtempSync(join(tmpdir(), 'randgen-pg-'))
  const data = join(directory, 'data')
  let started = false
  t.teardown(() => {
    if (started) run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])
    rmSync(directory, { recursive: true, force: true })
  })
  if (owner !== undefined) {
    const [uid, gid] = ids(owner) as [number, number]
    chownSync(directory, uid, gid)
  }

  check(run(join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '-E', 'UTF8', '--locale=C', '--no-sync', '--auth=trust']), 'initdb')
  const port = await freePort()
  writeFileSync(join(data, 'pg_hba.conf'), [
    `local all ${SUPERUSER} trust`,
    'host all all 127.0.0.1/32 scram-sha-256',
    ''
  ].join('\n'))
  appendFileSync(join(data, 'postgresql.conf'), [
    '',
    "listen_addresses = '127.0.0.1'",
    `port = ${port}`,
    `unix_socket_directories = '${directory}'`,
    "password_encryption = 'scram-sha-256'",
    'fsync = off',
    'synchronous_commit = off',
    ''
  ].join('\n'))
  check(run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(directory, 'log'), '-w', '-t', '60', 'start']), 'pg_ctl start')
  started = true

  return {
    port,
    sql: (script) => check(run('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', directory, '-p', String(port), '-U', SUPERUSER, '-d', 'postgres'], { input: script }), 'psql'),
    logsIn: (user, password) => {
      const login = spawnSync('psql', ['-X', '-At', '-w', '-c', 'select 1', `host=127.0.0.1 port=${port} user=${user} dbname=postgres sslmode=disable connect_timeout=10`],
        { encoding: 'utf8', env: { ...env, PGPASSWORD: password }, timeout: 60_000 })
      return login.status === 0 && login.stdout.trim() === '1'
    }
  }
}
