// `npm run randomness`: the running service's bytes against Debian's rngtest (FIPS 140-2,
// rng-tools5) and ent, beside the same amount from /dev/urandom as the reference.
// Pulls RANDOMNESS_BYTES (default 4 MiB, at least 2.5 MB) through POST /api/generate/seq
// (byteLength 256, quantity 50, hex) from the service on an ephemeral loopback port.
//
// Gate: FIPS 140-2 tests a 20,000-bit block at a time; a perfect source fails a block with
// probability ~0.0008 (the four tests' false-alarm rates together). With p = max(0.0008,
// /dev/urandom's observed failure rate) and n service blocks, the service fails the gate when its
// failures reach k, the smallest count with P(Binomial(n, p) >= k) <= 1e-6: a false alarm at most
// once in a million runs. ent's figures are printed beside urandom's; entropy below 7.99 bits per
// byte or |serial correlation| above 0.01 also fail (both ~50 standard deviations from random at this size).
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, openSync, readSync, closeSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../test/server-process.js'

const BYTES = Math.max(2_500_000, Number(process.env.RANDOMNESS_BYTES ?? 4 * 1024 * 1024))
const PER_REQUEST = 256 * 50
const CONCURRENCY = 4
const FIPS_BLOCK_FALSE_ALARM = 0.0008
const GATE_ALPHA = 1e-6

interface FipsResult { successes: number, failures: number, tests: Record<string, number> }
interface EntResult { entropy: number, chiSquare: number, mean: number, pi: number, serialCorrelation: number, chiSquarePercent: string }

function need (command: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0) {
    process.stderr.write(`randomness: ${command} is missing (Debian: apt-get install rng-tools5 ent)\n`)
    process.exit(2)
  }
}

function rngtest (file: string): FipsResult {
  // rngtest exits non-zero when a block fails; its report on stderr is what we read
  const run = spawnSync('sh', ['-c', `rngtest < "${file}"`], { encoding: 'utf8' })
  const count = (label: string) => Number(new RegExp(`${label}: (\\d+)`).exec(run.stderr)?.[1] ?? NaN)
  const tests: Record<string, number> = {}
  for (const name of ['Monobit', 'Poker', 'Runs', 'Long run', 'Continuous run']) tests[name] = count(`\\) ${name}`)
  const result = { successes: count('FIPS 140-2 successes'), failures: count('FIPS 140-2 failures'), tests }
  if (Number.isNaN(result.successes) || Number.isNaN(result.failures)) throw new Error(`rngtest output not understood:\n${run.stderr}`)
  return result
}

function ent (file: string): EntResult {
  const terse = execFileSync('ent', ['-t', file], { encoding: 'utf8' }).trim().split('\n')[1]?.split(',') ?? []
  const verbose = execFileSync('ent', [file], { encoding: 'utf8' })
  const percent = /would exceed this value (.*?) percent/.exec(verbose)?.[1] ?? '?'
  const [, , entropy, chiSquare, mean, pi, serialCorrelation] = terse.map(Number)
  return { entropy: entropy as number, chiSquare: chiSquare as number, mean: mean as number, pi: pi as number, serialCorrelation: serialCorrelation as number, chiSquarePercent: percent }
}

function logBinomialPmf (n: number, k: number, p: number): number {
  let logChoose = 0
  for (let i = 1; i <= k; i++) logChoose += Math.log(n - k + i) - Math.log(i)
  return logChoose + k * Math.log(p) + (n - k) * Math.log1p(-p)
}

/** Smallest k with P(Binomial(n, p) >= k) <= alpha. */
export function failureBound (n: number, p: number, alpha: number): number {
  let tail = 1
  for (let k = 0; k <= n; k++) {
    if (tail <= alpha) return k
    tail -= Math.exp(logBinomialPmf(n, k, p))
  }
  return n + 1
}

async function pull (port: number, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let collected = 0
  const requests = Math.ceil(bytes / PER_REQUEST)
  let issued = 0
  const worker = async () => {
    while (issued < requests) {
      issued++
      const response = await fetch(`http://127.0.0.1:${port}/api/generate/seq`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ byteLength: 256, quantity: 50, encoding: 'hex' }),
        signal: AbortSignal.timeout(10_000)
      })
      if (response.status !== 200) throw new Error(`seq answered ${response.status}`)
      const { values } = await response.json() as { values: string[] }
      for (const value of values) {
        const chunk = Buffer.from(value, 'hex')
        if (chunk.length !== 256) throw new Error('seq value is not 256 bytes of hex')
        chunks.push(chunk)
        collected += chunk.length
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return Buffer.concat(chunks, collected).subarray(0, bytes)
}

function urandom (bytes: number): Buffer {
  const buffer = Buffer.alloc(bytes)
  const fd = openSync('/dev/urandom', 'r')
  try {
    for (let read = 0; read < bytes;) read += readSync(fd, buffer, read, bytes - read, null)
  } finally {
    closeSync(fd)
  }
  return buffer
}

need('rngtest')
need('ent')
const started = Date.now()
const server = await startServer({ teardown: () => {} })
const dir = mkdtempSync(join(tmpdir(), 'randgen-randomness-'))
let failed = false
try {
  const serviceFile = join(dir, 'service.bin')
  const urandomFile = join(dir, 'urandom.bin')
  writeFileSync(serviceFile, await pull(server.port, BYTES))
  writeFileSync(urandomFile, urandom(BYTES))
  const pulledMs = Date.now() - started

  const fips = { service: rngtest(serviceFile), urandom: rngtest(urandomFile) }
  const entropy = { service: ent(serviceFile), urandom: ent(urandomFile) }
  const blocks = fips.service.successes + fips.service.failures
  const referenceBlocks = fips.urandom.successes + fips.urandom.failures
  const p = Math.max(FIPS_BLOCK_FALSE_ALARM, fips.urandom.failures / referenceBlocks)
  const bound = failureBound(blocks, p, GATE_ALPHA)

  const row = (name: string, service: unknown, reference: unknown) => `| ${name} | ${String(service)} | ${String(reference)} |`
  const lines = [
    `randomness: ${BYTES} bytes each (service via POST /api/generate/seq, pulled in ${pulledMs} ms)`,
    '',
    '| | service | /dev/urandom |',
    '|---|---|---|',
    row('FIPS 140-2 blocks', blocks, referenceBlocks),
    row('FIPS 140-2 failures', fips.service.failures, fips.urandom.failures),
    ...Object.keys(fips.service.tests).map((name) => row(`  ${name}`, fips.service.tests[name], fips.urandom.tests[name])),
    row('ent entropy (bits/byte)', entropy.service.entropy, entropy.urandom.entropy),
    row('ent chi-square', `${entropy.service.chiSquare} (${entropy.service.chiSquarePercent} %)`, `${entropy.urandom.chiSquare} (${entropy.urandom.chiSquarePercent} %)`),
    row('ent mean', entropy.service.mean, entropy.urandom.mean),
    row('ent Monte Carlo pi', entropy.service.pi, entropy.urandom.pi),
    row('ent serial correlation', entropy.service.serialCorrelation, entropy.urandom.serialCorrelation),
    '',
    `gate: service FIPS failures must stay below ${bound} (P(Binomial(${blocks}, ${p.toFixed(5)}) >= ${bound}) <= ${GATE_ALPHA})`
  ]
  process.stdout.write(lines.join('\n') + '\n')
  const problems: string[] = []
  if (blocks < Math.floor(BYTES * 8 / 20_000) - 1) problems.push(`rngtest saw only ${blocks} blocks`)
  if (fips.service.failures >= bound) problems.push(`${fips.service.failures} FIPS failures >= ${bound}`)
  if (entropy.service.entropy < 7.99) problems.push(`entropy ${entropy.service.entropy} < 7.99`)
  if (Math.abs(entropy.service.serialCorrelation) > 0.01) problems.push(`serial correlation ${entropy.service.serialCorrelation}`)
  for (const problem of problems) process.stdout.write(`FAIL: ${problem}\n`)
  failed = problems.length > 0
  process.stdout.write(`${failed ? 'FAIL' : 'PASS'} (${Math.round((Date.now() - started) / 1000)} s)\n`)
} finally {
  rmSync(dir, { recursive: true, force: true })
  server.child.kill('SIGTERM')
  await server.exit
}
process.exitCode = failed ? 1 : 0
