// CONTRACT §9 metrics: a listener of their own serving only GET /metrics, the series and their
// labels, and no label value taken from a request. The exposition is read back by promtool (the
// Prometheus project's own parser), not by a parser of ours.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Server } from 'node:http'
import { build, buildUnready, GENERATORS, post } from '../../helper.js'
import { createMetrics, DURATION_BUCKETS, HASH_DURATION_BUCKETS, metricsServer, serverUrl } from '../../../src/ops/metrics.js'
import { HASH_ALGORITHMS, type HashAlgorithm } from '../../../schemas/hash.js'

async function scrape (app: FastifyInstance, init: RequestInit = {}, path = '/metrics'): Promise<Response> {
  return await fetch(`${app.metricsUrl() as string}${path}`, init)
}

/** Every sample line: name{labels} value. */
function samples (text: string): Array<{ name: string, labels: Record<string, string>, value: number }> {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (match === null) throw new Error(`not a sample line: ${line}`)
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]))
    return { name: match[1] as string, labels, value: Number(match[3]) }
  })
}

t.test('off by default: no listener, and the public listener answers /metrics with 404', async (t) => {
  const app = await build(t)
  t.equal(app.metrics, null)
  t.equal(app.metricsUrl(), undefined)
  const response = await app.inject({ method: 'GET', url: '/metrics' })
  t.equal(response.statusCode, 404)
  t.equal(response.json().code, 'NOT_FOUND')
})

t.test('METRICS_PORT: a loopback listener (METRICS_HOST default) serving GET /metrics only', async (t) => {
  const app = await build(t, { METRICS_PORT: '0' })
  t.match(app.metricsUrl(), /^http:\/\/127\.0\.0\.1:[0-9]+$/)
  const response = await scrape(app)
  t.equal(response.status, 200)
  t.match(response.headers.get('content-type'), /^text\/plain; version=0\.0\.4/)
  t.equal(response.headers.get('cache-control'), 'no-store')
  t.equal((await scrape(app, {}, '/')).status, 404)
  t.equal((await scrape(app, {}, '/api/generate/password')).status, 404, 'nothing of the API there')
  t.equal((await scrape(app, {}, '/metrics/x')).status, 404)
  const head = await scrape(app, { method: 'HEAD' })
  t.equal(head.status, 405)
  t.equal(head.headers.get('allow'), 'GET')
  t.equal((await scrape(app, { method: 'POST' })).status, 405)
  t.equal((await app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404, 'never on the public listener')
  const other = await build(t, { METRICS_PORT: '0', METRICS_HOST: '::1' }).catch(() => undefined)
  if (other !== undefined) t.match(other.metricsUrl(), /^http:\/\/\[::1\]:[0-9]+$/, 'METRICS_HOST is the address bound')
})

t.test('a port already taken stops the start', async (t) => {
  const first = await build(t, { METRICS_PORT: '0' })
  const port = new URL(first.metricsUrl() as string).port
  await t.rejects(build(t, { METRICS_PORT: port }), { code: 'EADDRINUSE' })
})

t.test('the series of §9 with their labels, and promtool reads them', async (t) => {
  const key = 'rg_metrics-test-key-0123456789'
  const app = await build(t, { METRICS_PORT: '0', API_KEY_HASHES: createHash('sha256').update(key).digest('hex') })
  const auth = { authorization: `Bearer ${key}` }
  await post(app, 'password', { quantity: 3 }, auth)
  await post(app, 'password', { quantity: 2 }, auth)
  await post(app, 'uuid', { quantity: 5 }, auth)
  await app.inject({ method: 'GET', url: '/api/generate/pin', headers: auth })
  await post(app, 'password', { length: 3 }, auth)
  await post(app, 'password', {})
  await app.inject({ method: 'PUT', url: '/api/generate/password' })
  await app.inject({ method: 'GET', url: '/readyz' })
  const text = await (await scrape(app)).text()
  const all = samples(text)
  const value = (name: string, labels: Record<string, string>) =>
    all.find((sample) => sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v))?.value

  t.equal(value('randgen_values_generated_total', { generator: 'password' }), 5)
  t.equal(value('randgen_values_generated_total', { generator: 'uuid' }), 5)
  t.equal(value('randgen_values_generated_total', { generator: 'pin' }), 1)
  for (const generator of GENERATORS) t.ok(value('randgen_values_generated_total', { generator }) !== undefined, `${generator}'s series exists from the start`)
  t.equal(value('randgen_problems_total', { code: 'VALIDATION_FAILED' }), 1)
  t.equal(value('randgen_problems_total', { code: 'UNAUTHORIZED' }), 1)
  t.equal(value('randgen_problems_total', { code: 'METHOD_NOT_ALLOWED' }), 1)
  t.equal(value('randgen_problems_total', { code: 'INTERNAL_ERROR' }), 0, 'every code at 0 from the start')

  const duration = 'randgen_http_request_duration_seconds'
  t.equal(value(`${duration}_count`, { route: '/api/generate/password', method: 'POST', status_class: '2xx' }), 2)
  t.equal(value(`${duration}_count`, { route: '/api/generate/password', method: 'POST', status_class: '4xx' }), 2, '400 and 401')
  t.equal(value(`${duration}_count`, { route: '/api/generate/pin', method: 'GET', status_class: '2xx' }), 1)
  t.equal(value(`${duration}_count`, { route: '/readyz', method: 'GET', status_class: '2xx' }), 1)
  t.equal(value(`${duration}_count`, { route: 'unmatched', method: 'PUT', status_class: '4xx' }), 1, '405: no route matched')
  const buckets = all.filter((sample) => sample.name === `${duration}_bucket` && sample.labels.route === '/api/generate/uuid').map((sample) => sample.labels.le)
  t.same(buckets, [...DURATION_BUCKETS.map(String), '+Inf'], 'buckets from 0.25 ms to 1 s')
  t.equal(DURATION_BUCKETS[0], 0.00025)
  t.equal(DURATION_BUCKETS.at(-1), 1)

  // Process and runtime defaults: CPU, RSS, heap, GC, event-loop lag
  for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds']) {
    t.ok(all.some((sample) => sample.name === name), name)
  }
  t.match(text, /^# TYPE nodejs_gc_duration_seconds histogram$/m, 'GC pauses')

  const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
  // 0: clean; 3: lint remarks only. promtool's lint remarks concern the client's default series
  // (their names predate today's conventions), never ours
  t.ok(check.status === 0 || check.status === 3, `promtool parses the exposition (exit ${check.status}): ${check.stderr}`)
  t.notMatch(`${check.stdout}${check.stderr}`, /randgen_/, 'no lint remark on our series')
})

t.test('hashes (§12.1): by algorithm, their seconds, the queue\'s depth, BUSY among problems; promtool reads them', async (t) => {
  const app = await build(t, { METRICS_PORT: '0', HASH_CONCURRENCY: '1', HASH_QUEUE: '1' })
  const read = async () => {
    const all = samples(await (await scrape(app)).text())
    return (name: string, labels: Record<string, string> = {}) =>
      all.find((sample) => sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v))?.value
  }
  let value = await read()
  for (const algorithm of HASH_ALGORITHMS) {
    t.equal(value('randgen_hashes_total', { algorithm }), 0, `${algorithm}: counted from 0 at the start`)
    t.equal(value('randgen_hash_duration_seconds_count', { algorithm }), 0, `${algorithm}: its histogram from the start`)
  }
  t.equal(value('randgen_hash_queue_depth'), 0)
  t.equal(value('randgen_problems_total', { code: 'BUSY' }), 0)

  const hashed = await post(app, 'password', { quantity: 2, hash: { algorithm: 'sha512-crypt', rounds: 1000 } })
  t.equal(hashed.statusCode, 200)
  // The pool holds what it admitted: the queue's depth is read at the scrape
  const held = app.workPool.admit(2)
  t.ok(held)
  const busy = await post(app, 'password', { hash: { algorithm: 'sha512-crypt' } })
  t.equal(busy.statusCode, 503)
  t.equal(busy.json().code, 'BUSY')
  value = await read()
  t.equal(value('randgen_hashes_total', { algorithm: 'sha512-crypt' }), 2)
  t.equal(value('randgen_hash_duration_seconds_count', { algorithm: 'sha512-crypt' }), 2)
  t.equal(value('randgen_hashes_total', { algorithm: 'bcrypt' }), 0)
  t.equal(value('randgen_hash_queue_depth'), 2, 'the admitted hashes')
  t.equal(value('randgen_problems_total', { code: 'BUSY' }), 1, 'the 503 among problems')
  await held?.run([], () => false)
  value = await read()
  t.equal(value('randgen_hash_queue_depth'), 0, 'released')

  const text = await (await scrape(app)).text()
  const buckets = samples(text).filter((sample) => sample.name === 'randgen_hash_duration_seconds_bucket' && sample.labels.algorithm === 'argon2id').map((sample) => sample.labels.le)
  t.same(buckets, [...HASH_DURATION_BUCKETS.map(String), '+Inf'], 'buckets from 1 ms to 5 s')
  t.equal(HASH_DURATION_BUCKETS[0], 0.001)
  t.equal(HASH_DURATION_BUCKETS.at(-1), 5)
  const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
  t.ok(check.status === 0 || check.status === 3, `promtool parses the exposition (exit ${check.status}): ${check.stderr}`)
  t.notMatch(`${check.stdout}${check.stderr}`, /randgen_/, 'no lint remark on our series')
})

t.test('a hash\'s algorithm outside the fixed set makes no series', async (t) => {
  const metrics = createMetrics()
  metrics.observeHash('argon2id', 0.03)
  metrics.observeHash('md5' as HashAlgorithm, 0.03)
  const text = await metrics.registry.metrics()
  t.match(text, /^randgen_hashes_total\{algorithm="argon2id"\} 1$/m)
  t.notMatch(text, /md5/)
  t.equal(text.match(/^randgen_hashes_total\{/gm)?.length, HASH_ALGORITHMS.length, 'one series per algorithm')
})

t.test('no label value comes from a request: scanners\' paths, headers and methods make no series', async (t) => {
  const app = await build(t, { METRICS_PORT: '0' })
  const seriesCount = async () => samples(await (await scrape(app)).text()).filter((sample) => sample.name.startsWith('randgen_')).length
  await app.inject({ method: 'GET', url: '/wp-login.php' })
  const before = await seriesCount()
  for (let i = 0; i < 200; i++) {
    await app.inject({ method: 'GET', url: `/scan/${i}/.env?x=${i}`, headers: { 'x-data': `probe-${i}`, 'x-language': `x-${i}` } })
    await app.inject({ method: 'POST', url: `/api/generate/probe-${i}`, headers: { 'content-type': 'application/json' }, payload: `{"p${i}":1}` })
  }
  // One new label set (route=unmatched, POST, 4xx): its buckets, +Inf, _sum and _count
  t.equal(await seriesCount(), before + DURATION_BUCKETS.length + 3, 'one new unmatched histogram and nothing per path')
  const text = await (await scrape(app)).text()
  t.notMatch(text, /probe-|scan|wp-login|\.env/, 'no path or header in any label')
})

t.test('a request over 1 s counts in +Inf only; _sum in seconds', async (t) => {
  const metrics = createMetrics()
  metrics.observeRequest('/api/generate/password', 'POST', 200, 1500)
  metrics.observeRequest('/api/generate/password', 'POST', 200, 0.2)
  const text = await metrics.registry.metrics()
  const series = (le: string) => Number(new RegExp(`randgen_http_request_duration_seconds_bucket\\{route="/api/generate/password",method="POST",status_class="2xx",le="${le.replace('+', '\\+')}"\\} ([0-9.]+)`).exec(text)?.[1])
  t.equal(series('0.00025'), 1, '0.2 ms: the first bucket')
  t.equal(series('1'), 1, '1.5 s: not within 1 s')
  t.equal(series('+Inf'), 2)
  t.match(text, /randgen_http_request_duration_seconds_sum\{route="\/api\/generate\/password",method="POST",status_class="2xx"\} 1\.5002/)
})

t.test('the listener answers 500 when the registry fails, with nothing of the failure', async (t) => {
  const metrics = createMetrics()
  metrics.registry.registerMetric({ name: 'broken', get: () => { throw new Error('secret internals') } } as never)
  const server: Server = metricsServer(metrics)
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  t.teardown(() => server.close())
  const response = await fetch(`${serverUrl(server)}/metrics`)
  t.equal(response.status, 500)
  t.notMatch(await response.text(), /secret internals/)
})

t.test('serverUrl brackets an IPv6 address', async (t) => {
  t.equal(serverUrl({ address: () => ({ address: '::1', family: 'IPv6', port: 9100 }) } as unknown as Server), 'http://[::1]:9100')
  t.equal(serverUrl({ address: () => ({ address: '0.0.0.0', family: 'IPv4', port: 9100 }) } as unknown as Server), 'http://0.0.0.0:9100')
})

t.test('no listener before the app is ready, and an app closed unready closes cleanly', async (t) => {
  const app = await buildUnready(t, { METRICS_PORT: '0' })
  t.equal(app.metricsUrl(), undefined)
  await app.close()
  t.pass('closed')
})
