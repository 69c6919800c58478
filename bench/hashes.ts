// `npm run bench:hashes` (issue 37): the CPU of one hash of CONTRACT §12, ours against the
// reference C implementation, each algorithm at its defaults and at its upper bounds, timed alone
// (no server). Run it on the image's runtime: BENCH_NODE=$(.ci/node-runtime/install) npm run bench:hashes.
//
// - Ours: `computeHash(job)` (src/hashing/formats/index.ts, what a hashing thread calls) called
//   n times in this process after a warm-up, process.cpuUsage() around the n calls (user +
//   system, every thread of the process), fresh salts drawn before the clock starts.
// - The references, timed by bench/hash-reference.py, one long-lived Python process:
//   * in process, where the reference library can be called in a loop: argon2-cffi's
//     hash_secret_raw(type=ID) (Debian's libargon2, the reference C code), crypt(3) (libxcrypt,
//     the library mkpasswd calls), OpenSSL's PBKDF2 (hashlib.pbkdf2_hmac, the system libcrypto
//     that `openssl kdf` runs); CPU from time.process_time(), every thread;
//   * as programs: `htpasswd -nbB -C <cost>` (Apache's own bcrypt, in libaprutil), `mkpasswd -m
//     sha-512 -R <rounds> -S <salt>`, `openssl kdf ... PBKDF2`, each run n times, CPU of the
//     children from getrusage(RUSAGE_CHILDREN). A program's start-up is taken out by running the
//     same program as many times at its cheapest work x0 (bcrypt cost 4, 1000 rounds, 1
//     iteration) in the same round: per hash = (T(x) − T(x0)) / n × x / (x − x0), exact when the
//     work is linear in x (2^cost for bcrypt, rounds, iterations), so the cheapest run's own
//     hashing is put back rather than subtracted with the start-up.
//   The target is judged against the in-process reference where there is one (no start-up to
//   take out), else against the program; the other is printed beside it as a check.
// - Rounds interleave ours and the references (ours, reference, program, program's baseline,
//   next row …), HASH_BENCH_ROUNDS of them (7); each sample lasts about HASH_BENCH_SAMPLE_SECONDS
//   of CPU (0.3 s; at least one hash). Every round's ratio is printed, and each row's target and
//   verdict beside it: Argon2id ≤ 0.6× argon2-cffi's CPU, the median of the rounds (issue 42);
//   bcrypt, SCRAM and Mosquitto ≤ 1.25× in every round (issue 37); SHA-512 crypt has none (its
//   reason is printed in its row).
// - Then RSA signing keys (issue 38), described above rsaRows below. HASH_ROWS=hashes runs the
//   hash rows alone, HASH_ROWS=rsa the RSA rows alone; all (the default) both, hashes first.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { cpus, loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { computeHash } from '../src/hashing/formats/index.js'
import { saltFor } from '../src/hashing/salt.js'
import type { HashSettings } from '../schemas/hash.js'
import { rsaSigningKey, type ModulusBits } from '../src/keys/signing-keys.js'
import { ranUnderBenchNode } from './bench-node.js'

/** What a row is held to: ours ÷ the reference, judged on the median of the rounds or on every round. */
type Target = { ratio: number, judged: 'median' | 'every round' } | { retired: string }
/** Issue 37's target, for the hashes whose primitive is the runtime's own (bcrypt's addon, PBKDF2). */
const EVERY_ROUND_125: Target = { ratio: 1.25, judged: 'every round' }
/** Issue 42: @node-rs/argon2 measured at ~0.5× the C reference on Node 20 and 26. */
const ARGON2_TARGET: Target = { ratio: 0.6, judged: 'median' }
const SHA512_RETIRED: Target = {
  retired: 'target retired (issue 42): node:crypto\'s per-call cost, 0.62 µs a round against glibc\'s whole round at 0.41 µs, ' +
    'is the floor of any maintained path; hash-wasm\'s SHA-512 is slower still (1.0 µs a round)'
}
const ROUNDS = Number(process.env.HASH_BENCH_ROUNDS ?? 7)
const SAMPLE_SECONDS = Number(process.env.HASH_BENCH_SAMPLE_SECONDS ?? 0.3)
/** One value for every hash, ours and the references': 20 characters, a default password's length. */
const PASSWORD = 'Vq3xLmP8rTz2KwN6yHb4'
const log = (line: string): void => { process.stdout.write(`${line}\n`) }

/** A request to bench/hash-reference.py, without its count. */
type ReferenceOp = { op: 'argon2', m: number, t: number, p: number } | { op: 'crypt', setting: string } |
{ op: 'pbkdf2', digest: string, iter: number, keylen: number } | { op: 'spawn', argv: string[] }

interface ProgramReference {
  label: string
  argv: (x: number) => string[]
  /** The row's work and the cheapest work, in the unit the cost is linear in. */
  x: number
  x0: number
  /** The program at x0 (its argument, e.g. cost 4), when x and the argument differ (bcrypt: 2^cost). */
  argument: number
  baselineArgument: number
}

interface Row {
  name: string
  settings: HashSettings
  target: Target
  /** The reference library in a loop, in process; absent: the program is the reference. */
  inProcess?: { label: string, op: ReferenceOp }
  program: ProgramReference
}

const cryptSalt = (): string => Buffer.from(saltFor('sha512-crypt')).toString('latin1')
const opensslKdf = (digest: string, keylen: number) => (iter: number): string[] =>
  ['openssl', 'kdf', '-keylen', String(keylen), '-kdfopt', `digest:${digest}`, '-kdfopt', `pass:${PASSWORD}`,
    '-kdfopt', `salt:${cryptSalt()}`, '-kdfopt', `iter:${iter}`, 'PBKDF2']

function bcryptRow (cost: number, label: string): Row {
  return {
    name: `bcrypt cost ${cost} (${label})`,
    settings: { algorithm: 'bcrypt', cost },
    target: EVERY_ROUND_125,
    program: { label: 'htpasswd -nbB (libaprutil)', argv: (c) => ['htpasswd', '-nbB', '-C', String(c), 'u', PASSWORD], x: 2 ** cost, x0: 2 ** 4, argument: cost, baselineArgument: 4 }
  }
}

function sha512Row (rounds: number, label: string): Row {
  return {
    name: `sha512-crypt rounds ${rounds} (${label})`,
    settings: { algorithm: 'sha512-crypt', rounds },
    target: SHA512_RETIRED,
    inProcess: { label: 'crypt(3), libxcrypt', op: { op: 'crypt', setting: `$6$rounds=${rounds}$` } },
    program: { label: 'mkpasswd -m sha-512', argv: (r) => ['mkpasswd', '-m', 'sha-512', '-R', String(r), '-S', cryptSalt(), PASSWORD], x: rounds, x0: 1000, argument: rounds, baselineArgument: 1000 }
  }
}

function pbkdf2Row (algorithm: 'scram-sha-256' | 'mosquitto', iterations: number, label: string): Row {
  const [digest, keylen] = algorithm === 'scram-sha-256' ? ['sha256', 32] : ['sha512', 64]
  return {
    name: `${algorithm} iterations ${iterations} (${label})`,
    settings: { algorithm, iterations },
    target: EVERY_ROUND_125,
    inProcess: { label: `PBKDF2-${digest.toUpperCase()}, libcrypto`, op: { op: 'pbkdf2', digest, iter: iterations, keylen } },
    program: { label: `openssl kdf PBKDF2 ${digest.toUpperCase()}`, argv: opensslKdf(digest.toUpperCase(), keylen), x: iterations, x0: 1, argument: iterations, baselineArgument: 1 }
  }
}

function argon2Row (m: number, t: number, p: number, label: string): Row {
  return {
    name: `argon2id m=${m},t=${t},p=${p} (${label})`,
    settings: { algorithm: 'argon2id', memoryKiB: m, iterations: t, parallelism: p },
    target: ARGON2_TARGET,
    inProcess: { label: 'argon2-cffi, libargon2', op: { op: 'argon2', m, t, p } },
    // Not run: argon2 has no command-line program here; argon2-cffi in a loop is the reference
    program: { label: '', argv: () => [], x: 1, x0: 0, argument: 0, baselineArgument: 0 }
  }
}

const ROWS: Row[] = [
  argon2Row(19456, 2, 1, 'default'),
  argon2Row(65540, 5, 4, 'upper bound'),
  bcryptRow(12, 'default'),
  bcryptRow(14, 'upper bound'),
  sha512Row(5000, 'default'),
  sha512Row(100000, 'upper bound'),
  pbkdf2Row('scram-sha-256', 4096, 'default'),
  pbkdf2Row('scram-sha-256', 100000, 'upper bound'),
  pbkdf2Row('mosquitto', 101, 'default'),
  pbkdf2Row('mosquitto', 100000, 'upper bound')
]

/** bench/hash-reference.py, asked one thing at a time. */
class Reference {
  private readonly child = spawn('/usr/bin/python3', [fileURLToPath(new URL('./hash-reference.py', import.meta.url)), PASSWORD], { stdio: ['pipe', 'pipe', 'inherit'] })
  private readonly lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]()

  async time (op: ReferenceOp, n: number): Promise<Timed> {
    this.child.stdin.write(`${JSON.stringify({ ...op, n })}\n`)
    const { value, done } = await this.lines.next()
    if (done === true) throw new Error('bench/hash-reference.py ended')
    const answer = JSON.parse(value as string) as Timed | { error: string }
    if ('error' in answer) throw new Error(`bench/hash-reference.py: ${answer.error} (for ${JSON.stringify(op)})`)
    return answer
  }

  close (): void {
    this.child.stdin.end()
  }
}

/** Seconds of CPU (user + system), of system CPU alone, and of wall time, for n hashes together. */
interface Timed { cpu: number, sys: number, wall: number }

/** Our n hashes. */
function timeOurs (settings: HashSettings, n: number): Timed {
  const jobs = Array.from({ length: n }, () => ({ settings, value: PASSWORD, salt: saltFor(settings.algorithm) }))
  const started = performance.now()
  const before = process.cpuUsage()
  for (const job of jobs) {
    if (typeof computeHash(job) !== 'string') throw new Error(`no hash for ${JSON.stringify(settings)}`)
  }
  const used = process.cpuUsage(before)
  return { cpu: (used.user + used.system) / 1e6, sys: used.system / 1e6, wall: (performance.now() - started) / 1000 }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] as number : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
const spread = (values: number[], digits: number): string =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`
/** µs, or ms above 10 ms. */
const duration = (us: number): string => us >= 10_000 ? `${(us / 1000).toFixed(1)} ms` : us >= 100 ? `${us.toFixed(0)} µs` : `${us.toFixed(1)} µs`
const durations = (values: number[]): string => `${duration(median(values))} (${duration(Math.min(...values))}–${duration(Math.max(...values))})`

/** Per hash, one entry a round: CPU µs, system CPU µs, wall µs. */
interface Series { cpu: number[], sys: number[], wall: number[] }
const series = (): Series => ({ cpu: [], sys: [], wall: [] })
/** The median share of system CPU, e.g. "sys 12%". */
const sysShare = (s: Series): string => `sys ${(100 * median(s.sys.map((sys, i) => sys / (s.cpu[i] as number)))).toFixed(0)}%`

interface Measured {
  row: Row
  n: { ours: number, inProcess: number, program: number }
  ours: Series
  inProcess: Series
  program: Series
  /** Ours ÷ the reference the target is judged against, per round. */
  ratio: number[]
  /** Ours ÷ the other reference (the program where the in-process one is judged), per round. */
  check: number[]
}

/** A row's target and verdict as printed, and why it missed (undefined when it did not). */
function judge (target: Target, ratios: number[]): { target: string, verdict: string, miss?: string } {
  if ('retired' in target) return { target: 'none', verdict: `a figure: ${target.retired}` }
  const within = ratios.filter((r) => r <= target.ratio).length
  const rounds = `${within}/${ratios.length} rounds ≤ ${target.ratio}×`
  if (target.judged === 'median') {
    const met = median(ratios) <= target.ratio
    return {
      target: `≤ ${target.ratio}×, the median`,
      verdict: `${met ? '**met**' : '**MISSED**'}: median ${median(ratios).toFixed(2)}× (${rounds})`,
      ...(met ? {} : { miss: `median ${median(ratios).toFixed(2)}× above ${target.ratio}× (${rounds})` })
    }
  }
  const met = within === ratios.length
  return {
    target: `≤ ${target.ratio}×, every round`,
    verdict: `${met ? '**met**' : '**MISSED**'}: ${rounds}`,
    ...(met ? {} : { miss: `ours ÷ reference ${spread(ratios, 2)}×, ${ratios.length - within} of ${ratios.length} rounds above ${target.ratio}×` })
  }
}

/** The hash rows (HASH_ROWS all or hashes): answers the lines of the rows that missed the target. */
async function hashRows (reference: Reference): Promise<string[]> {
  const started = new Date()
  const loadAtStart = loadavg()
  log(`hash rows: ${ROUNDS} rounds, samples of ~${SAMPLE_SECONDS} s CPU`)
  const measured: Measured[] = []
  // Warm-up and sizing: one of each (after a first, discarded call), n from its CPU
  for (const row of ROWS) {
    timeOurs(row.settings, 1)
    const size = (seconds: number, least: number): number => Math.max(least, Math.round(SAMPLE_SECONDS / Math.max(seconds, 1e-6)))
    const oursN = size(timeOurs(row.settings, 1).cpu, 1)
    let inProcessN = 0
    if (row.inProcess !== undefined) {
      await reference.time(row.inProcess.op, 1)
      inProcessN = size((await reference.time(row.inProcess.op, 1)).cpu, 1)
    }
    let programN = 0
    if (row.program.label !== '') {
      const { argv, argument } = row.program
      await reference.time({ op: 'spawn', argv: argv(argument) }, 1)
      // A program costs its start-up too, which the wall time shows better than a child's CPU
      const one = await reference.time({ op: 'spawn', argv: argv(argument) }, 2)
      programN = size(Math.max(one.cpu, one.wall / 2) / 2, 1)
    }
    measured.push({ row, n: { ours: oursN, inProcess: inProcessN, program: programN }, ours: series(), inProcess: series(), program: series(), ratio: [], check: [] })
    log(`  sized ${row.name}: ours ×${oursN}, in process ×${inProcessN}, program ×${programN} (and its baseline ×${programN})`)
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const m of measured) {
      const { row, n } = m
      const ours = timeOurs(row.settings, n.ours)
      m.ours.cpu.push(ours.cpu / n.ours * 1e6)
      m.ours.sys.push(ours.sys / n.ours * 1e6)
      m.ours.wall.push(ours.wall / n.ours * 1e6)
      let inProcessUs = Number.NaN
      if (row.inProcess !== undefined) {
        const sample = await reference.time(row.inProcess.op, n.inProcess)
        inProcessUs = sample.cpu / n.inProcess * 1e6
        m.inProcess.cpu.push(inProcessUs)
        m.inProcess.sys.push(sample.sys / n.inProcess * 1e6)
        m.inProcess.wall.push(sample.wall / n.inProcess * 1e6)
      }
      let programUs = Number.NaN
      if (row.program.label !== '') {
        const { argv, x, x0, argument, baselineArgument } = row.program
        const full = await reference.time({ op: 'spawn', argv: argv(argument) }, n.program)
        const base = await reference.time({ op: 'spawn', argv: argv(baselineArgument) }, n.program)
        const scale = x / (x - x0)
        programUs = (full.cpu - base.cpu) / n.program * scale * 1e6
        m.program.cpu.push(programUs)
        m.program.sys.push((full.sys - base.sys) / n.program * scale * 1e6)
        m.program.wall.push((full.wall - base.wall) / n.program * scale * 1e6)
      }
      const ourUs = ours.cpu / n.ours * 1e6
      const judged = row.inProcess !== undefined ? inProcessUs : programUs
      m.ratio.push(ourUs / judged)
      if (row.inProcess !== undefined && row.program.label !== '') m.check.push(ourUs / programUs)
    }
    log(`  round ${round + 1}/${ROUNDS}: ${measured.map((m) => `${m.row.name.split(' (')[0] ?? ''} ${(m.ratio.at(-1) as number).toFixed(2)}×`).join(', ')}`)
  }

  const ended = new Date()
  log('')
  log(`${started.toISOString().slice(0, 16).replace('T', ' ')}–${ended.toISOString().slice(11, 16)} UTC, Node ${process.version} ` +
    `(OpenSSL ${process.versions.openssl}), ${ROUNDS} rounds interleaved, ${((ended.getTime() - started.getTime()) / 1000).toFixed(0)} s in all; load average ${loadAtStart[0]?.toFixed(1)} at the start, ${loadavg()[0]?.toFixed(1)} at the end. ` +
    'CPU per hash, median (min–max) over the rounds; wall time beside it.')
  log('')
  log('| Row | ours: CPU | ours: wall | reference (judged) | reference: CPU | reference: wall | ratio (CPU), median (min–max) [every round] | target | verdict | check: the program | program: CPU | ours ÷ program |')
  log('|---|---|---|---|---|---|---|---|---|---|---|---|')
  const missed: string[] = []
  for (const m of measured) {
    const { row } = m
    const judgedInProcess = row.inProcess !== undefined
    const judged = judgedInProcess ? m.inProcess : m.program
    const label = judgedInProcess ? (row.inProcess?.label ?? '') : `${row.program.label}, start-up taken out`
    const { target, verdict, miss } = judge(row.target, m.ratio)
    const check = judgedInProcess && row.program.label !== ''
    // A program whose start-up varies by more than its hash costs gives nothing once it is taken out
    const resolved = m.program.cpu.every((us) => us > 0)
    const checkCpu = !check ? '—' : resolved ? durations(m.program.cpu) : `not resolved: the start-up varies by more than a hash costs [${m.program.cpu.map(duration).join(' ')}]`
    const checkRatio = !check || !resolved ? '—' : `${spread(m.check, 2)}× [${m.check.map((r) => r.toFixed(2)).join(' ')}]`
    log(`| ${row.name} | ${durations(m.ours.cpu)}, ${sysShare(m.ours)} | ${duration(median(m.ours.wall))} | ${label} | ${durations(judged.cpu)}, ${sysShare(judged)} | ${duration(median(judged.wall))} | ` +
      `**${spread(m.ratio, 2)}×** [${m.ratio.map((r) => r.toFixed(2)).join(' ')}] | ${target} | ${verdict} | ` +
      `${check ? `${row.program.label}, start-up taken out` : '—'} | ${checkCpu} | ${checkRatio} |`)
    if (miss !== undefined) missed.push(`${row.name}: ${miss}`)
  }
  log('')
  log(`n per sample (ours / in process / program and its baseline): ${measured.map((m) => `${m.row.name.split(' (')[0] ?? ''} ${m.n.ours}/${m.n.inProcess || '—'}/${m.n.program || '—'}`).join('; ')}`)
  return missed
}

// RSA signing keys (issue 38, CONTRACT §13): the CPU of one key pair, ours against OpenSSL's own
// program. RSA generation is a search for primes, so one key's time varies several-fold from the
// next: many keys each, one at a time, and their distribution, not one mean.
// - Ours: `rsaSigningKey(bits, 'RS256', 'pem')` (src/keys/signing-keys.ts, what a pool thread
//   calls: generateKeyPairSync, Node's OpenSSL), process.cpuUsage() around each key.
// - OpenSSL: `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:<bits>` (the system's
//   OpenSSL, PKCS#8 PEM on stdout) run once per key through bench/hash-reference.py's "spawn"
//   (the child's CPU from getrusage(RUSAGE_CHILDREN)). Its start-up is taken out: after every
//   pair of keys the same program runs RSA_BASELINE_RUNS times as `openssl genpkey -algorithm
//   ED25519` (the same start-up, provider loading and PEM writing, and an Ed25519 key: µs), and
//   the median of those per-run figures over the whole part is subtracted from every key.
// - Keys alternate (ours, OpenSSL, baseline, ours …) within each modulus; RSA_KEYS keys a side
//   (30,15,8 for 2048, 3072, 4096 bits). No target: the ratio is reported, of the medians and of
//   the means, with a bootstrap 95 % interval of the medians' ratio (keys resampled, 2000 times).
const RSA_BITS = [2048, 3072, 4096] as const
const RSA_KEYS = (process.env.RSA_KEYS ?? '30,15,8').split(',').map(Number)
const RSA_BASELINE_RUNS = Number(process.env.RSA_BASELINE_RUNS ?? 3)
if (RSA_KEYS.length !== RSA_BITS.length || RSA_KEYS.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('RSA_KEYS: three counts, e.g. 30,15,8')

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = q * (sorted.length - 1)
  const low = Math.floor(at)
  return (sorted[low] as number) + ((sorted[Math.min(low + 1, sorted.length - 1)] as number) - (sorted[low] as number)) * (at - low)
}
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length
/** A bootstrap 95 % interval of median(a) ÷ median(b), each resampled with replacement. */
function bootstrapRatio (a: number[], b: number[], times = 2000): [number, number] {
  const draw = (values: number[]): number[] => values.map(() => values[Math.floor(Math.random() * values.length)] as number)
  const ratios = Array.from({ length: times }, () => median(draw(a)) / median(draw(b)))
  return [quantile(ratios, 0.025), quantile(ratios, 0.975)]
}
/** median (p25–p75; min–max) of values in seconds. */
const keyDurations = (values: number[]): string =>
  `${duration(median(values) * 1e6)} (${duration(quantile(values, 0.25) * 1e6)}–${duration(quantile(values, 0.75) * 1e6)}; ${duration(Math.min(...values) * 1e6)}–${duration(Math.max(...values) * 1e6)})`

interface RsaMeasured { bits: ModulusBits, ours: Series, openssl: Series, load: number[] }

function timeOurKey (bits: ModulusBits): Timed {
  const started = performance.now()
  const before = process.cpuUsage()
  const { value, publicKey } = rsaSigningKey(bits, 'RS256', 'pem')
  const used = process.cpuUsage(before)
  if (!value.startsWith('-----BEGIN PRIVATE KEY-----') || !publicKey.startsWith('-----BEGIN PUBLIC KEY-----')) throw new Error(`no PEM key pair of ${bits} bits`)
  return { cpu: (used.user + used.system) / 1e6, sys: used.system / 1e6, wall: (performance.now() - started) / 1000 }
}

const genpkeyRsa = (bits: number): string[] => ['openssl', 'genpkey', '-algorithm', 'RSA', '-pkeyopt', `rsa_keygen_bits:${bits}`]
const GENPKEY_BASELINE = ['openssl', 'genpkey', '-algorithm', 'ED25519']

/** The RSA rows (HASH_ROWS all or rsa). */
async function rsaRows (reference: Reference): Promise<void> {
  const started = new Date()
  const loadAtStart = loadavg()
  log(`RSA rows: ${RSA_BITS.map((bits, i) => `${bits} bits ×${RSA_KEYS[i]}`).join(', ')} keys a side, one at a time, interleaved; ` +
    `openssl's start-up from ${RSA_BASELINE_RUNS} runs of \`${GENPKEY_BASELINE.join(' ')}\` after every pair`)
  // Warm-up: the first key of a process pays for loading OpenSSL's RSA code, a program's first run for the page cache
  timeOurKey(2048)
  await reference.time({ op: 'spawn', argv: genpkeyRsa(2048) }, 1)
  await reference.time({ op: 'spawn', argv: GENPKEY_BASELINE }, 2)
  const baseline: number[] = []
  const raw: Array<{ bits: ModulusBits, opensslCpu: number, opensslSys: number, opensslWall: number }> = []
  const measured: RsaMeasured[] = []
  for (const [index, bits] of RSA_BITS.entries()) {
    const m: RsaMeasured = { bits, ours: series(), openssl: series(), load: [loadavg()[0] as number] }
    for (let key = 0; key < (RSA_KEYS[index] as number); key++) {
      const ours = timeOurKey(bits)
      m.ours.cpu.push(ours.cpu)
      m.ours.sys.push(ours.sys)
      m.ours.wall.push(ours.wall)
      const theirs = await reference.time({ op: 'spawn', argv: genpkeyRsa(bits) }, 1)
      raw.push({ bits, opensslCpu: theirs.cpu, opensslSys: theirs.sys, opensslWall: theirs.wall })
      const base = await reference.time({ op: 'spawn', argv: GENPKEY_BASELINE }, RSA_BASELINE_RUNS)
      baseline.push(base.cpu / RSA_BASELINE_RUNS)
    }
    m.load.push(loadavg()[0] as number)
    measured.push(m)
    log(`  ${bits} bits: ${RSA_KEYS[index]} keys a side, load ${(m.load[0] as number).toFixed(1)} → ${(m.load[1] as number).toFixed(1)}; ours median ${duration(median(m.ours.cpu) * 1e6)}`)
  }
  const startUp = median(baseline)
  for (const m of measured) {
    for (const r of raw.filter((r) => r.bits === m.bits)) {
      m.openssl.cpu.push(r.opensslCpu - startUp)
      m.openssl.sys.push(r.opensslSys)
      m.openssl.wall.push(r.opensslWall)
    }
  }
  const ended = new Date()
  log('')
  log(`${started.toISOString().slice(0, 16).replace('T', ' ')}–${ended.toISOString().slice(11, 16)} UTC, Node ${process.version} (OpenSSL ${process.versions.openssl}) against the system's \`openssl genpkey\`, ` +
    `${((ended.getTime() - started.getTime()) / 1000).toFixed(0)} s in all; load average ${loadAtStart[0]?.toFixed(1)} at the start, ${loadavg()[0]?.toFixed(1)} at the end. ` +
    `CPU per key: median (p25–p75; min–max) over the keys, one key a sample; openssl's start-up taken out: ${duration(startUp * 1e6)} a run ` +
    `(median of ${baseline.length} figures, each the mean of ${RSA_BASELINE_RUNS} runs of \`${GENPKEY_BASELINE.join(' ')}\`; p25–p75 ${duration(quantile(baseline, 0.25) * 1e6)}–${duration(quantile(baseline, 0.75) * 1e6)}).`)
  log('')
  log('| Modulus (RS256, PEM) | keys a side | load (start → end) | ours: CPU per key | ours: mean, sys | ours: wall (median) | openssl genpkey: CPU per key, start-up taken out | openssl: mean, sys | openssl: wall (median, with start-up) | ours ÷ openssl, medians (bootstrap 95 %) | ours ÷ openssl, means |')
  log('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const m of measured) {
    const [low, high] = bootstrapRatio(m.ours.cpu, m.openssl.cpu)
    const sysOf = (s: Series): string => `sys ${(100 * s.sys.reduce((a, b) => a + b, 0) / s.cpu.reduce((a, b) => a + b, 0)).toFixed(0)}%`
    log(`| ${m.bits} bits | ${m.ours.cpu.length} | ${(m.load[0] as number).toFixed(1)} → ${(m.load[1] as number).toFixed(1)} | ${keyDurations(m.ours.cpu)} | ${duration(mean(m.ours.cpu) * 1e6)}, ${sysOf(m.ours)} | ${duration(median(m.ours.wall) * 1e6)} | ` +
      `${keyDurations(m.openssl.cpu)} | ${duration(mean(m.openssl.cpu) * 1e6)}, ${sysOf(m.openssl)} | ${duration(median(m.openssl.wall) * 1e6)} | ` +
      `**${(median(m.ours.cpu) / median(m.openssl.cpu)).toFixed(2)}×** (${low.toFixed(2)}–${high.toFixed(2)}) | ${(mean(m.ours.cpu) / mean(m.openssl.cpu)).toFixed(2)}× |`)
  }
  log('')
  log('Every key, CPU ms in the order made (ours | openssl, start-up taken out):')
  for (const m of measured) log(`  ${m.bits}: ${m.ours.cpu.map((s) => (s * 1000).toFixed(0)).join(' ')} | ${m.openssl.cpu.map((s) => (s * 1000).toFixed(0)).join(' ')}`)
}

/** Which rows run: HASH_ROWS=all (default), hashes (issue 37's rows alone) or rsa (issue 38's alone). */
const HASH_ROWS = process.env.HASH_ROWS ?? 'all'

/** The installed @node-rs/argon2's version, for the report's first line. */
const argon2Version = (() => {
  const require = createRequire(import.meta.url)
  const { version } = require('@node-rs/argon2/package.json') as { version: string }
  return version
})()

async function main (): Promise<void> {
  if (!['all', 'hashes', 'rsa'].includes(HASH_ROWS)) throw new Error('HASH_ROWS: all, hashes or rsa')
  const reference = new Reference()
  log(`bench:hashes ${new Date().toISOString()}: Node ${process.version} (OpenSSL ${process.versions.openssl}), ` +
    `argon2id through @node-rs/argon2 ${argon2Version}; ` +
    `${cpus().length} × ${cpus()[0]?.model ?? '?'}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; HASH_ROWS=${HASH_ROWS}`)
  let missed: string[] = []
  try {
    if (HASH_ROWS !== 'rsa') missed = await hashRows(reference)
    if (HASH_ROWS !== 'hashes') {
      if (HASH_ROWS === 'all') log('')
      await rsaRows(reference)
    }
  } finally {
    reference.close()
  }
  for (const line of missed) log(`MISSED: ${line}`)
  if (missed.length > 0) process.exitCode = 1
}

if (!ranUnderBenchNode(import.meta.url)) await main()
