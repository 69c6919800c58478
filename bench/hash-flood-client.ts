// The two clients of bench/hash-flood.ts, on keep-alive connections of node:http:
// - `flood`: `connections` loops, each sending the hash request again as soon as its answer
//   is read (after `pauseMs` when the answer was 503), until `seconds` have passed; then every
//   connection is closed, so the requests still waiting in the server's queue are dropped
//   (a gone client's, CONTRACT §12.1). Run as its own process (`tsx bench/hash-flood-client.ts
//   '<options as JSON>'`, answering one JSON line) so that its work never delays the stream's clock.
// - `stream`: requests sent at a fixed rate over a few connections, each one's latency from the
//   moment it was sent to the end of its answer (one waiting for a free connection, behind a
//   slow one, counts its wait; this process's own timer lateness does not).
import { Agent, request } from 'node:http'
import { fileURLToPath } from 'node:url'

export interface FloodOptions {
  origin: string
  path: string
  body: string
  connections: number
  seconds: number
  /** Milliseconds a connection waits after a 503 before it asks again. */
  pauseMs: number
  /** Waits `pauseMs` after every answer, not only after a 503. */
  pauseAlways?: boolean
}

export interface Latencies { count: number, p50: number, p99: number, max: number }

export interface FloodResult {
  seconds: number
  /** Answers by status, and 503s by problem code, e.g. {"200": 40, "503 BUSY": 9000}. */
  statuses: Record<string, number>
  /** Latency (ms) of the 200s (hashes made) and of the 503 BUSY answers. */
  hashed: Latencies
  busy: Latencies
  /** Retry-After values seen on 503s, with how often. */
  retryAfter: Record<string, number>
  /** Connection errors and requests cut off at the end (still queued or hashing). */
  errors: number
  cutOff: number
  /** This client's own CPU over the flood, in cores: what the load generator takes from the machine. */
  clientCpu: number
}

export interface StreamResult { latency: Latencies, statuses: Record<string, number>, errors: number, sent: number }

export function latencies (values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number): number => sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1] as number }
}

interface Answer { status: number, body: string, retryAfter: string | undefined }

function send (agent: Agent, origin: string, path: string, body: string): { done: Promise<Answer> } {
  return {
    done: new Promise((resolve, reject) => {
      const req = request(origin + path, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const retryAfter = res.headers['retry-after']
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter })
        })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(body)
    })
  }
}

const count = (record: Record<string, number>, key: string): void => { record[key] = (record[key] ?? 0) + 1 }

/** The problem code of a 5xx answer's body (CONTRACT §4), or '?' when it has none. */
function problemCode (body: string): string {
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code
    return typeof code === 'string' ? code : '?'
  } catch {
    return '?'
  }
}

export async function flood (options: FloodOptions): Promise<FloodResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections })
  const statuses: Record<string, number> = {}
  const retryAfter: Record<string, number> = {}
  const hashed: number[] = []
  const busy: number[] = []
  let errors = 0
  let cutOff = 0
  let ending = false
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const deadline = started + options.seconds * 1000
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const sent = performance.now()
      let answer: Answer
      try {
        answer = await send(agent, options.origin, options.path, options.body).done
      } catch {
        if (ending) cutOff++
        else errors++
        if (ending) return
        continue
      }
      const ms = performance.now() - sent
      const key = answer.status >= 500 ? `${answer.status} ${problemCode(answer.body)}` : String(answer.status)
      count(statuses, key)
      if (answer.status === 200) hashed.push(ms)
      if (key === '503 BUSY') {
        busy.push(ms)
        count(retryAfter, answer.retryAfter ?? 'none')
      }
      if ((answer.status === 503 || options.pauseAlways === true) && options.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, options.pauseMs))
    }
  }
  const loops = Array.from({ length: options.connections }, loop)
  // At the deadline the requests still waiting for a hash are cut off: their connections close
  await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000))
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  ending = true
  agent.destroy()
  await Promise.all(loops)
  return { seconds, statuses, hashed: latencies(hashed), busy: latencies(busy), retryAfter, errors, cutOff, clientCpu: (cpu.user + cpu.system) / 1e6 / seconds }
}

/** `rate` requests a second over `connections` connections for `seconds`. */
export async function stream (origin: string, path: string, body: string, rate: number, connections: number, seconds: number): Promise<StreamResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const statuses: Record<string, number> = {}
  const times: number[] = []
  let errors = 0
  const total = Math.round(rate * seconds)
  const started = performance.now()
  const pending: Array<Promise<void>> = []
  for (let i = 0; i < total; i++) {
    const due = started + i * 1000 / rate
    const wait = due - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const sent = performance.now()
    pending.push(send(agent, origin, path, body).done.then((answer) => {
      count(statuses, String(answer.status))
      times.push(performance.now() - sent)
    }, () => { errors++ }))
  }
  await Promise.all(pending)
  agent.destroy()
  return { latency: latencies(times), statuses, errors, sent: total }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await flood(JSON.parse(process.argv[2] ?? '{}') as FloodOptions)
  process.stdout.write(`${JSON.stringify(result)}\n`)
}
