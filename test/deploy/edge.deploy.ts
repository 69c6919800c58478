// `npm run test:deploy`: the Compose edge for real, without a Docker engine. Two built
// instances (`node dist/server.js`, as the image runs) listen on loopback; Debian's nginx
// runs the repo's nginx.conf and templates, rendered with envsubst after the mounted entrypoint
// scripts as the nginx image renders them, with the Compose file's settings except for the
// upstream addresses, listen ports, socket directory and file paths. Needs nginx with the stream
// module, envsubst, docker-compose and openssl on PATH and `npm run build` first (the script
// does it).
import t, { type Test } from 'tap'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createServer, connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { once } from 'node:events'
import {
  COMPOSE_FILE, COMPOSE_TLS_FILE, ROOT, edgeTemplates, entrypointEnvironment, interpolate, mergedEdge, mounts, readCompose,
  readText, type ComposeService
} from './deploy-files.js'
import { GENERATORS } from '../helper.js'
import { PAGE_CSP, SECURITY_HEADERS } from '../../src/http/security-headers.js'
import { X_DATA_MAX_LENGTH } from '../../src/http/x-data.js'

const REQUEST_TIMEOUT = 5000
const START_TIMEOUT = 20_000
// nginx drops privileges only as root; run it as nobody then, like the image's unprivileged edge
const NOBODY = 65534
const asRoot = process.getuid?.() === 0
// The trusted outer proxy (EDGE_REAL_IP_FROM) of the rendered edges: a loopback address of its own
const OUTER_PROXY = '127.0.0.9'

for (const tool of ['nginx', 'envsubst', 'docker-compose', 'openssl']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    throw new Error(`${tool} is not installed (.ci/run installs it: nginx-light, gettext-base, docker-compose, openssl)`)
  }
}

/**
 * The line that gives this nginx the stream module: none where it is built in (the image),
 * load_module where it is a dynamic module (Debian's, from libnginx-mod-stream).
 */
function streamModule (): string {
  const built = spawnSync('nginx', ['-V'], { encoding: 'utf8' }).stderr
  if (/--with-stream(\s|$)/.test(built)) return ''
  const module = join(/--modules-path=(\S+)/.exec(built)?.[1] ?? '/usr/lib/nginx/modules', 'ngx_stream_module.so')
  if (!/--with-stream=dynamic/.test(built) || !existsSync(module)) {
    throw new Error(`nginx has no stream module (${module}); .ci/run installs it: libnginx-mod-stream`)
  }
  return `load_module ${module};\n`
}
const STREAM_MODULE = streamModule()

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

async function startInstance (name: string, settings: Record<string, string> = {}): Promise<Instance> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/server.js')], {
    cwd: ROOT,
    // The Compose service's environment, on loopback and ephemeral ports (two instances share this
    // host, where each replica has a container of its own for the metrics port); debug so every
    // request is logged with its client address (`info` logs only failed requests)
    env: { PATH: process.env.PATH, ...api.environment, ...settings, HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'debug' },
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

interface Edge {
  dir: string
  http: number
  https: number
  accessLog: string
  errorLog: string
  env: Record<string, string>
  child?: ChildProcess
}

/**
 * Renders the templates Compose mounts, with the Compose environment and loopback overrides,
 * after the entrypoint scripts Compose mounts, into `dir`/conf.d like the image's entrypoint,
 * under the nginx.conf Compose mounts, with every path inside `dir`.
 */
async function renderEdge (name: string, files: string[], upstreams: number[], outerProxy: string | null = OUTER_PROXY): Promise<Edge> {
  const dir = join(work, name)
  mkdirSync(dir)
  const edge = mergedEdge(files)
  const [http, https, status] = [await freePort(), await freePort(), await freePort()]
  // Compose's upstream entry for each instance, without the `resolve` flag (nginx >= 1.27.3;
  // npm run test:image runs it as shipped)
  const shipped = edge.environment.EDGE_UPSTREAM_SERVERS as string
  if (!/^server api:[0-9]+ resolve /.test(shipped)) throw new Error(`unexpected EDGE_UPSTREAM_SERVERS: ${shipped}`)
  const overrides: Record<string, string> = {
    EDGE_UPSTREAM_SERVERS: upstreams.map((port) => shipped.replace(/^server api:[0-9]+ resolve /, `server 127.0.0.1:${port} `)).join(' '),
    EDGE_RESOLVER: '127.0.0.1',
    EDGE_LISTEN_HTTP: `127.0.0.1:${http}`,
    EDGE_LISTEN_STATUS: `127.0.0.1:${status}`,
    EDGE_SOCKET_DIR: dir,
    EDGE_ACCESS_LOG: join(dir, 'access.log')
  }
  // Stands in for a load balancer in front of the edge whose X-Forwarded-For is trusted
  if (outerProxy !== null) overrides.EDGE_REAL_IP_FROM = outerProxy
  // The publish value bound to a host address, as Compose passes it (EDGE_HTTPS_PUBLISH)
  if (files.includes(COMPOSE_TLS_FILE)) Object.assign(overrides, { EDGE_LISTEN_HTTPS: `127.0.0.1:${https}`, EDGE_PUBLIC_HTTPS_PORT: `127.0.0.1:${https}` })
  const env = entrypointEnvironment(edge.volumes, { ...edge.environment, ...overrides })
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
  writeFileSync(join(dir, 'nginx.conf'), mainConfig(edge.volumes, dir))
  copyFileSync('/etc/nginx/mime.types', join(dir, 'mime.types'))
  writeFileSync(join(dir, 'conf.d/00-deploy-test-paths.conf'), tempPaths(dir))
  if (files.includes(COMPOSE_TLS_FILE)) {
    mkdirSync(join(dir, 'certs'))
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', join(dir, 'certs/tls.key'), '-out', join(dir, 'certs/tls.crt'), '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' })
    if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`)
  }
  if (asRoot) chownRecursive(dir)
  return { dir, http, https, accessLog: join(dir, 'access.log'), errorLog: join(dir, 'error.log'), env }
}

/**
 * The nginx.conf Compose mounts over the image's, with its paths moved into `dir`: the files
 * under /etc/nginx, the pid file, and the error log (its level kept: what production logs is
 * what the tests read). Debian's nginx loads the stream module first.
 */
function mainConfig (volumes: string[], dir: string): string {
  const mount = mounts(volumes).find(({ target }) => target === '/etc/nginx/nginx.conf')
  if (mount === undefined) throw new Error('Compose mounts no nginx.conf')
  const text = readText(mount.source)
  const moved = text
    .replaceAll('/etc/nginx/', `${dir}/`)
    .replace(/^pid [^;]+;$/m, `pid ${dir}/nginx.pid;`)
    .replace(/^error_log [^ ;]+( [a-z]+)?;$/m, (_line, level = '') => `error_log ${dir}/error.log${level};`)
  for (const [what, before] of [['pid', /^pid /m], ['error_log', /^error_log /m]] as const) {
    if (!before.test(text)) throw new Error(`nginx.conf sets no ${what}`)
  }
  return STREAM_MODULE + moved
}

/**
 * nginx's temp paths inside `dir` (http context): the image's nginx has them built in (on tmpfs
 * in Compose); Debian's point where nobody may write.
 */
function tempPaths (dir: string): string {
  return ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((temp) => `${temp}_temp_path ${dir}/${temp}_temp;\n`).join('')
}

function chownRecursive (dir: string): void {
  spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir])
}

function nginx (dir: string, extra: string[]): [string, string[]] {
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr', ...extra]
  return asRoot
    ? ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'nginx', ...args]]
    : ['nginx', args]
}

function nginxTest (edge: Edge): { status: number | null, output: string } {
  const [command, args] = nginx(edge.dir, ['-t'])
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 })
  return { status: result.status, output: result.stdout + result.stderr }
}

/** Starts nginx on `dir`/nginx.conf, and waits until `port` accepts connections. */
async function startNginx (dir: string, port: number): Promise<ChildProcess> {
  const [command, args] = nginx(dir, ['-g', 'daemon off;'])
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  processes.push(child)
  const errorLog = (): string => existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''
  await until('nginx to listen', async () => {
    if (!running(child)) throw new Error(`nginx exited: ${stderr}${errorLog()}`)
    return await accepts(port)
  }, () => stderr + errorLog())
  return child
}

async function startEdge (edge: Edge): Promise<void> {
  edge.child = await startNginx(edge.dir, edge.http)
}

/** The resident memory of the nginx processes under `master` (its workers), in bytes. */
function workersRss (master: number): number {
  let total = 0
  for (const pid of readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name))) {
    try {
      // pid (comm) state ppid ...: comm may hold spaces, so fields are counted after its ')'
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1])
      if (ppid !== master) continue
      total += Number(/^VmRSS:\s+([0-9]+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024
    } catch {
      // A process that ended meanwhile
    }
  }
  return total
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

/**
 * The app's security headers (src/http/security-headers.ts, what every app response carries) that the
 * edge's own answers must carry too, with the same values. HSTS is the edge's: only on HTTPS.
 */
const APP_HEADERS = Object.entries(SECURITY_HEADERS).filter(([name]) => name !== 'strict-transport-security')

function assertSecurityHeaders (t: Test, headers: IncomingHttpHeaders, what: string): void {
  t.ok(APP_HEADERS.length >= 10, 'helmet\'s headers and Cache-Control')
  const missing = APP_HEADERS.filter(([name, value]) => headers[name] !== value)
  t.same(missing, [], `${what}: the app's security headers, with the app's values`, { headers })
}

function assertEdgeProblem (t: Test, reply: Reply, status: number, code: string): void {
  t.equal(reply.status, status, `${status} ${code}`)
  t.equal(reply.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.equal(reply.headers['cache-control'], 'no-store')
  t.equal(reply.headers['content-language'], 'en')
  assertSecurityHeaders(t, reply.headers, `${status} from the edge`)
  const problem = reply.json()
  t.same(Object.keys(problem), ['title', 'status', 'code', 'detail'], 'the contract\'s problem shape')
  t.match(problem, { title: String, status, code, detail: String })
}

// ---- raw connections: what an HTTP client library will not send ------------------------------

interface Raw { socket: Socket, data: () => string, closed: Promise<number> }

/** A TCP connection from `from`; `closed` resolves with the time it was closed, by either side. */
async function rawConnection (port: number, from: string, initial = ''): Promise<Raw> {
  const socket = connect({ host: '127.0.0.1', port, localAddress: from })
  let data = ''
  socket.setEncoding('utf8').on('data', (chunk: string) => { data += chunk })
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())))
  // A reset is a close too
  socket.on('error', () => {})
  await once(socket, 'connect')
  if (initial !== '') socket.write(initial)
  return { socket, data: () => data, closed }
}

/** Whether `closed` settles within `ms`. */
async function closesWithin (raw: Raw, ms: number): Promise<boolean> {
  return await Promise.race([raw.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))])
}

/** An HTTP/1.1 request by hand: the reply's status line, or undefined if the connection closed without one. */
async function rawRequest (port: number, from: string, request: string): Promise<string | undefined> {
  const raw = await rawConnection(port, from, request)
  await Promise.race([raw.closed, new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT))])
  raw.socket.destroy()
  return raw.data() === '' ? undefined : raw.data().split('\r\n')[0]
}

// ---- the run ---------------------------------------------------------------------------------

t.test('docker-compose config -q accepts the Compose files', async (t) => {
  for (const files of [[COMPOSE_FILE], [COMPOSE_FILE, COMPOSE_TLS_FILE]]) {
    const result = spawnSync('docker-compose', [...files.flatMap((file) => ['-f', file]), 'config', '-q'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 })
    t.equal(result.status, 0, `docker-compose ${files.join(' + ')} config -q`, { stderr: result.stderr })
  }
})

// One source address per scenario, so the per-client limits of one never touch another
let nextClient = 100
const client = (): string => {
  const n = nextClient++
  return `127.0.${Math.floor(n / 250)}.${n % 250 + 1}`
}

// Started at once; every subtest awaits it, so the root test cannot end (and tear down) meanwhile
const setup = (async () => {
  const [a, b] = await Promise.all([startInstance('instance A'), startInstance('instance B')])
  const edge = await renderEdge('edge', [COMPOSE_FILE], [a.port, b.port])
  const tlsEdge = await renderEdge('edge-tls', [COMPOSE_FILE, COMPOSE_TLS_FILE], [a.port, b.port])
  return { a, b, edge, tlsEdge, burst: Number(edge.env.EDGE_RATE_BURST), connLimit: Number(edge.env.EDGE_CONN_LIMIT) }
})()
// A failure is reported by every subtest that awaits it
setup.catch(() => {})

t.test('Image finding "the stack does not start with its defaults": the edge with EDGE_REAL_IP_FROM unset passes nginx -t', async (t) => {
  // The entrypoint script once wrote 255.255.255.255/32 into `geo`, which nginx refuses
  const defaults = await renderEdge('edge-defaults', [COMPOSE_FILE], [1], null)
  t.equal(defaults.env.EDGE_REAL_IP_FROM, 'unix:', 'Compose\'s default')
  const { status, output } = nginxTest(defaults)
  t.equal(status, 0, output)
})

t.test('nginx -t passes for the rendered edge, with and without TLS', async (t) => {
  const { edge, tlsEdge } = await setup
  for (const config of [edge, tlsEdge]) {
    const { status, output } = nginxTest(config)
    t.equal(status, 0, output)
    t.match(output, /syntax is ok[\s\S]*test is successful/)
  }
  await startEdge(edge)
  await startEdge(tlsEdge)
  // The client_header_timeout test waits 10 s: its connections are opened now and checked
  // near the end, while the other tests run
  headerTimeout = watchHeaderTimeout(edge)
  headerTimeout.catch(() => {})
})

interface HeaderTimeout { opened: number, idle: Raw, halfSent: Raw }
let headerTimeout: Promise<HeaderTimeout> | undefined

async function watchHeaderTimeout (edge: Edge): Promise<HeaderTimeout> {
  const opened = Date.now()
  const idle = await rawConnection(edge.http, client())
  const halfSent = await rawConnection(edge.http, client(), 'GET /api/health HTTP/1.1\r\nHost: randgen\r\nX-Data: eyJsZW5n')
  return { opened, idle, halfSent }
}

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

t.test('/mcp through the edge: a tool call answered, counted by the same per-client rate limit (CONTRACT §11)', async (t) => {
  const { edge, burst } = await setup
  const from = client()
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'generate_uuid', arguments: {} } })
  const statuses: number[] = []
  let first: Reply | undefined
  let limited: Reply | undefined
  for (let i = 0; i < burst * 3; i++) {
    const reply = await send({ port: edge.http, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json' }, body, from })
    statuses.push(reply.status)
    first ??= reply
    limited ??= reply.status === 429 ? reply : undefined
  }
  t.equal(first?.status, 200)
  t.equal(first?.json().id, 7)
  t.equal(first?.json().result.structuredContent.type, 'uuid')
  t.ok(statuses.slice(0, burst + 1).every((status) => status === 200), `the first ${burst + 1} pass (burst ${burst})`)
  t.ok(limited !== undefined, 'then 429, as for the generator routes')
  assertEdgeProblem(t, limited as Reply, 429, 'RATE_LIMITED')
})

t.test('the page and its assets through the edge: their CSP, no-store for /, immutable for assets, compressed assets only', async (t) => {
  const { edge } = await setup
  const page = await send({ port: edge.http, path: '/', from: client() })
  t.equal(page.status, 200, '/')
  t.equal(page.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(page.headers['cache-control'], 'no-store')
  t.equal(page.headers['content-security-policy'], PAGE_CSP)
  const names = [...page.text.matchAll(/"\/assets\/([^"]+)"/g)].map((match) => match[1] as string)
  t.equal(names.length, 3, 'the script, the stylesheet and the icon')
  for (const name of names) {
    const from = client()
    const asset = await send({ port: edge.http, path: `/assets/${name}`, from })
    t.equal(asset.status, 200, name)
    t.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable', `${name}: immutable survives the edge`)
    t.equal(asset.headers['content-security-policy'], PAGE_CSP, name)
    t.equal(asset.headers['content-encoding'], undefined, `${name}: plain for a client that does not ask for gzip`)
    const gzipped = await send({ port: edge.http, path: `/assets/${name}`, from, headers: { 'accept-encoding': 'gzip' } })
    t.equal(gzipped.headers['cache-control'], 'public, max-age=31536000, immutable', `${name}, gzip: still immutable`)
    if (!name.endsWith('.svg')) t.equal(gzipped.headers['content-encoding'], 'gzip', `${name}: compressed when asked`)
  }
  const missing = await send({ port: edge.http, path: '/assets/page-0000000000000000.js', from: client() })
  t.equal(missing.status, 404, 'an unknown asset: the app\'s 404')
  t.equal(missing.json().detail, 'There is no route GET /assets/page-0000000000000000.js.', 'the app\'s problem document, not the edge\'s')
  const answer = await send({ port: edge.http, path: '/api/generate/password', method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' }, body: '{}', from: client() })
  t.equal(answer.status, 200)
  t.equal(answer.headers['content-encoding'], undefined, 'API answers are never compressed (BREACH)')
})

t.test('X-Forwarded-For is trusted from the configured outer proxy only', async (t) => {
  const { a, b, edge } = await setup
  t.equal((await send({ port: edge.http, from: OUTER_PROXY, headers: { 'x-forwarded-for': '198.51.100.99, 203.0.113.7' } })).status, 200)
  const spoofer = client()
  t.equal((await send({ port: edge.http, from: spoofer, headers: { 'x-forwarded-for': '198.51.100.23' } })).status, 200)
  const seen = await seenBy([a, b], ['203.0.113.7', spoofer])
  t.ok(seen.includes('203.0.113.7'), 'the client behind the trusted proxy: the last address it added')
  t.ok(seen.includes(spoofer), 'anyone else: the TCP peer')
  const all = [a, b].flatMap(clientsSeen)
  t.notOk(all.includes('198.51.100.99'), 'not an address the client wrote before it')
  t.notOk(all.includes('198.51.100.23'), 'a forged X-Forwarded-For is ignored')
  t.equal((await send({ port: edge.http, from: OUTER_PROXY, path: '/api/generate/uuid?own=1' })).status, 200)
  t.match(await edgeLogLine(edge, OUTER_PROXY), /"GET \/api\/generate\/uuid HTTP\/1\.1" 200 /, 'the trusted proxy without X-Forwarded-For is its own client')
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

const HEALTH = 'GET /api/health HTTP/1.1\r\nHost: randgen\r\nConnection: close\r\n\r\n'

/** `count` open connections from `from`, every other one with a header half sent. */
async function openConnections (port: number, from: string, count: number): Promise<Raw[]> {
  const raws: Raw[] = []
  for (let i = 0; i < count; i++) raws.push(await rawConnection(port, from, i % 2 === 0 ? '' : 'GET /api/health HTTP/1.1\r\nHost: rand'))
  // Accepted and counted by nginx before the test goes on
  await new Promise((resolve) => setTimeout(resolve, 300))
  return raws
}

async function closeAll (raws: Raw[]): Promise<void> {
  for (const raw of raws) raw.socket.destroy()
  await Promise.all(raws.map((raw) => raw.closed))
}

/**
 * `count` requests in progress for the client that the trusted outer proxy names `forwardedFor`:
 * POSTs whose body is still coming. Counted by the edge before the test goes on.
 */
async function requestsInProgress (port: number, forwardedFor: string, count: number, path = '/api/generate/password'): Promise<Raw[]> {
  const pending = await Promise.all(Array.from({ length: count }, () => rawConnection(port, OUTER_PROXY,
    `POST ${path} HTTP/1.1\r\nHost: randgen\r\nX-Forwarded-For: ${forwardedFor}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{`)))
  await new Promise((resolve) => setTimeout(resolve, 300))
  return pending
}

/** A GET that is answered, retried while the edge has not yet seen closed connections go. */
async function servedAgain (port: number, from: string): Promise<boolean> {
  let status: number | undefined
  await until(`${from} to be served again`, async () => {
    status = (await send({ port, from }).catch(() => undefined))?.status
    return status === 200
  }, () => String(status), 3000).catch(() => {})
  return status === 200
}

t.test('Edge finding "no limit_conn": the (N+1)th idle connection from one address is refused while another address is still served', async (t) => {
  const { edge, tlsEdge, connLimit } = await setup
  t.ok(connLimit >= 4, `EDGE_CONN_LIMIT ${connLimit}`)
  for (const [name, port] of [['HTTP', edge.http], ['HTTPS', tlsEdge.https]] as const) {
    const from = client()
    // Idle connections and half-sent headers: what http's limit_conn would not count
    const open = await openConnections(port, from, connLimit)
    t.same(open.filter((raw) => raw.socket.closed), [], `${name}: ${connLimit} idle connections stay open`)
    const refused = await rawConnection(port, from, HEALTH)
    t.ok(await closesWithin(refused, 2000), `${name}: connection ${connLimit + 1} from ${from} is closed at once`)
    t.equal(refused.data(), '', 'without an answer')
    if (name === 'HTTP') {
      t.equal((await send({ port, from: client() })).status, 200, 'another address is still served')
    } else {
      const ca = readFileSync(join(tlsEdge.dir, 'certs/tls.crt'), 'utf8')
      t.equal((await send({ port, from: client(), tls: { ca } })).status, 200, 'another address is still served')
    }
    t.same(open.filter((raw) => raw.socket.closed), [], 'the first connections are still open')
    await closeAll(open)
    if (name === 'HTTP') t.ok(await servedAgain(port, from), 'once they are closed, the address is served again')
  }
})

t.test('Edge finding "no limit_conn": the trusted outer proxy is many clients, each limited behind it', async (t) => {
  const { edge, connLimit } = await setup
  // The proxy's own connections are not counted per address: it carries many clients
  const open = await openConnections(edge.http, OUTER_PROXY, connLimit + 2)
  t.same(open.filter((raw) => raw.socket.closed), [], `${connLimit + 2} connections from the outer proxy stay open`)
  const through = await rawRequest(edge.http, OUTER_PROXY, 'GET /api/health HTTP/1.1\r\nHost: randgen\r\nX-Forwarded-For: 203.0.113.60\r\nConnection: close\r\n\r\n')
  t.equal(through, 'HTTP/1.1 200 OK', 'and one more is served')
  await closeAll(open)
  // A client behind it: at most EDGE_CONN_LIMIT requests in progress (here POSTs whose body is
  // still coming), then 429 problem+json with Retry-After
  const pending = await requestsInProgress(edge.http, '203.0.113.61', connLimit)
  const limited = await send({ port: edge.http, from: OUTER_PROXY, headers: { 'x-forwarded-for': '203.0.113.61' } })
  assertEdgeProblem(t, limited, 429, 'RATE_LIMITED')
  t.match(limited.headers['retry-after'], /^[1-9][0-9]*$/, 'Retry-After in seconds')
  t.equal((await send({ port: edge.http, from: OUTER_PROXY, headers: { 'x-forwarded-for': '203.0.113.62' } })).status, 200, 'another client behind the proxy is served')
  await closeAll(pending)
})

t.test('Edge finding "limit_req logs the request line": no request line reaches error.log at the default level', async (t) => {
  const { edge, burst, connLimit } = await setup
  const before = statSync(edge.errorLog).size
  const secret = 'hunter2secret'
  // limit_req: 429
  const from = client()
  let limited = 0
  for (let i = 0; i < burst * 2; i++) {
    limited += (await send({ port: edge.http, from, path: `/api/generate/password?secret=${secret}` })).status === 429 ? 1 : 0
  }
  t.ok(limited > 0, `${limited} answers were 429`)
  // limit_conn, http (requests in progress of a client behind the outer proxy): 429
  const pending = await requestsInProgress(edge.http, '203.0.113.70', connLimit, `/api/generate/password?secret=${secret}`)
  const overLimit = await send({ port: edge.http, from: OUTER_PROXY, path: `/api/generate/password?secret=${secret}`, headers: { 'x-forwarded-for': '203.0.113.70' } })
  t.equal(overLimit.status, 429, 'a request over the per-client limit_conn')
  // limit_conn, stream: a refused connection
  const address = client()
  const open = await openConnections(edge.http, address, connLimit)
  t.ok(await closesWithin(await rawConnection(edge.http, address, `GET /?secret=${secret} HTTP/1.1\r\nHost: randgen\r\n\r\n`), 2000), 'a refused connection')
  await closeAll([...open, ...pending])
  // nginx writes its error log as it goes; give it a moment
  await new Promise((resolve) => setTimeout(resolve, 300))
  const logged = readFileSync(edge.errorLog, 'utf8').slice(before)
  t.notMatch(logged, secret, 'no query string', { logged })
  t.notMatch(logged, 'request:', 'no request line', { logged })
  t.notMatch(logged, /limiting (requests|connections)/, 'rejections are logged below the error_log level', { logged })
})

/** The /64 of an IPv6 address given as eight 16-bit groups, as the edge's key map writes it. */
const slash64 = (groups: number[]): string => groups.slice(0, 4).map((group) => group.toString(16)).join(':') + '::/64'

t.test('Edge finding "the rate limit keys on the full IPv6 address": one /64 shares a bucket, another /64 does not', async (t) => {
  const { a, b, edge, burst } = await setup
  // Clients behind the trusted outer proxy, named by its X-Forwarded-For (the direct listener
  // is IPv4 only, as Compose publishes it). Alternating between two clients, 2 × (burst + 1)
  // requests: separate buckets pass them all, one shared bucket cannot.
  const alternate = async (first: string, second: string): Promise<number[]> => {
    const statuses: number[] = []
    for (let i = 0; i < 2 * (burst + 1); i++) {
      statuses.push((await send({ port: edge.http, from: OUTER_PROXY, headers: { 'x-forwarded-for': i % 2 === 0 ? first : second } })).status)
    }
    return statuses
  }
  const sameSlash64 = await alternate('2001:db8:7:1::a', '2001:db8:7:1:ffff:ffff:ffff:ffff')
  t.ok(sameSlash64.includes(429), `two addresses in one /64 share a bucket (${sameSlash64.filter((s) => s === 429).length} of ${sameSlash64.length} limited)`)
  const otherSlash64 = await alternate('2001:db8:7:2::a', '2001:db8:7:3::a')
  t.same(otherSlash64.filter((status) => status !== 200), [], 'addresses in two /64s have a bucket each')
  t.equal((await send({ port: edge.http, from: OUTER_PROXY, headers: { 'x-forwarded-for': '2001:db8:7:4::a' } })).status, 200,
    'a client in another /64 is served while the first /64 is limited')
  // Only the limits count by /64: the app still sees (and logs) each address
  const seen = await seenBy([a, b], ['2001:db8:7:1::a', '2001:db8:7:1:ffff:ffff:ffff:ffff'])
  t.ok(seen.includes('2001:db8:7:1::a') && seen.includes('2001:db8:7:1:ffff:ffff:ffff:ffff'), 'the app logs the full addresses')
})

t.test('the client key map: IPv4 as it is, IPv6 by its /64, wherever "::" stands', async (t) => {
  const { edge } = await setup
  // A small nginx of its own that answers the key of the X-Forwarded-For it is sent, with the
  // map file the edge renders (used by its http and stream layers)
  const dir = join(work, 'key-map')
  mkdirSync(dir)
  const port = await freePort()
  writeFileSync(join(dir, 'nginx.conf'), `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log notice;
events { worker_connections 64; }
http {
    ${tempPaths(dir)}    access_log off;
    map $remote_addr $key {
        include ${join(edge.dir, 'conf.d/randgen/client-key.map')};
        default $remote_addr;
    }
    server {
        listen 127.0.0.1:${port};
        set_real_ip_from 127.0.0.1;
        real_ip_header X-Forwarded-For;
        location / { default_type text/plain; return 200 $key; }
    }
}
`)
  if (asRoot) chownRecursive(dir)
  await startNginx(dir, port)
  const keyOf = async (address: string): Promise<string> => (await send({ port, path: '/', headers: { 'x-forwarded-for': address } })).text
  const hex = (group: number, pad: boolean): string => pad ? group.toString(16).padStart(4, '0').toUpperCase() : group.toString(16)
  // Every pattern of zero and non-zero groups: every place nginx can write "::" (canonical form
  // after real_ip), each address sent written out in full, with leading zeros and upper case
  const cases: Array<[string, string]> = [['203.0.113.7', '203.0.113.7'], ['::ffff:203.0.113.8', '203.0.113.8'], ['::', '0:0:0:0::/64']]
  for (let pattern = 0; pattern < 256; pattern++) {
    const groups = Array.from({ length: 8 }, (_, i) => (pattern >> i) & 1 ? 1 + Math.floor(Math.random() * 0xffff) : 0)
    // ::ffff:a.b.c.d is an IPv4 client (checked above)
    if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) continue
    cases.push([groups.map((group) => hex(group, pattern % 2 === 0)).join(':'), slash64(groups)])
  }
  const wrong: Array<[string, string, string]> = []
  for (const [address, expected] of cases) {
    const key = await keyOf(address)
    if (key !== expected) wrong.push([address, expected, key])
  }
  t.same(wrong, [], `${cases.length} addresses, each with the key expected`)
  t.equal(await keyOf('2001:db8::1:0:0:1'), await keyOf('2001:db8:0:0:ffff::'), 'one /64 whichever zero run is compressed')
})

t.test('Edge finding "the edge\'s own errors lack the API\'s security headers": they carry the app\'s, with the same values', async (t) => {
  const { edge } = await setup
  // What the app sends, through the edge (HSTS hidden: the edge adds it on HTTPS only)
  const fromApp = await send({ port: edge.http, path: '/api/generate/nope', from: client() })
  t.equal(fromApp.status, 404)
  assertSecurityHeaders(t, fromApp.headers, 'a problem document from the app')
  t.equal(fromApp.headers['strict-transport-security'], undefined, 'no HSTS over plain HTTP')
  // The edge's own: 431 and 414 above, 413, 429 and 502 in their tests, and a request nginx
  // cannot parse (400), sent by hand
  const raw = await rawConnection(edge.http, client(), 'GET /api/health HTTP/1.1\r\nHost: randgen\r\nnot a header line\r\n\r\n')
  await closesWithin(raw, REQUEST_TIMEOUT)
  const [head = '', body = ''] = raw.data().split('\r\n\r\n')
  const [statusLine, ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(lines.map((line) => line.split(/: (.*)/s).slice(0, 2)).map(([name, value]) => [(name as string).toLowerCase(), value])) as IncomingHttpHeaders
  assertEdgeProblem(t, { status: Number(statusLine?.split(' ')[1]), headers, text: body, json: () => JSON.parse(body) }, 400, 'BAD_REQUEST')
  t.equal(headers['strict-transport-security'], undefined, 'no HSTS over plain HTTP')
  // The location of the edge's 414 answers only nginx itself: anyone else gets a 404 like the app's
  assertEdgeProblem(t, await send({ port: edge.http, path: '/.randgen-edge/414', from: client() }), 404, 'NOT_FOUND')
})

t.test('Edge finding "200 half-sent 250 KiB headers": header buffers fit one 48 KiB X-Data line and no more', async (t) => {
  const { edge } = await setup
  // 36,864 bytes of JSON are exactly 49,152 Base64 characters
  const xData = Buffer.from(paddedJson({ length: 41 }, 36_864)).toString('base64')
  t.equal(xData.length, X_DATA_MAX_LENGTH)
  const reply = await send({ port: edge.http, path: '/api/generate/password', headers: { 'x-data': xData, 'x-language': 'de', 'accept-language': 'fr' }, from: client() })
  t.equal(reply.status, 200, 'X-Data of 49,152 characters, with other headers beside it')
  t.equal(reply.json().values[0].length, 41, 'the app read the parameters from it')
  // One character more, the 250 KiB header of the finding, and a 48 KiB request target
  for (const [what, request] of [
    ['49,153 characters', { path: '/api/generate/password', headers: { 'x-data': xData + 'A' } }],
    ['250 KiB', { path: '/api/generate/password', headers: { 'x-data': 'A'.repeat(250 * 1024) } }],
    ['a request target as long', { path: '/api/generate/password?' + 'a'.repeat(X_DATA_MAX_LENGTH) }]
  ] as const) {
    const from = client()
    const tooLarge = await send({ port: edge.http, from, ...request })
    if (what.startsWith('a request target')) assertEdgeProblem(t, tooLarge, 414, 'URI_TOO_LONG')
    else assertEdgeProblem(t, tooLarge, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE')
    t.match(await edgeLogLine(edge, from), / 4(31|14) .* upstream=- /, `${what}: answered by the edge itself`)
  }
})

t.test('Edge finding "200 half-sent 250 KiB headers took the worker from 5 to 56 MiB": from one address, a few MiB', async (t) => {
  const { edge, connLimit } = await setup
  const master = edge.child?.pid as number
  const before = workersRss(master)
  t.ok(before > 0, `the workers' RSS: ${(before / 2 ** 20).toFixed(1)} MiB`)
  // 200 connections, each with a header line as long as the buffers take, never finished
  const from = client()
  const raws: Raw[] = []
  for (let i = 0; i < 200; i++) raws.push(await rawConnection(edge.http, from, 'GET /api/health HTTP/1.1\r\nHost: randgen\r\nX-Data: ' + 'A'.repeat(49_000)))
  await new Promise((resolve) => setTimeout(resolve, 500))
  const open = raws.filter((raw) => !raw.socket.closed)
  const grown = workersRss(master) - before
  t.equal(open.length, connLimit, `${connLimit} held open, the others closed`)
  t.ok(grown < 8 * 2 ** 20, `the workers grew by ${(grown / 2 ** 20).toFixed(1)} MiB (the finding: 51 MiB)`)
  t.equal((await send({ port: edge.http, from: client() })).status, 200, 'another address is served')
  await closeAll(raws)
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
  await edgeLogLine(edge, from)
  const log = readFileSync(edge.accessLog, 'utf8')
  t.match(log, new RegExp(`^${from.replace(/\./g, '\\.')} .*"GET /api/generate/password HTTP/1\\.1" 200 `, 'm'))
  t.notMatch(log, 'hunter2')
  t.notMatch(log, Buffer.from('{"length":7}').toString('base64'))
})

t.test('TLS: HTTPS with HSTS, plain HTTP redirected with 308', async (t) => {
  const { a, b, tlsEdge } = await setup
  const ca = readFileSync(join(tlsEdge.dir, 'certs/tls.crt'), 'utf8')
  const from = client()
  const secure = await send({ port: tlsEdge.https, tls: { ca }, from })
  t.equal(secure.status, 200)
  // The client address, directly and behind the trusted outer proxy, as over plain HTTP
  t.equal((await send({ port: tlsEdge.https, tls: { ca }, from: OUTER_PROXY, headers: { 'x-forwarded-for': '203.0.113.80' } })).status, 200)
  const spoofer = client()
  t.equal((await send({ port: tlsEdge.https, tls: { ca }, from: spoofer, headers: { 'x-forwarded-for': '203.0.113.81' } })).status, 200)
  const seen = await seenBy([a, b], [from, '203.0.113.80', spoofer])
  t.ok(seen.includes(from) && seen.includes(spoofer), 'the TCP peer')
  t.ok(seen.includes('203.0.113.80'), 'the client the trusted proxy names')
  t.notOk([a, b].flatMap(clientsSeen).includes('203.0.113.81'), 'a forged X-Forwarded-For is ignored')
  t.equal(secure.headers['strict-transport-security'], `max-age=${tlsEdge.env.EDGE_HSTS_MAX_AGE}; includeSubDomains`, 'one HSTS header')
  const plain = await send({ port: tlsEdge.http, path: '/api/generate/uuid?x=1', method: 'POST', from: client() })
  t.equal(plain.status, 308)
  t.equal(plain.headers.location, `https://127.0.0.1:${tlsEdge.https}/api/generate/uuid?x=1`)
  t.equal(plain.headers['strict-transport-security'], undefined, 'no HSTS over plain HTTP')
  const problem = await send({ port: tlsEdge.https, tls: { ca }, path: '/api/generate/password', headers: { 'x-data': 'A'.repeat(70_000) }, from: client() })
  assertEdgeProblem(t, problem, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE')
  t.equal(problem.headers['strict-transport-security'], secure.headers['strict-transport-security'], 'the edge\'s own errors carry HSTS too')
})

t.test('Edge finding "no limit_conn": a half-sent header and an idle connection are closed after client_header_timeout (10 s)', async (t) => {
  await setup
  const { opened, idle, halfSent } = await (headerTimeout as Promise<HeaderTimeout>)
  for (const [what, raw] of [['nothing sent', idle], ['a half-sent header', halfSent]] as const) {
    t.ok(await closesWithin(raw, 13_000 - (Date.now() - opened)), `${what}: closed`)
    const after = (await raw.closed - opened) / 1000
    t.ok(after >= 9.5 && after <= 12.5, `${what}: after ${after.toFixed(1)} s (10 s and nginx's timer)`)
    t.equal(raw.data(), '', 'without an answer')
  }
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

/** CONTRACT §12: an Argon2id hash at every upper bound (about a second of CPU, 64 MiB while it runs). */
const ARGON2ID_MAX = { algorithm: 'argon2id', memoryKiB: 65540, iterations: 5, parallelism: 4 }
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

t.test('Image finding "one BUSY takes a replica out for 1 s, two make the edge answer 502 to everyone": an instance answering 503 BUSY stays in', async (t) => {
  // Two instances of their own, behind an edge of its own, each hashing one at a time with none
  // waiting (CONTRACT §12.1: HASH_CONCURRENCY 1, HASH_QUEUE 0): while one hash runs, every other
  // hash request is answered 503 BUSY at once. Each is kept hashing by requests sent straight to
  // it, past the edge.
  const busyOnly = { HASH_CONCURRENCY: '1', HASH_QUEUE: '0' }
  const [c, d] = await Promise.all([startInstance('instance C', busyOnly), startInstance('instance D', busyOnly)])
  const edge = await renderEdge('edge-busy', [COMPOSE_FILE], [c.port, d.port])
  await startEdge(edge)
  const json = { 'content-type': 'application/json' }
  const hash = (port: number, from = '127.0.0.1'): Promise<Reply | undefined> =>
    send({ port, path: '/api/generate/password', method: 'POST', headers: json, body: JSON.stringify({ hash: ARGON2ID_MAX }), from }).catch(() => undefined)
  const keeping = { on: true }
  const keepers = [c, d].map(async (instance) => {
    while (keeping.on) {
      if ((await hash(instance.port))?.status !== 200) await sleep(5)
    }
  })
  for (const instance of [c, d]) {
    await until(`${instance.name} to be busy`, async () => (await hash(instance.port))?.status === 503, () => '', 10_000)
  }

  // 3 s of hash requests through the edge (each from an address of its own: no rate limit
  // between them), and uuid requests beside them
  const end = Date.now() + 3000
  const hashes: Array<{ from: string, reply: Reply | undefined }> = []
  const uuids: Array<number | string> = []
  const hashLoop = async (): Promise<void> => {
    while (Date.now() < end) {
      const from = client()
      hashes.push({ from, reply: await hash(edge.http, from) })
      await sleep(20)
    }
  }
  const uuidLoop = async (): Promise<void> => {
    while (Date.now() < end) {
      const reply = await send({ port: edge.http, path: '/api/generate/uuid', method: 'POST', headers: json, body: '{}', from: client() })
        .catch((error: Error) => error.message)
      uuids.push(typeof reply === 'string' ? reply : reply.status)
      await sleep(20)
    }
  }
  await Promise.all([hashLoop(), hashLoop(), hashLoop(), uuidLoop()])
  keeping.on = false
  await Promise.all(keepers)

  const tally = (outcomes: Array<number | string>): Record<string, number> =>
    outcomes.reduce<Record<string, number>>((counts, outcome) => ({ ...counts, [outcome]: (counts[outcome] ?? 0) + 1 }), {})
  // (a) The instances stay in: requests without a hash are answered as ever
  t.ok(uuids.length >= 20, `${uuids.length} uuid requests during the burst`)
  t.same(tally(uuids), { 200: uuids.length }, 'every uuid request 200: none the edge\'s 502 "no live upstreams"')
  // (b) Every instance busy: the app's own 503 BUSY, never the edge's 502
  const statuses = hashes.map(({ reply }) => reply?.status ?? 'no answer')
  const busy = hashes.filter(({ reply }) => reply?.status === 503)
  t.ok(busy.length > 0, `hash requests through the edge: ${JSON.stringify(tally(statuses))}`)
  t.same(tally(statuses.filter((status) => status !== 200 && status !== 503)), {}, 'every hash request 200 or 503: none the edge\'s 502')
  const notBusy = busy.filter(({ reply }) => {
    const problem = JSON.parse(reply?.text ?? '{}')
    return !(problem.code === 'BUSY' && problem.status === 503 && reply?.headers['content-type'] === 'application/problem+json; charset=utf-8' &&
      /^[1-9][0-9]*$/.test(String(reply.headers['retry-after'])))
  })
  t.same(notBusy.map(({ reply }) => ({ headers: reply?.headers, text: reply?.text })), [], `each of the ${busy.length} 503s is the app's BUSY problem document with Retry-After in whole seconds`)
  // ... tried on both instances first: a BUSY moves the request on, and takes neither out
  await sleep(300)
  const log = readFileSync(edge.accessLog, 'utf8').split('\n')
  const lines = busy.map(({ from }) => log.find((line) => line.startsWith(`${from} `)) ?? `${from}: no line`)
  const both = new RegExp(`upstream=127\\.0\\.0\\.1:(${c.port}, 127\\.0\\.0\\.1:${d.port}|${d.port}, 127\\.0\\.0\\.1:${c.port}) upstream_status=503, 503$`)
  t.same(lines.filter((line) => !both.test(line)), [], 'each BUSY tried on one instance, then the other, both answering 503')
})
