// Go programs built from Debian's sources in GOPATH mode (golang-go and the -dev packages'
// /usr/share/gocode): no go.mod, nothing downloaded. Each is built once per test process, on first
// use, into a directory removed when the process exits.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Go's build cache is safe to share between concurrent builds; kept across test processes it
// turns a cold build of golang-jwt (~6 s on this machine's 2 cores) into a link (~0.6 s)
const GOCACHE = join(tmpdir(), 'randgen-go-build-cache')

let directory: string | undefined
const built = new Map<string, string>()

/** The path of the program `name` built from `source` (package main), building it the first time. */
export function goProgram (name: string, source: string): string {
  const known = built.get(name)
  if (known !== undefined) return known
  if (directory === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'randgen-readers-'))
    process.once('exit', () => rmSync(made, { recursive: true, force: true }))
    directory = made
  }
  const file = join(directory, `${name}.go`)
  const program = join(directory, name)
  writeFileSync(file, source)
  execFileSync('go', ['build', '-o', program, file], {
    cwd: directory,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: directory,
      GO111MODULE: 'off',
      GOPATH: '/usr/share/gocode',
      GOTOOLCHAIN: 'local',
      GOCACHE,
      GOFLAGS: '',
      CGO_ENABLED: '0'
    }
  })
  built.set(name, program)
  return program
}
