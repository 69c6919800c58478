// On Node 20.20 (OpenSSL 3.0), KeyObject.export({ format: 'jwk' }) of generated keys deadlocks
// its thread after about 2,000 EC or Ed25519 keys (a few hundred RSA keys); the module reads JWK
// members from DER instead (src/keys/der.ts). Thousands of keys, in a child process with a
// timeout: a hang fails this test instead of stalling the suite.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Generous: ~15,000 keys take 5 to 15 s on Node 20 on a busy 2-core machine, a hang forever. */
const TIMEOUT_MILLISECONDS = 150_000

t.test(`15,000 EC and Ed25519 keys on node ${process.version}: no hang, every scalar full length, no repeats`, async (t) => {
  const fixture = fileURLToPath(new URL('./many-signing-keys.ts', import.meta.url))
  const run = spawnSync(process.execPath, ['--import', 'tsx', fixture], { encoding: 'utf8', timeout: TIMEOUT_MILLISECONDS, killSignal: 'SIGKILL' })
  t.equal(run.signal, null, `not killed after ${TIMEOUT_MILLISECONDS / 1000} s (a hang)`)
  t.equal(run.status, 0, run.stderr)
  const made = JSON.parse(run.stdout) as Record<string, { keys: number, distinct: number, leadingZero: number, milliseconds: number }>
  t.same(Object.keys(made), ['ES256 jwk', 'EdDSA jwk', 'ES384 jwk', 'ES256 vapid'])
  for (const [name, { keys, distinct, milliseconds }] of Object.entries(made)) {
    t.equal(distinct, keys, `${name}: ${keys} different keys in ${milliseconds} ms`)
  }
  // The fixture checks every scalar's length; scalars with a leading zero byte (1 in 256) among
  // them show that case was met: none in 10,000 EC keys would happen once in 10^16 runs
  const leadingZero = Object.entries(made).filter(([name]) => name !== 'EdDSA jwk').reduce((sum, [, run]) => sum + run.leadingZero, 0)
  t.ok(leadingZero > 0, `${leadingZero} EC scalars with a leading zero byte, all at full length`)
})
