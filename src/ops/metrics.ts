// CONTRACT §9 metrics: the series, their labels, and the listener that serves them. Every label
// value comes from a set fixed at start (route templates, HTTP methods, status classes, generator
// types, problem codes): nothing a request carries can make a new series.
import type { Server } from 'node:http'
import { createServer } from '../builtins.js'
import type { AddressInfo } from 'node:net'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from '@prometheus-io/client'
import { PROBLEM_CODES, type ProblemCode } from '../i18n/catalog.js'
import { HASH_ALGORITHMS, type HashAlgorithm } from '../../schemas/hash.js'

/** 0.25 ms to 1 s: a generator answers in well under a millisecond; the heaviest valid request takes some 20 ms. */
export const DURATION_BUCKETS = [0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]
/**
 * 1 ms to 5 s: one hash (CONTRACT §12) takes from a few milliseconds (sha512-crypt's and
 * Mosquitto's defaults) to about a second at the upper bounds, longer on a busy machine (the
 * hashing threads run at the lowest CPU priority).
 */
export const HASH_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
const KNOWN_HASH_ALGORITHMS: ReadonlySet<string> = new Set(HASH_ALGORITHMS)
/** The route label of a request no route matched (404 and 405): scanners' paths never become series. */
export const UNMATCHED_ROUTE = 'unmatched'
/** By the status code's first digit: Node sends 1xx..5xx only. */
const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx']

/** One label set of the request histogram: a count per bucket (not cumulative), the sum and the count. */
interface DurationSeries {
  labels: { route: string, method: string, status_class: string }
  buckets: Float64Array
  sum: number
  count: number
}

/**
 * The request duration histogram, in the shape the client's Registry reads from a metric
 * (`get()`), counted with plain arithmetic. The client's own Histogram hashes its label object on
 * every observe (about 0.5 to 2 µs here, more than the whole budget of 1 µs per request); here a
 * request finds its series once per route, method and status class and adds to three numbers.
 */
class RequestDurations {
  readonly name = 'randgen_http_request_duration_seconds'
  readonly help = 'Time from the request\'s arrival to its answer, by route template, method and status class'
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  /**
   * By route, then method, one series per status class (index 1..5), made at the first request.
   * Nested maps rather than a joined key: the route and method strings are the router's and the
   * parser's own, whose hashes V8 keeps, where a joined string would be hashed anew each time.
   */
  private readonly series = new Map<string, Map<string, Array<DurationSeries | undefined>>>()
  private readonly all: DurationSeries[] = []

  observe (route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route)
    if (byMethod === undefined) {
      byMethod = new Map()
      this.series.set(route, byMethod)
    }
    let byClass = byMethod.get(method)
    if (byClass === undefined) {
      byClass = []
      byMethod.set(method, byClass)
    }
    const statusClass = (status / 100) | 0
    let series = byClass[statusClass]
    if (series === undefined) {
      // `method` needs no check: Node's parser accepts only the methods it knows (http.METHODS),
      // a set fixed at start like the routes'
      const labels = { route, method, status_class: STATUS_CLASSES[statusClass] as string }
      series = { labels, buckets: new Float64Array(DURATION_BUCKETS.length), sum: 0, count: 0 }
      byClass[statusClass] = series
      this.all.push(series)
    }
    let bucket = 0
    while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] as number)) bucket++
    if (bucket < DURATION_BUCKETS.length) series.buckets[bucket] = (series.buckets[bucket] as number) + 1
    series.sum += seconds
    series.count++
  }

  /** What Registry#metrics() formats: cumulative buckets, +Inf, _sum and _count of every series. */
  get (): { name: string, help: string, type: string, aggregator: string, values: Array<{ metricName: string, labels: Record<string, string | number>, value: number }> } {
    const values = []
    for (const { labels, buckets, sum, count } of this.all) {
      let cumulative = 0
      for (let i = 0; i < DURATION_BUCKETS.length; i++) {
        cumulative += buckets[i] as number
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: DURATION_BUCKETS[i] as number }, value: cumulative })
      }
      values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count })
      values.push({ metricName: `${this.name}_sum`, labels, value: sum })
      values.push({ metricName: `${this.name}_count`, labels, value: count })
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values }
  }
}

export interface Metrics {
  registry: Registry
  /** One answered request: its route template (undefined when none matched), method, status and duration in ms. */
  observeRequest: (route: string | undefined, method: string, status: number, milliseconds: number) => void
  /** Counts the values a generator made. */
  valuesCounter: (generator: string) => (count: number) => void
  countProblem: (code: ProblemCode) => void
  /** One hash made (CONTRACT §12.1): counted by algorithm, its seconds in the hashing histogram. */
  /** A hash made (its algorithm and seconds); other work of the pool (CONTRACT §13's RSA keys) is not a hash, and is not counted here. */
  observeHash: (algorithm: string, seconds: number) => void
  /** Where the hashing queue's depth gauge reads, at each scrape (the pool's admitted hashes). */
  watchHashQueue: (depth: () => number) => void
}

/**
 * A counter counted in plain numbers per event and handed to the client's Counter when a scrape
 * asks (its `collect`): the client's inc costs a label hash, as its observe does. Each label value
 * gets its cell, and its series at 0 (so rate() and absent() see it before the first event), when
 * it is declared, at start.
 */
function scrapedCounter (registry: Registry, name: string, help: string, label: string): (value: string) => (count: number) => void {
  const cells = new Map<string, { count: number }>()
  const counter = new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect () {
      for (const [value, cell] of cells) {
        this.inc({ [label]: value }, cell.count)
        cell.count = 0
      }
    }
  })
  return (value) => {
    // One cell per label value, however many callers count into it (a generator's route and the
    // sets route both count its values): a second cell would replace the first, whose counts a
    // scrape would then never see
    let cell = cells.get(value)
    if (cell === undefined) {
      counter.inc({ [label]: value }, 0)
      cell = { count: 0 }
      cells.set(value, cell)
    }
    const counted = cell
    return (count) => { counted.count += count }
  }
}

export function createMetrics (): Metrics {
  const registry = new Registry()
  // Process CPU, RSS, heap, GC, event-loop lag: what dashboards for Node services expect, unprefixed
  collectDefaultMetrics({ register: registry })

  const durations = new RequestDurations()
  registry.registerMetric(durations as unknown as Parameters<Registry['registerMetric']>[0])

  const valuesCounter = scrapedCounter(registry, 'randgen_values_generated_total', 'Values generated, by generator', 'generator')
  const problemCounter = scrapedCounter(registry, 'randgen_problems_total', 'Problem documents sent, by problem code', 'code')
  const problemCounts = new Map(PROBLEM_CODES.map((code) => [code, problemCounter(code)]))

  // CONTRACT §12.1: hashes by algorithm, their seconds, the queue's depth. A hash takes a
  // millisecond or more, so the client's own metrics' cost per event does not matter here; every
  // algorithm's series exists (at 0) from the start
  const hashes = new Counter({ name: 'randgen_hashes_total', help: 'Password hashes made, by algorithm', labelNames: ['algorithm'], registers: [registry] })
  const hashSeconds = new Histogram({
    name: 'randgen_hash_duration_seconds',
    help: 'Seconds one password hash took on its hashing thread, by algorithm',
    labelNames: ['algorithm'],
    buckets: HASH_DURATION_BUCKETS,
    registers: [registry]
  })
  for (const algorithm of HASH_ALGORITHMS) {
    hashes.inc({ algorithm }, 0)
    hashSeconds.zero({ algorithm })
  }
  let hashQueueDepth = (): number => 0
  // eslint-disable-next-line no-new -- registered with the registry, which reads it at each scrape
  new Gauge({
    name: 'randgen_hash_queue_depth',
    help: 'Password hashes admitted and not yet done (running and waiting)',
    registers: [registry],
    collect () { this.set(hashQueueDepth()) }
  })

  return {
    registry,
    observeRequest: (route = UNMATCHED_ROUTE, method, status, milliseconds) => durations.observe(route, method, status, milliseconds / 1000),
    // Called as each generator registers, so its series exists (at 0) from the start
    valuesCounter,
    countProblem: (code) => { (problemCounts.get(code) as (count: number) => void)(1) },
    observeHash: (algorithm, seconds) => {
      // The pool hands over validated settings' algorithm; checked again, since a label value
      // outside the fixed set would make a series
      if (!KNOWN_HASH_ALGORITHMS.has(algorithm as HashAlgorithm)) return
      hashes.inc({ algorithm })
      hashSeconds.observe({ algorithm }, seconds)
    },
    watchHashQueue: (depth) => { hashQueueDepth = depth }
  }
}

/**
 * The metrics listener: GET /metrics in the Prometheus text format, and nothing else (404 for
 * other paths, 405 for other methods). Plain node:http: it serves one scraper, and keeps the
 * public app's hooks, parsers and logs out of its way.
 */
export function metricsServer (metrics: Metrics): Server {
  return createServer((request, response) => {
    const path = String(request.url).split('?')[0]
    const refuse = (status: number, title: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store', ...headers })
      response.end(JSON.stringify({ title, status }))
    }
    if (path !== '/metrics') return refuse(404, 'Not found: this listener serves GET /metrics only')
    if (request.method !== 'GET') return refuse(405, 'Method not allowed', { allow: 'GET' })
    metrics.registry.metrics().then((text) => {
      response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' })
      response.end(text)
    }, () => refuse(500, 'Internal server error'))
  })
}

/** Where a listening server is bound: `http://host:port`. */
export function serverUrl (server: Server): string {
  const { address, port } = server.address() as AddressInfo
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`
}
