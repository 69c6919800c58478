// CONTRACT §12.1: a thread of the work pool (src/work-pool/pool.ts). Each message is one job, a
// password hash (src/hashing/) or signing keys (src/keys/); the thread makes it with the
// synchronous primitive and answers the result and the seconds it took, or an error message
// (never the value, never a hash). Bundled on its own as dist/pool-thread.js (scripts/build.ts).
import { setPriority } from 'node:os'
import { performance } from 'node:perf_hooks'
import { parentPort } from 'node:worker_threads'
import { computeHash } from '../hashing/formats/index.js'
import type { PoolJob } from './job.js'
import { rsaSigningKey, signingKeys } from '../keys/signing-keys.js'
import type { WorkerReply } from './pool.js'

// The lowest CPU priority, for this thread alone (on Linux setpriority(PRIO_PROCESS, 0) applies to
// the calling thread, not the process): the kernel then gives the event loop's thread the CPU
// whenever it wants it, and hashes use what is left. Measured on the 2-core machine, Node 26, two
// Argon2id hashes (m=65540, t=5, p=4) kept in flight under load: `crypto.argon2` on libuv's threads
// (normal priority) let the event loop's delay reach 9.4 ms at p99 and a trivial route 18.7k req/s;
// two threads like this one, 2.5 ms and 33.6k req/s (idle: 1.5 ms, 68k req/s). Some platforms
// refuse (a sandbox, a policy): the thread then hashes at normal priority, still off the event loop.
try {
  setPriority(19)
} catch {}

/** The error's message, unless it holds the value (a primitive's message is not ours to vouch for). */
function safeMessage (error: unknown, job: PoolJob): string {
  const message = error instanceof Error ? error.message : 'unknown error'
  return job.value !== '' && message.includes(job.value) ? 'the primitive failed' : message
}

const port = parentPort
if (port === null) throw new Error('src/work-pool/thread.ts runs as a thread of the work pool (src/work-pool/pool.ts)')

/** A hash, or (CONTRACT §13) signing keys as JSON `{ values, publicKeys }`. */
function make (job: PoolJob): unknown {
  const { settings } = job
  if (settings.algorithm !== 'signing-keys') return computeHash({ ...job, settings })
  const { jws, modulusBits = 2048, format, quantity } = settings
  if (jws === 'ES384') return JSON.stringify(signingKeys({ algorithm: jws, format, quantity }))
  const pairs = Array.from({ length: quantity }, () => rsaSigningKey(modulusBits, jws, format))
  return JSON.stringify({ values: pairs.map(({ value }) => value), publicKeys: pairs.map(({ publicKey }) => publicKey) })
}

port.on('message', (job: PoolJob) => {
  let reply: WorkerReply
  const started = performance.now()
  try {
    const hash: unknown = make(job)
    // An algorithm computeHash does not know gives nothing; never answered as a hash
    reply = typeof hash === 'string' ? { hash, seconds: (performance.now() - started) / 1000 } : { error: 'no such algorithm' }
  } catch (error) {
    reply = { error: safeMessage(error, job) }
  }
  port.postMessage(reply)
})
