// The monitoring overlay (docker-compose.monitoring.yml) and its Prometheus files, checked
// without an engine: promtool (the Prometheus project's own checker; .ci/run installs Debian's
// `prometheus`) accepts the configuration and the rules, and the rules' unit tests pass; the
// overlay scrapes the port the api's metrics listen on, by DNS, which the edge never routes.
// (test/image/stack.image.ts runs the overlay for real.)
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { loadConfig } from '../../src/ops/config.js'
import { COMPOSE_FILE, COMPOSE_MONITORING_FILE, ROOT, interpolate, mounts, readCompose, readText } from './deploy-files.js'

const CONFIG = 'deploy/prometheus/prometheus.yml'
const RULES = 'deploy/prometheus/rules/randgen.yml'

function promtool (...args: string[]): { status: number | null, output: string } {
  const result = spawnSync('promtool', args, { cwd: ROOT, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

t.test('promtool check config and check rules pass', async (t) => {
  const config = promtool('check', 'config', CONFIG)
  t.equal(config.status, 0, config.output)
  t.match(config.output, /SUCCESS: 1 rule files found/, 'the rule file is found from the config')
  const rules = promtool('check', 'rules', RULES)
  t.equal(rules.status, 0, rules.output)
  t.match(rules.output, /SUCCESS: 5 rules found/)
  // The check fails what Prometheus would refuse, so the passes above mean something
  const dir = mkdtempSync(join(tmpdir(), 'randgen-rules-'))
  writeFileSync(join(dir, 'bad.yml'), readText(RULES).replace('up{job="randgen"} == 0', 'up{job="randgen" == 0'))
  t.not(promtool('check', 'rules', join(dir, 'bad.yml')).status, 0, 'a broken expression fails')
})

t.test('promtool test rules: each alert fires when it should and not otherwise', async (t) => {
  const result = promtool('test', 'rules', 'test/deploy/prometheus-rules.test.yml')
  t.equal(result.status, 0, result.output)
  t.match(result.output, /SUCCESS/)
  const names = [...readText(RULES).matchAll(/^ {6}- alert: (\w+)$/gm)].map(([, name]) => name)
  t.same(names, ['RandgenReplicaDown', 'RandgenNoReplicaUp', 'RandgenHigh5xxRate', 'RandgenSlowP99', 'RandgenEventLoopLag'])
  const tests = readText('test/deploy/prometheus-rules.test.yml')
  for (const name of names) t.match(tests, new RegExp(`alertname: ${name}\\n\\s+exp_alerts:\\n\\s+- exp_labels`), `${name} is shown firing`)
})

t.test('the overlay scrapes every api replica on its metrics port, by DNS', async (t) => {
  const api = interpolate(readCompose(COMPOSE_FILE), {}).services.api
  const config = loadConfig(api?.environment)
  t.equal(config.METRICS_PORT, 9100, 'metrics on in the image\'s configuration')
  t.equal(api?.ports, undefined, 'the api publishes no port: metrics stay on the Compose network')
  const edge = interpolate(readCompose(COMPOSE_FILE), {}).services.edge
  t.match(edge?.environment?.EDGE_UPSTREAM_SERVERS, new RegExp(`^server api:${config.PORT} `), 'the edge proxies the API port only')
  t.not(config.PORT, config.METRICS_PORT)

  const prometheus = parse(readText(CONFIG))
  const job = prometheus.scrape_configs.find((scrape: { job_name: string }) => scrape.job_name === 'randgen')
  t.same(job.dns_sd_configs, [{ names: ['api'], type: 'A', port: config.METRICS_PORT, refresh_interval: '10s' }], 'every A record of `api`, re-read every 10 s')
  t.equal(job.metrics_path, '/metrics')

  const overlay = interpolate(readCompose(COMPOSE_MONITORING_FILE), {}).services.prometheus as Record<string, any>
  t.match(overlay.image, /^prom\/prometheus:v[0-9]+\.[0-9]+\.[0-9]+$/, 'the official image, pinned')
  t.same(overlay.ports, ['127.0.0.1:9090:9090'], 'the UI on the host\'s loopback only')
  t.equal(overlay.read_only, true)
  t.same(overlay.cap_drop, ['ALL'])
  const mounted = new Map(mounts(overlay.volumes as string[]).map(({ source, target }) => [target, source]))
  t.equal(mounted.get('/etc/prometheus/prometheus.yml'), CONFIG)
  t.ok(overlay.command.includes('--config.file=/etc/prometheus/prometheus.yml'))
  for (const file of prometheus.rule_files as string[]) {
    t.equal(mounted.get(`/etc/prometheus/${file}`), `deploy/prometheus/${file}`, `${file} is mounted where the config names it`)
    t.ok(existsSync(join(ROOT, 'deploy/prometheus', file)))
  }
})
