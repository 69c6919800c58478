// `npm run test:deploy`: the Compose edge for real, without a Docker engine. Two built
// instances (`node dist/server.js`, as the image runs) listen on loopback; Debian's nginx
// runs the repo's templates, rendered with envsubst as the nginx image renders them, with the
// Compose file's settings except for the upstream addresses and listen ports. Needs nginx,
// envsubst, docker-compose and openssl on PATH and `npm run build` first (the script does it).
import t, { type Test } from 'tap'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { once } from 'node:events'
import {
  COMPOSE_FILE, COMPOSE_TLS_FILE, ROOT, edgeTemplates, interpolate, mergedEdge, readCompose, readText,
  type ComposeService
} from './deploy-files.js'
import { GENERATORS } from '../helper.js'

const REQUEST_TIMEOUT = 5000
const START_TIMEOUT = 20_000
// nginx drops privileges only as root; run it as nobody then, like the image's unprivileged edge
const NOBODY = 65534
const asRoot = process.getuid?.() === 0

for (const tool of ['nginx', 'envsubst', 'docker-compose', 'openssl']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    throw new Error(`${tool} is not installed (.ci/run installs it: nginx-light, gettext-base, docker-compose, openssl)`)
  }
}

const work = mkdtempSync(join(tmpdir(), 'randgen-edge-'))
if (asRoot) chownSync(work, NOBODY, NOBODY)
const processes: ChildProcess[] = []
const running = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null
t.teardown(async () => {
  // SIGTERM first: nginx's master then stops its workers, which SIGKILL would leave running
  for (const child of processes.filter(running)) child.kill('SIGTERM')
  await until('processes to exit', () => !processes.some(running), () => 'sending SIGKILL', 5000).catch(() => {
    for (const child of processes.filter(running)) child.kill('SIGKILL')
  })
  rmSync(work, { recursive: true, force: true })
})

async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

async function until (what: string, check: () => boolean | Promise<boolean>, detail: () => string, timeout = START_TIMEOUT): Promise<void> {
  const deadline = Date.now() + timeout
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${detail()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const accepts = (port: number): Promise<boolean> => new Promise((resolve) => {
  const socket = connect(port, '127.0.0.1')
  socket.on('connect', () => { socket.destroy(); resolve(true) })
  socket.on('error', () => resolve(false))
})

// ---- the service instances ------------------------------------------------------------------

interface Instance { name: string, child: ChildProcess, port: number, logs: Array<Record<string, any>> }

const api = interpolate(readCompose(COMPOSE_FILE).services.api as ComposeService, {})

async function startInstance (name: string): Promise<Instance> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/server.js')], {
    cwd: ROOT,
    // The Compose service's environment, on loopback and an ephemeral port; debug so every request
    // is logged with its client address (`info` logs only failed requests)
    env: { PATH: process.env.PATH, ...api.environment, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'debug' },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  processes.push(child)
  const logs: Array<Record<string, any>> = []
  let buffer = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk
    const lines = buffer.split('\n')
    buffer = lines.pop() as string
    logs.push(...lines.map((line) => JSON.parse(line)))
  })
  let port = 0
  await until(`${name} to listen`, () => {
    const line = logs.find((line) => /^Server listening at http:\/\/127\.0\.0\.1:[0-9]+$/.test(line.msg))
    port = Number(line?.msg.split(':').at(-1))
    if (!running(child)) throw new Error(`${name} exited`)
    return line !== undefined
  }, () => JSON.stringify(logs))
  return { name, child, port, logs }
}

/** The client addresses an instance logged for incoming requests (request.ip, after trustProxy). */
const clientsSeen = (instance: Instance): string[] =>
  instance.logs.filter((line) => line.msg === 'incoming request').map((line) => line.req.remoteAddress)

/** Log lines arrive through a pipe, a moment after the response: wait for those of `clients`. */
async function seenBy (instances: Instance[], clients: string[]): Promise<string[]> {
  const seen = (): string[] => instances.flatMap(clientsSeen).filter((address) => clients.includes(address))
  await until('the instances to log every request', () => seen().length >= clients.length, () => seen().join(), 3000).catch(() => {})
  return seen()
}

// ---- the edge -------------------------------------------------------------------------------

interface Edge { dir: string, http: number, https: number, accessLog: string, env: Record<string, string>, child?: ChildProcess }

/**
 * Renders the templates Compose mounts, with the Compose environment and loopback overrides,
 * into `dir`/conf.d like the image's entrypoint, under a main config like the image's
 * nginx.conf (which includes conf.d/*.conf in http {}), with every path inside `dir`.
 */
async function renderEdge (name: string, files: string[], upstreams: number[]): Promise<Edge> {
  const dir = join(work, name)
  mkdirSync(dir)
  const edge = mergedEdge(files)
  const [http, https, status] = [await freePort(), await freePort(), await freePort()]
  const env: Record<string, string> = {
    ...edge.environment,
    EDGE_UPSTREAM_SERVERS: upstreams.map((port) => `server 127.0.0.1:${port} max_fails=1 fail_timeout=10s;`).join(' '),
    EDGE_RESOLVER: '127.0.0.1',
    EDGE_LISTEN_HTTP: `127.0.0.1:${http}`,
    EDGE_LISTEN_STATUS: `127.0.0.1:${status}`,
    EDGE_ACCESS_LOG: join(dir, 'access.log'),
    // Stands in for a load balancer in front of the edge whose X-Forwarded-For is trusted
    EDGE_REAL_IP_FROM: '127.0.0.9'
  }
  if (files.includes(COMPOSE_TLS_FILE)) Object.assign(env, { EDGE_LISTEN_HTTPS: `127.0.0.1:${https}`, EDGE_PUBLIC_HTTPS_PORT: String(https) })
  // The image substitutes the variables that are set and pass NGINX_ENVSUBST_FILTER
  const filter = new RegExp(env.NGINX_ENVSUBST_FILTER as string)
  const shellFormat = Object.keys(env).filter((key) => filter.test(key)).map((key) => `\${${key}}`).join(' ')
  for (const { source, output } of edgeTemplates(edge.volumes)) {
    const rendered = spawnSync('envsubst', [shellFormat], { input: readText(source), env: { ...env, PATH: process.env.PATH }, encoding: 'utf8' })
    if (rendered.status !== 0) throw new Error(`envsubst ${source}: ${rendered.stderr}`)
    if (rendered.stdout.includes('${')) throw new Error(`${source}: a variable is left unrendered`)
    mkdirSync(dirname(join(dir, output)), { recursive: true })
    writeFileSync(join(dir, output), rendered.stdout)
  }
  writeFileSync(join(dir, 'nginx.conf'), `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr notice;
events { worker_connections 512; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    client_body_temp_path ${dir}/client_temp;
    proxy_temp_path ${dir}/proxy_temp;
    fastcgi_temp_path ${dir}/fastcgi_temp;
    uwsgi_temp_path ${dir}/uwsgi_temp;
    scgi_temp_path ${dir}/scgi_temp;
    sendfile on;
    keepalive_timeout 65;
    include conf.d/*.conf;
}
`)
  if (files.includes(COMPOSE_TLS_FILE)) {
    mkdirSync(join(dir, 'certs'))
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', join(dir, 'certs/tls.key'), '-out', join(dir, 'certs/tls.crt'), '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' })
    if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`)
  }
  if (asRoot) chownRecursive(dir)
  return { dir, http, https, accessLog: join(dir, 'access.log'), env }
}

function chownRecursive (dir: string): void {
  spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir])
}

function nginx (edge: Edge, extra: string[]): [string, string[]] {
  const args = ['-p', edge.dir, '-c', join(edge.dir, 'nginx.conf'), '-e', 'stderr', ...extra]
  return asRoot
    ? ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'nginx', ...args]]
    : ['nginx', args]
}

function nginxTest (edge: Edge): { status: number | null, output: string } {
  const [command, args] = nginx(edge, ['-t'])
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 })
  return { status: result.status, output: result.stdout + result.stderr }
}

async function startEdge (edge: Edge): Promise<void> {
  const [command, args] = nginx(edge, ['-g', 'daemon off;'])
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  processes.push(child)
  edge.child = child
  await until('nginx to listen', async () => {
    if (!running(child)) throw new Error(`nginx exited: ${stderr}`)
    return await accepts(edge.http)
  }, () => stderr)
}

/** The edge's access log line for a client (nginx writes it as the request ends). */
async function edgeLogLine (edge: Edge, from: string): Promise<string> {
  const find = (): string | undefined => readFileSync(edge.accessLog, 'utf8').split('\n').find((line) => line.startsWith(`${from} `))
  await until(`the access log line of ${from}`, () => find() !== undefined, () => '', 3000)
  return find() as string
}

// ---- an HTTP client that can pick its source address ----------------------------------------

interface Reply { status: number, headers: IncomingHttpHeaders, text: string, json: () => any }

interface Send {
  port: number
  path?: string
  method?: string
  headers?: Record<string, string | number>
  body?: string
  /** Source address: every 127.0.0.0/8 address is this host's loopback, a distinct client to nginx */
  from?: string
  tls?: { ca: string }
}

function send ({ port, path = '/api/health', method = 'GET', headers = {}, body, from = '127.0.0.1', tls }: Send): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path, method, headers, localAddress: from, agent: false as const, timeout: REQUEST_TIMEOUT }
    const req = tls === undefined ? httpRequest(options) : httpsRequest({ ...options, ca: tls.ca })
    let answered = false
    req.on('response', (res: IncomingMessage) => {
      answered = true
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk })
      res.on('end', () => resolve({ status: res.statusCode as number, headers: res.headers, text, json: () => JSON.parse(text) }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in ${REQUEST_TIMEOUT} ms`)))
    // The edge may answer 413 before it has read the whole body; that answer is what counts
    req.on('error', (error) => { if (!answered) reject(error) })
    req.end(body)
  })
}

/** JSON for `params`, padded with spaces to exactly `bytes` bytes (whitespace is valid JSON). */
function paddedJson (params: object, bytes: number): string {
  const json = JSON.stringify(params)
  return json.slice(0, -1) + ' '.repeat(bytes - json.length) + '}'
}

function assertEdgeProblem (t: Test, reply: Reply, status: number, code: string): void {
  t.equal(reply.status, status, `${status} ${code}`)
  t.equal(reply.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.equal(reply.headers['cache-control'], 'no-store')
  t.equal(reply.headers['content-language'], 'en')
  const problem = reply.json()
  t.same(Object.keys(problem), ['title', 'status', 'code', 'detail'], 'the contract\'s problem shape')
  t.match(problem, { title: String, status, code, detail: String })
}

// ---- the run ---------------------------------------------------------------------------------

t.test('docker-compose config -q accepts the Compose files', async (t) => {
  for (const files of [[COMPOSE_FILE], [COMPOSE_FILE, COMPOSE_TLS_FILE]]) {
    const result = spawnSync('docker-compose', [...files.flatMap((file) => ['-f', file]), 'config', '-q'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 })
    t.equal(result.status, 0, `docker-compose ${files.join(' + ')} config -q`, { stderr: result.stderr })
  }
})

// One source address per scenario, so the per-client rate limit of one never touches another
let nextClient = 100
const client = (): string => `127.0.0.${nextClient++}`

// Started at once; every subtest awaits it, so the root test cannot end (and tear down) meanwhile
const setup = (async () => {
  const [a, b] = await Promise.all([startInstance('instance A'), startInstance('instance B')])
  const edge = await renderEdge('edge', [COMPOSE_FILE], [a.port, b.port])
  const tlsEdge = await renderEdge('edge-tls', [COMPOSE_FILE, COMPOSE_TLS_FILE], [a.port, b.port])
  return { a, b, edge, tlsEdge, burst: Number(edge.env.EDGE_RATE_BURST) }
})()
// A failure is reported by every subtest that awaits it
setup.catch(() => {})

t.test('nginx -t passes for the rendered edge, with and without TLS', async (t) => {
  const { edge, tlsEdge } = await setup
  for (const config of [edge, tlsEdge]) {
    const { status, output } = nginxTest(config)
    t.equal(status, 0, output)
    t.match(output, /syntax is ok[\s\S]*test is successful/)
  }
  await startEdge(edge)
  await startEdge(tlsEdge)
})

t.test('requests are spread over both instances, which log the client the edge saw', async (t) => {
  const { a, b, edge } = await setup
  const clients = Array.from({ length: 20 }, client)
  for (const from of clients) t.equal((await send({ port: edge.http, from })).status, 200)
  await seenBy([a, b], clients)
  const seenA = clientsSeen(a).filter((address) => clients.includes(address))
  const seenB = clientsSeen(b).filter((address) => clients.includes(address))
  t.ok(seenA.length > 0 && seenB.length > 0, `both instances answered (A ${seenA.length}, B ${seenB.length})`)
  // Every request logged once, under its client's address, although every socket the
  // instances see comes from nginx at 127.0.0.1: the address is X-Forwarded-For's
  t.same([...seenA, ...seenB].sort(), [...clients].sort())
})

t.test('the built server answers every generator, health and Swagger UI through the edge', async (t) => {
  // dist/server.js is one bundle, with Swagger UI's packages loaded from node_modules at run time
  const { edge } = await setup
  for (const type of GENERATORS) {
    const reply = await send({ port: edge.http, path: `/api/generate/${type}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    t.equal(reply.status, 200, type)
    t.equal(reply.json().type, type)
  }
  t.match((await send({ port: edge.http })).json(), { status: 'ok', service: 'randgen', version: String })
  const page = await send({ port: edge.http, path: '/docs/' })
  t.equal(page.status, 200, '/docs/')
  t.match(page.text, /swagger-ui/)
  const css = await send({ port: edge.http, path: '/docs/static/swagger-ui.css' })
  t.equal(css.status, 200, 'a Swagger UI static file')
  t.match((await send({ port: edge.http, path: '/docs/json' })).json(), { openapi: String, paths: Object })
})

t.test('X-Forwarded-For is trusted from the configured outer proxy only', async (t) => {
  const { a, b, edge } = await setup
  t.equal((await send({ port: edge.http, from: '127.0.0.9', headers: { 'x-forwarded-for': '203.0.113.7' } })).status, 200)
  const spoofer = client()
  t.equal((await send({ port: edge.http, from: spoofer, headers: { 'x-forwarded-for': '198.51.100.23' } })).status, 200)
  const seen = await seenBy([a, b], ['203.0.113.7', spoofer, '198.51.100.23'])
  t.ok(seen.includes('203.0.113.7'), 'the client behind the trusted proxy')
  t.ok(seen.includes(spoofer), 'anyone else: the TCP peer')
  t.notOk(seen.includes('198.51.100.23'), 'a forged X-Forwarded-For is ignored')
})

t.test('a burst from one client gets 429 problem+json with Retry-After; others are unaffected', async (t) => {
  const { edge, burst } = await setup
  const from = client()
  const statuses: number[] = []
  let limited: Reply | undefined
  for (let i = 0; i < burst * 3; i++) {
    const reply = await send({ port: edge.http, from })
    statuses.push(reply.status)
    limited ??= reply.status === 429 ? reply : undefined
  }
  t.ok(statuses.slice(0, burst + 1).every((status) => status === 200), `the first ${burst + 1} pass (burst ${burst})`)
  t.ok(statuses.every((status) => status === 200 || status === 429))
  t.ok(limited !== undefined, `then 429 (${statuses.filter((status) => status === 429).length} of ${statuses.length})`)
  assertEdgeProblem(t, limited as Reply, 429, 'RATE_LIMITED')
  t.match(limited?.headers['retry-after'], /^[1-9][0-9]*$/, 'Retry-After in seconds')
  t.equal((await send({ port: edge.http, from: client() })).status, 200, 'another client still gets 200')
})

t.test('a 48 KiB X-Data passes the edge; a larger header gets 431 from the edge', async (t) => {
  const { edge } = await setup
  // 36,864 bytes of JSON are exactly 49,152 Base64 characters
  const xData = Buffer.from(paddedJson({ length: 41 }, 36_864)).toString('base64')
  t.equal(xData.length, 49_152)
  const reply = await send({ port: edge.http, path: '/api/generate/password', headers: { 'x-data': xData }, from: client() })
  t.equal(reply.status, 200)
  t.equal(reply.json().values[0].length, 41, 'the app read the parameters from it')
  const from = client()
  const tooLarge = await send({ port: edge.http, path: '/api/generate/password', headers: { 'x-data': 'A'.repeat(70_000) }, from })
  assertEdgeProblem(t, tooLarge, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE')
  t.match(await edgeLogLine(edge, from), / 431 .* upstream=- /, 'answered by the edge itself')
})

t.test('bodies: 65,536 bytes pass, more gets 413 problem+json from the edge', async (t) => {
  const { edge } = await setup
  const post = (bytes: number, from: string): Promise<Reply> => send({
    port: edge.http,
    path: '/api/generate/password',
    method: 'POST',
    from,
    headers: { 'content-type': 'application/json' },
    body: paddedJson({ length: 42 }, bytes)
  })
  const atLimit = await post(65_536, client())
  t.equal(atLimit.status, 200, 'the contract\'s limit, through the edge')
  t.equal(atLimit.json().values[0].length, 42)
  for (const bytes of [65_537, 66_560]) {
    const from = client()
    assertEdgeProblem(t, await post(bytes, from), 413, 'PAYLOAD_TOO_LARGE')
    t.match(await edgeLogLine(edge, from), / 413 .* upstream=- /, `${bytes} bytes: answered by the edge itself`)
  }
})

t.test('query strings and X-Data stay out of the edge access log', async (t) => {
  const { edge } = await setup
  const from = client()
  await send({ port: edge.http, path: '/api/generate/password?secret=hunter2', headers: { 'x-data': Buffer.from('{"length":7}').toString('base64') }, from })
  const log = readFileSync(edge.accessLog, 'utf8')
  t.match(log, new RegExp(`^${from.replace(/\./g, '\\.')} .*"GET /api/generate/password HTTP/1\\.1" 200 `, 'm'))
  t.notMatch(log, 'hunter2')
  t.notMatch(log, Buffer.from('{"length":7}').toString('base64'))
})

t.test('TLS: HTTPS with HSTS, plain HTTP redirected with 308', async (t) => {
  const { tlsEdge } = await setup
  const ca = readFileSync(join(tlsEdge.dir, 'certs/tls.crt'), 'utf8')
  const secure = await send({ port: tlsEdge.https, tls: { ca }, from: client() })
  t.equal(secure.status, 200)
  t.equal(secure.headers['strict-transport-security'], `max-age=${tlsEdge.env.EDGE_HSTS_MAX_AGE}; includeSubDomains`, 'one HSTS header')
  const plain = await send({ port: tlsEdge.http, path: '/api/generate/uuid?x=1', method: 'POST', from: client() })
  t.equal(plain.status, 308)
  t.equal(plain.headers.location, `https://127.0.0.1:${tlsEdge.https}/api/generate/uuid?x=1`)
  t.equal(plain.headers['strict-transport-security'], undefined, 'no HSTS over plain HTTP')
  const problem = await send({ port: tlsEdge.https, tls: { ca }, path: '/api/generate/password', headers: { 'x-data': 'A'.repeat(70_000) }, from: client() })
  assertEdgeProblem(t, problem, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE')
  t.ok(problem.headers['strict-transport-security'], 'the edge\'s own errors carry HSTS too')
})

t.test('one instance killed: the edge keeps answering 200 from the other', async (t) => {
  const { a, b, edge } = await setup
  a.child.kill('SIGKILL')
  await once(a.child, 'exit')
  const clients = Array.from({ length: 10 }, client)
  for (const [i, from] of clients.entries()) {
    const reply = i % 2 === 0
      ? await send({ port: edge.http, from })
      : await send({ port: edge.http, from, path: '/api/generate/seq', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    t.equal(reply.status, 200, `request ${i + 1}`)
  }
  t.same((await seenBy([b], clients)).sort(), [...clients].sort(), 'all answered by B')
})

t.test('no instance left: 502 problem+json from the edge', async (t) => {
  const { b, edge } = await setup
  b.child.kill('SIGKILL')
  await once(b.child, 'exit')
  assertEdgeProblem(t, await send({ port: edge.http, from: client() }), 502, 'BAD_GATEWAY')
})
