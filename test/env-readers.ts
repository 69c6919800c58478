// CONTRACT §10's readers of the `.env` answer, each asked to give back every value of a file:
// POSIX sh (`set -a; . ./.env`) under dash and bash, dotenv (npm), Node's util.parseEnv and
// `node --env-file`, python-dotenv (Debian's python3-dotenv, with interpolate=False) and godotenv
// (Debian's golang-github-joho-godotenv-dev, built with golang-go; Docker Compose's reader derives
// from it). Shared by the sets' test (test/plugins/sets-env-readers.test.ts) and the catalog's
// (test/recipes/catalog.test.ts). .ci/run installs dash, python3-dotenv, golang-go and godotenv;
// without CI=true a missing one is a stated skip.
import type { Test } from 'tap'
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv, promisify } from 'node:util'
import dotenv from 'dotenv'

/** Debian's Python, where python3-dotenv is (the `python3` on PATH may be another one). */
const PYTHON = '/usr/bin/python3'
const GODOTENV_SOURCE = '/usr/share/gocode/src/github.com/joho/godotenv'
const execFileAsync = promisify(execFile)

/** The lines as the contract writes them: `NAME='value'`, nothing else; what every reader must give back. */
export function envValues (text: string): Map<string, string> {
  const values = new Map<string, string>()
  if (!text.endsWith('\n')) throw new Error('a .env answer ends in a line feed')
  for (const line of text.split('\n').slice(0, -1)) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)='([^'\\\p{Cc}]*)'$/u.exec(line)
    if (match === null) throw new Error(`not a .env line: ${line}`)
    values.set(match[1] as string, match[2] as string)
  }
  return values
}

function installed (command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Under CI a missing reader fails the run (.ci/run installs it); elsewhere it is a stated skip. */
export function readerMissing (t: Test, reader: string, install: string): void {
  if (process.env.CI === 'true') t.fail(`${reader} is missing under CI=true: .ci/run must install ${install}`)
  else t.pass(`${reader} reads the .env back`, { skip: `${reader} is not installed: apt-get install ${install} to run this check` })
}

/** Whether Debian's python-dotenv can be run (else the stated skip, or a failure under CI). */
export function hasPythonDotenv (t: Test): boolean {
  if (existsSync(PYTHON) && installed(PYTHON, ['-c', 'import dotenv'])) return true
  readerMissing(t, 'python-dotenv', 'python3-dotenv')
  return false
}

/** What python-dotenv's dotenv_values reads in each of `files`. */
export function pythonDotenvValues (files: readonly string[], interpolate: boolean): Array<Record<string, string>> {
  return JSON.parse(execFileSync(PYTHON, ['-c',
    `import json, sys\nfrom dotenv import dotenv_values\nprint(json.dumps([dotenv_values(path, interpolate=${interpolate ? 'True' : 'False'}) for path in sys.argv[1:]]))`, ...files]).toString('utf8'))
}

export interface EnvFile {
  /** What the assertions call the file (`supabase`, `.env`). */
  label: string
  /** The `.env` answer, exactly as the service wrote it. */
  text: string
}

/**
 * Each file read back by every reader of §10, in a subtest per reader: every value of
 * `envValues(text)` must come back byte for byte, and nothing be missing.
 */
export async function readBackByEveryReader (t: Test, files: readonly EnvFile[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'randgen-env-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const written = await Promise.all(files.map(async ({ label, text }, index) => {
    const path = join(dir, `${index}.env`)
    await writeFile(path, text)
    return { label, text, path, expected: envValues(text) }
  }))

  const same = (t: Test, reader: string, label: string, expected: Map<string, string>, read: Record<string, string | undefined>) => {
    for (const [name, value] of expected) t.equal(read[name], value, `${reader}: ${label} ${name}`)
  }

  // Each reader is started once for all the files (a process per file costs seconds on a busy machine)
  for (const shell of ['dash', 'bash']) {
    await t.test(`sh: ${shell} (set -a; . ./.env)`, async (t) => {
      if (!installed(shell, ['-c', 'true'])) return readerMissing(t, shell, shell)
      // Each file in a subshell of its own, its values printed back with printf, NUL-separated, in
      // a clean environment; the paths are the script's arguments, never spliced into it
      const script = written.map(({ expected }) =>
        `(set -a; . "$1"; for name in ${[...expected.keys()].join(' ')}; do eval "printf '%s\\0' \\"\\$$name\\""; done); shift`).join('\n')
      const printed = execFileSync(shell, ['-c', script, shell, ...written.map(({ path }) => path)], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }).toString('utf8').split('\0')
      let next = 0
      for (const { label, expected } of written) {
        const names = [...expected.keys()]
        same(t, shell, label, expected, Object.fromEntries(names.map((name, index) => [name, printed[next + index]])))
        next += names.length
      }
      t.equal(printed.length, next + 1, `${shell}: nothing more printed`)
    })
  }

  await t.test('dotenv (npm)', async (t) => {
    for (const { label, text, expected } of written) same(t, 'dotenv', label, expected, dotenv.parse(Buffer.from(text, 'utf8')))
  })

  await t.test('Node\'s util.parseEnv and node --env-file', async (t) => {
    for (const { label, text, expected } of written) same(t, 'util.parseEnv', label, expected, parseEnv(text))
    // The whole of --env-file: a child's environment, read from the file (no variable of these
    // names set); a child per file, since the files share names, started together
    const printed = await Promise.all(written.map(async ({ path, expected }) => {
      const script = `process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify([...expected.keys()])}.map((n) => [n, process.env[n]]))))`
      return JSON.parse((await execFileAsync(process.execPath, [`--env-file=${path}`, '-e', script], { env: { PATH: process.env.PATH } })).stdout)
    }))
    written.forEach(({ label, expected }, index) => same(t, 'node --env-file', label, expected, printed[index]))
  })

  await t.test('python-dotenv (Debian python3-dotenv), interpolate=False', async (t) => {
    if (!hasPythonDotenv(t)) return
    const read = pythonDotenvValues(written.map(({ path }) => path), false)
    written.forEach(({ label, expected }, index) => same(t, 'python-dotenv', label, expected, read[index] as Record<string, string>))
  })

  await t.test('godotenv (Debian golang-github-joho-godotenv-dev)', async (t) => {
    if (!installed('go', ['version']) || !existsSync(GODOTENV_SOURCE)) return readerMissing(t, 'godotenv', 'golang-go golang-github-joho-godotenv-dev')
    const source = join(dir, 'godotenv-src')
    await mkdir(source)
    await writeFile(join(source, 'main.go'), [
      'package main',
      'import ("encoding/json"; "os"; "github.com/joho/godotenv")',
      'func main() { all := []map[string]string{}; for _, path := range os.Args[1:] { values, err := godotenv.Read(path); if err != nil { panic(err) }; all = append(all, values) }; json.NewEncoder(os.Stdout).Encode(all) }',
      ''
    ].join('\n'))
    // Debian's Go sources, outside modules: GOPATH mode reads /usr/share/gocode, nothing is downloaded
    const program = join(dir, 'godotenv-reader')
    const started = Date.now()
    execFileSync('go', ['build', '-o', program, join(source, 'main.go')], {
      cwd: source,
      env: { PATH: process.env.PATH, HOME: dir, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOCACHE: join(dir, 'go-cache'), GOFLAGS: '', CGO_ENABLED: '0' }
    })
    t.comment(`godotenv reader built in ${Date.now() - started} ms`)
    const read = JSON.parse(execFileSync(program, written.map(({ path }) => path)).toString('utf8')) as Array<Record<string, string>>
    written.forEach(({ label, expected }, index) => same(t, 'godotenv', label, expected, read[index] as Record<string, string>))
  })
}
