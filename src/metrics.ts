// CONTRACT §9 metrics: the series, their labels, and the listener that serves them. Every label
// value comes from a set fixed at start (route templates, HTTP methods, status classes, generator
// types, problem codes): nothing a request carries can make a new series.
import { createServer, METHODS, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { collectDefaultMetrics, Counter, Histogram, Registry } from '@prometheus-io/client'
import { PROBLEM_CODES, type ProblemCode } from './i18n/catalog.js'

/** 0.25 ms to 1 s: a generator answers in well under a millisecond; the heaviest valid request takes some 20 ms. */
export const DURATION_BUCKETS = [0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]
/** The route label of a request no route matched (404 and 405): scanners' paths never become series. */
export const UNMATCHED_ROUTE = 'unmatched'
const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx']
const KNOWN_METHODS = new Set(METHODS)

type Observer = { observe: (value: number) => void }

export interface Metrics {
  registry: Registry
  /** One answered request: its route template (undefined when none matched), method, status and duration in ms. */
  observeRequest: (route: string | undefined, method: string, status: number, milliseconds: number) => void
  /** Counts the values a generator made. */
  valuesCounter: (generator: string) => (count: number) => void
  countProblem: (code: ProblemCode) => void
}

export function createMetrics (): Metrics {
  const registry = new Registry()
  // Process CPU, RSS, heap, GC, event-loop lag: what dashboards for Node services expect, unprefixed
  collectDefaultMetrics({ register: registry })

  const duration = new Histogram({
    name: 'randgen_http_request_duration_seconds',
    help: 'Time from the request\'s arrival to its answer, by route template, method and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry]
  })
  const values = new Counter({
    name: 'randgen_values_generated_total',
    help: 'Values generated, by generator',
    labelNames: ['generator'] as const,
    registers: [registry]
  })
  const problems = new Counter({
    name: 'randgen_problems_total',
    help: 'Problem documents sent, by problem code',
    labelNames: ['code'] as const,
    registers: [registry]
  })
  // Every known series at 0 from the start, so rate() and absent() see them before the first event
  for (const code of PROBLEM_CODES) problems.inc({ code }, 0)

  // The histogram's children by route and method, one per status class, made once: a request
  // costs a map lookup and one observe
  const children = new Map<string, Array<Observer | undefined>>()
  const observeRequest: Metrics['observeRequest'] = (route = UNMATCHED_ROUTE, method, status, milliseconds) => {
    const key = `${method} ${route}`
    let byClass = children.get(key)
    if (byClass === undefined) {
      byClass = []
      children.set(key, byClass)
    }
    const statusClass = (status / 100) | 0
    let child = byClass[statusClass]
    if (child === undefined) {
      // Node's parser accepts only the methods it knows, so `method` is one of them already
      child = duration.labels(route, KNOWN_METHODS.has(method) ? method : 'OTHER', STATUS_CLASSES[statusClass] ?? '0xx')
      byClass[statusClass] = child
    }
    child.observe(milliseconds / 1000)
  }

  return {
    registry,
    observeRequest,
    // Called as each generator registers, so its series exists (at 0) from the start
    valuesCounter: (generator) => {
      const child = values.labels(generator)
      child.inc(0)
      return (count) => child.inc(count)
    },
    countProblem: (code) => problems.inc({ code })
  }
}

/**
 * The metrics listener: GET /metrics in the Prometheus text format, and nothing else (404 for
 * other paths, 405 for other methods). Plain node:http: it serves one scraper, and keeps the
 * public app's hooks, parsers and logs out of its way.
 */
export function metricsServer (metrics: Metrics): Server {
  return createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
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
