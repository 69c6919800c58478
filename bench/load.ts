// One autocannon run, reduced to the figures the report needs.
import autocannon from 'autocannon'
import { cpuOf } from './processes.js'
import type { Scenario } from './scenarios.js'

export interface Sample {
  rps: number
  p50: number
  p99: number
  p999: number
  errors: number
  requests: number
  /** Server CPU time per request in µs (user + system), when the server's pid was given. */
  cpuUs: number
}

export interface LoadOptions {
  connections: number
  /** Seconds. */
  duration?: number
  /** A fixed number of requests instead of a duration. */
  amount?: number
  /** Seconds after which a fixed-amount run stops early (autocannon ignores `duration` then). */
  maxSeconds?: number
  onResponse?: () => void
  /** The server's pid, to measure its CPU time per request. */
  pid?: number
}

function requestOf (scenario: Scenario): { method: string, path: string, headers?: Record<string, string>, body?: string } {
  return { method: scenario.method, path: scenario.path, headers: scenario.headers, body: scenario.body }
}

/** Load from `connections` keep-alive connections, one request in flight on each (no pipelining). */
export async function load (origin: string, scenarios: Scenario[], options: LoadOptions): Promise<Sample> {
  const cpuBefore = options.pid === undefined ? Number.NaN : cpuOf(options.pid)
  const instance = autocannon({
    url: origin,
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
    ...(options.amount === undefined ? { duration: options.duration ?? 5 } : { amount: options.amount }),
    // autocannon applies `path` only inside `requests`, so even a single request goes there
    requests: scenarios.map(requestOf)
  })
  if (options.onResponse !== undefined) instance.on('response', options.onResponse)
  const timer = options.maxSeconds === undefined ? undefined : setTimeout(() => { instance.stop() }, options.maxSeconds * 1000)
  const result = await instance
  clearTimeout(timer)
  const cpu = options.pid === undefined ? Number.NaN : cpuOf(options.pid) - cpuBefore
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    p999: result.latency.p99_9,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    cpuUs: cpu / result.requests.total
  }
}
