// Whether a value matches a hash the service answered, asked of an implementation that is not the
// service's: argon2-cffi (the reference C library), htpasswd (Apache's bcrypt), mkpasswd (glibc's
// crypt), and @noble/hashes' PBKDF2 and HMAC for the SCRAM verifier's and Mosquitto's layouts
// (ASCII values only there: SASLprep leaves printable ASCII as it is). The readers that run the
// formats for real (PostgreSQL, Mosquitto, nginx) are test/src/hashing/*'s.
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pbkdf2 } from '@noble/hashes/pbkdf2.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256, sha512 } from '@noble/hashes/sha2.js'

/** Debian's Python, where python3-argon2 is (the `python3` on PATH may be another one). */
export const DEBIAN_PYTHON = '/usr/bin/python3'

const ARGON2_VERIFY = 'import argon2,json,sys\nfor v,h in json.load(sys.stdin):\n  try: print(argon2.PasswordHasher().verify(h,v))\n  except argon2.exceptions.VerifyMismatchError: print(False)'

/** For each [value, hash]: whether argon2-cffi's PasswordHasher verifies it. */
export function argon2Verifies (pairs: ReadonlyArray<readonly [string, string]>): boolean[] {
  const run = spawnSync(DEBIAN_PYTHON, ['-c', ARGON2_VERIFY], { input: JSON.stringify(pairs), encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`argon2-cffi failed: ${run.stderr}`)
  return run.stdout.trim().split('\n').map((line) => line === 'True')
}

const ARGON2_READ = `
import argon2, json, sys
value, hash = json.load(sys.stdin)
try:
    p = argon2.extract_parameters(hash)
    try:
        verified = argon2.PasswordHasher().verify(hash, value)
    except argon2.exceptions.VerifyMismatchError:
        verified = False
except (argon2.exceptions.InvalidHash, argon2.exceptions.VerificationError) as refused:
    print(json.dumps({'ok': False, 'error': f'{type(refused).__name__}: {refused}'}))
else:
    print(json.dumps({'ok': True, 'verified': verified, 'type': p.type.name, 'version': p.version, 'memoryKiB': p.memory_cost,
                      'iterations': p.time_cost, 'parallelism': p.parallelism, 'saltLength': p.salt_len, 'hashLength': p.hash_len}))
`

export interface Argon2Read {
  /** PasswordHasher().verify(hash, value) accepted it. */
  verified: boolean
  /** argon2.extract_parameters(hash): `ID` for Argon2id. */
  type: string
  version: number
  memoryKiB: number
  iterations: number
  parallelism: number
  saltLength: number
  hashLength: number
}

/** What argon2-cffi reads in `hash` (its parameters) and whether it verifies `value`; or its refusal of the string. */
export function argon2Reads (value: string, hash: string): ({ ok: true } & Argon2Read) | { ok: false, error: string } {
  const run = spawnSync(DEBIAN_PYTHON, ['-c', ARGON2_READ], { input: JSON.stringify([value, hash]), encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`argon2-cffi failed: ${run.stderr}`)
  return JSON.parse(run.stdout)
}

/** Whether `htpasswd -vb` accepts `value` for a file line `user:<hash>` (in `directory`). */
export function htpasswdVerifies (directory: string, value: string, hash: string): boolean {
  const file = join(directory, 'htpasswd')
  writeFileSync(file, `user:${hash}\n`)
  return spawnSync('htpasswd', ['-vb', file, 'user', value], { stdio: 'ignore' }).status === 0
}

/** Whether glibc's crypt, through mkpasswd with the hash's own salt and rounds, writes the same hash. */
export function mkpasswdVerifies (value: string, hash: string): boolean {
  const match = /^\$6\$(?:rounds=(\d+)\$)?([./0-9A-Za-z]{16})\$[./0-9A-Za-z]{86}$/.exec(hash)
  if (match === null) return false
  const rounds = match[1] ?? '5000'
  const run = spawnSync('mkpasswd', ['-m', 'sha-512', '-R', rounds, '-S', match[2] as string, '--stdin'], { input: value, encoding: 'utf8' })
  // mkpasswd writes `rounds=5000` where crypt(3)'s default leaves it out
  return run.status === 0 && run.stdout.trim().replace('$rounds=5000$', '$') === hash
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

/** Whether a SCRAM-SHA-256 verifier is RFC 5802's for the ASCII `value`. */
export function scramVerifies (value: string, verifier: string): boolean {
  const match = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/.exec(verifier)
  if (match === null) return false
  const salted = pbkdf2(sha256, value, Buffer.from(match[2] as string, 'base64'), { c: Number(match[1]), dkLen: 32 })
  const storedKey = sha256(hmac(sha256, salted, Buffer.from('Client Key')))
  const serverKey = hmac(sha256, salted, Buffer.from('Server Key'))
  return b64(storedKey) === match[3] && b64(serverKey) === match[4]
}

/** Whether a Mosquitto `$7$` string is PBKDF2-HMAC-SHA512 of `value`. */
export function mosquittoVerifies (value: string, hash: string): boolean {
  const match = /^\$7\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(hash)
  if (match === null) return false
  const derived = pbkdf2(sha512, value, Buffer.from(match[2] as string, 'base64'), { c: Number(match[1]), dkLen: 64 })
  return b64(derived) === match[3]
}
