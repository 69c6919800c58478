// The Kubernetes manifests (deploy/k8s/*.yaml): every document valid against the Kubernetes API's
// own schemas with unknown fields refused (test/deploy/k8s-schema.ts), and the Deployment held to
// the image the Dockerfile builds and to the limits docker-compose.yml gives the same image.
import t from 'tap'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigSchema, configAjv, type Config } from '../../src/ops/config.js'
import { ROOT, dockerfileInstructions, finalStageEnv, readCompose, readText, readYamlDocuments, type ComposeService } from './deploy-files.js'
import { manifestErrors, type Manifest } from './k8s-schema.js'

const FILES = readdirSync(join(ROOT, 'deploy/k8s')).filter((name) => name.endsWith('.yaml')).sort()
const documents = FILES.flatMap((file) => readYamlDocuments(`deploy/k8s/${file}`).map((document) => ({ file, document })))
const byKind = (kind: string): Manifest => documents.find(({ document }) => document.kind === kind)?.document as Manifest

const instructions = dockerfileInstructions(readText('Dockerfile'))
const args = (name: string): string[] => instructions.filter(({ instruction }) => instruction === name).map(({ args }) => args)
const last = (name: string): string => args(name).at(-1) as string

// The uid and gid of the `node` user and group of the official Node images, which create them
// with `groupadd --gid 1000 node && useradd --uid 1000 --gid node`
const NODE_UID = 1000
const NODE_GID = 1000

/** The Deployment and its parts, read when a test asks: a manifest the schemas refuse fails the tests, not the file. */
function workload (): { deployment: Manifest, pod: Manifest, container: Manifest, port: Manifest, podEnv: Record<string, string> } {
  const deployment = byKind('Deployment')
  const pod = deployment.spec.template.spec
  const [container] = pod.containers
  const podEnv = Object.fromEntries(container.env.map(({ name, value }: Manifest) => [name, value]))
  return { deployment, pod, container, port: container.ports[0], podEnv }
}

/** The app's configuration in the container: the image's ENV with the pod's env over it, nothing from this process. */
function containerConfig (): Config {
  const config = { ...finalStageEnv(instructions), ...workload().podEnv }
  // The AJV setup src/ops/config.ts's loadConfig uses (types coerced, defaults filled in)
  const validate = configAjv().compile<Config>(ConfigSchema)
  if (!validate(config)) throw new Error(`the container's environment is invalid: ${JSON.stringify(validate.errors)}`)
  return config
}

const composeApi = readCompose('docker-compose.yml').services.api as ComposeService & Manifest

// Kubernetes quantities: `Mi` is 2^20, `M` 10^6 (only the forms used here)
const QUANTITY_UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 }
// Docker's (and so Compose's) sizes are binary, any case: `256M`, `16m` and `64mb` are MiB
const COMPOSE_UNITS: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }

/** Bytes in a Kubernetes memory quantity. */
function quantityBytes (quantity: string): number {
  const [, number, unit = ''] = /^([0-9]+)(Ki|Mi|Gi|k|M|G)?$/.exec(quantity) ?? []
  if (number === undefined) throw new Error(`not a memory quantity: ${quantity}`)
  return Number(number) * (QUANTITY_UNITS[unit] as number)
}

/** Bytes in a Compose size. */
function composeBytes (size: string): number {
  const [, number, unit = ''] = /^([0-9]+)([kmg])?b?$/i.exec(size) ?? []
  if (number === undefined) throw new Error(`not a Compose size: ${size}`)
  return Number(number) * (COMPOSE_UNITS[unit.toLowerCase()] as number)
}

/** Seconds in a Dockerfile duration (`15s`; only whole seconds are used here). */
function seconds (duration: string | undefined): number {
  const [, number] = /^([0-9]+)s$/.exec(duration ?? '') ?? []
  if (number === undefined) throw new Error(`not a duration in seconds: ${duration}`)
  return Number(number)
}

/** CPUs in a Kubernetes CPU quantity (`1`, `100m`). */
function quantityCpus (quantity: string): number {
  const [, number, milli] = /^([0-9]+(?:\.[0-9]+)?)(m?)$/.exec(quantity) ?? []
  if (number === undefined) throw new Error(`not a CPU quantity: ${quantity}`)
  return Number(number) / (milli === 'm' ? 1000 : 1)
}

t.test('every document in deploy/k8s/*.yaml is valid against the Kubernetes 1.36 API schemas (the ServiceMonitor against the Prometheus Operator CRD\'s), unknown fields refused', async (t) => {
  for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'ServiceMonitor']) t.ok(byKind(kind), `a ${kind}`)
  const errors = await manifestErrors(documents.map(({ document }) => document))
  documents.forEach(({ file, document }, index) => {
    t.same(errors[index], [], `${file}: ${document.kind} ${document.metadata?.name} is valid`)
  })
})

t.test('the validation fails a misspelt field, a wrong type, a missing required field, a bad quantity and an unknown kind', async (t) => {
  const { deployment } = workload()
  const service = byKind('Service')
  const hpa = byKind('HorizontalPodAutoscaler')
  const mutants: Array<{ name: string, document: Manifest, change: (copy: Manifest) => void, expected: RegExp }> = [
    {
      name: 'readinessProbes, a misspelt container field',
      document: deployment,
      change: (copy) => { copy.spec.template.spec.containers[0].readinessProbes = { httpGet: { path: '/api/health', port: 'http' } } },
      expected: /'"readinessProbes"' does not exist in type 'IContainer'/
    },
    { name: 'a field where the API has none (spec.targetport)', document: service, change: (copy) => { copy.spec.targetport = 3000 }, expected: /'"targetport"' does not exist in type 'IServiceSpec'/ },
    { name: 'a misspelt top-level field (spek)', document: hpa, change: (copy) => { copy.spek = copy.spec }, expected: /'"spek"' does not exist/ },
    { name: 'replicas as a string', document: deployment, change: (copy) => { copy.spec.replicas = '2' }, expected: /^\/spec\/replicas must be integer$/ },
    {
      name: 'containerPort out of int32',
      document: deployment,
      change: (copy) => { copy.spec.template.spec.containers[0].ports[0].containerPort = 2 ** 31 },
      expected: /^\/spec\/template\/spec\/containers\/0\/ports\/0\/containerPort must match format "int32"$/
    },
    {
      name: 'a container without its required name',
      document: deployment,
      change: (copy) => { delete copy.spec.template.spec.containers[0].name },
      expected: /^\/spec\/template\/spec\/containers\/0 must have required property name$/
    },
    { name: 'an HPA without its required maxReplicas', document: hpa, change: (copy) => { delete copy.spec.maxReplicas }, expected: /^\/spec must have required property maxReplicas$/ },
    {
      name: 'a memory limit that is not a quantity (256 MB)',
      document: deployment,
      change: (copy) => { copy.spec.template.spec.containers[0].resources.limits.memory = '256 MB' },
      expected: /\/resources\/limits\/memory must match format "quantity"$/
    },
    {
      name: 'an imagePullPolicy the API does not have',
      document: deployment,
      change: (copy) => { copy.spec.template.spec.containers[0].imagePullPolicy = 'Sometimes' },
      expected: /imagePullPolicy must be equal to one of the allowed values$/
    },
    {
      name: 'a ServiceMonitor endpoint with a misspelt field (ports)',
      document: byKind('ServiceMonitor'),
      change: (copy) => { copy.spec.endpoints[0].ports = copy.spec.endpoints[0].port },
      expected: /'"ports"' does not exist/
    },
    {
      name: 'a ServiceMonitor without its required selector',
      document: byKind('ServiceMonitor'),
      change: (copy) => { delete copy.spec.selector },
      expected: /^\/spec must have required property selector$/
    },
    { name: 'a kind the API does not have (Deploymnet)', document: deployment, change: (copy) => { copy.kind = 'Deploymnet' }, expected: /^no Kubernetes schema for apiVersion apps\/v1, kind Deploymnet$/ }
  ]
  const copies = mutants.map(({ document, change }) => {
    const copy = structuredClone(document)
    change(copy)
    return copy
  })
  const errors = await manifestErrors(copies)
  mutants.forEach(({ name, expected }, index) => {
    const found = errors[index] as string[]
    t.ok(found.some((error) => expected.test(error)), `${name}: refused`, { found })
  })
})

t.test('units: Compose\'s 256M is Kubernetes\' 256Mi, not its 256M; Dockerfile durations in seconds', async (t) => {
  t.equal(composeBytes('256M'), 256 * 2 ** 20)
  t.equal(composeBytes('16m'), 16 * 2 ** 20)
  t.equal(quantityBytes('256Mi'), 256 * 2 ** 20)
  t.equal(quantityBytes('256M'), 256e6)
  t.equal(quantityBytes('64Ki'), 64 * 1024)
  t.equal(quantityBytes('1G'), 1e9)
  t.equal(quantityCpus('100m'), 0.1)
  t.equal(quantityCpus('1'), 1)
  t.throws(() => quantityBytes('256 MB'))
  t.throws(() => composeBytes('lots'))
  t.throws(() => quantityCpus('1 core'))
  t.equal(seconds('15s'), 15)
  t.throws(() => seconds('1m'))
})

t.test('Kubernetes: the pod runs as the image\'s user, read-only, with a writable /tmp', async (t) => {
  const { pod, container } = workload()
  t.equal(last('USER'), 'node', 'the image runs as node')
  t.same(pod.securityContext.runAsNonRoot, true)
  t.equal(pod.securityContext.runAsUser, NODE_UID, 'the uid of the image\'s USER node')
  t.equal(pod.securityContext.runAsGroup, NODE_GID, 'the gid of its group')
  t.same(pod.securityContext.seccompProfile, { type: 'RuntimeDefault' })
  // Nothing at container level overrides the pod's user; as Compose's read_only, cap_drop: [ALL]
  // and no-new-privileges
  t.same(container.securityContext, { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } })
  t.equal(composeApi.read_only, true, 'Compose runs the image read-only too')
  // The image writes nothing, but Node or a library may want a temporary file: /tmp stays writable,
  // in memory and as small as Compose's tmpfs
  const tmpMount = container.volumeMounts.find(({ mountPath }: Manifest) => mountPath === '/tmp')
  t.ok(tmpMount, 'a volume at /tmp')
  t.notOk(tmpMount?.readOnly, 'writable')
  const tmpVolume = pod.volumes.find(({ name }: Manifest) => name === tmpMount?.name)
  t.equal(tmpVolume?.emptyDir?.medium, 'Memory', 'an emptyDir in memory, like Compose\'s tmpfs')
  const composeTmp = (composeApi.tmpfs as string[]).find((entry) => entry.startsWith('/tmp:')) as string
  const [, composeTmpSize] = /(?:^|[:,])size=([^,]+)/.exec(composeTmp) ?? []
  t.equal(quantityBytes(tmpVolume?.emptyDir?.sizeLimit), composeBytes(composeTmpSize as string), `sizeLimit ${tmpVolume?.emptyDir?.sizeLimit} = Compose's /tmp size=${composeTmpSize}`)
})

t.test('Kubernetes: probes, ports, security context and settings agree with the image', async (t) => {
  const { deployment, container, port, podEnv } = workload()
  const image = finalStageEnv(instructions)
  t.doesNotThrow(() => containerConfig(), 'the pod\'s env passes the app\'s own config validation')
  const config = containerConfig()
  t.equal(config.HOST, '0.0.0.0', 'listens on every address')
  t.equal(podEnv.HOST, '0.0.0.0', 'HOST 0.0.0.0 in the pod\'s env too')
  t.equal(String(config.PORT), image.PORT, 'the pod\'s env keeps the image\'s PORT')
  t.equal(String(port.containerPort), last('EXPOSE'), 'containerPort = EXPOSE')
  t.equal(port.containerPort, config.PORT, 'containerPort = PORT')
  t.same(container.ports.map(({ name }: Manifest) => name), ['http', 'metrics'], 'two ports: the API and the metrics listener')
  const metricsPort = container.ports[1]
  t.equal(metricsPort.containerPort, config.METRICS_PORT, 'metrics containerPort = METRICS_PORT')
  t.equal(config.METRICS_HOST, '0.0.0.0', 'metrics listen on the pod\'s address')
  // The path the image's HEALTHCHECK asks (deploy/healthcheck.mjs), which the app serves
  t.match(last('HEALTHCHECK'), /CMD \["node", "deploy\/healthcheck\.mjs"\]$/)
  const [, healthPath] = /:\$\{port\}(\/[^`]*)`/.exec(readText('deploy/healthcheck.mjs')) ?? []
  t.equal(healthPath, '/api/health', 'the HEALTHCHECK asks /api/health')
  t.ok(JSON.parse(readText('openapi.json')).paths[healthPath as string]?.get, 'which the app serves')
  // CONTRACT §9: readiness turns 503 from SIGTERM, liveness only when the event loop stalls
  t.same(container.readinessProbe.httpGet, { path: '/readyz', port: port.name }, `readiness on /readyz at the port named ${port.name}`)
  t.same(container.livenessProbe.httpGet, { path: '/livez', port: port.name }, `liveness on /livez at the port named ${port.name}`)
  for (const path of ['/readyz', '/livez']) t.ok(JSON.parse(readText('openapi.json')).paths[path]?.get, `the app serves ${path}`)
  // The HEALTHCHECK is the image's own word on when the service is unhealthy; liveness (which
  // restarts the container) says the same, failures in the start period not counted
  const options = Object.fromEntries([...last('HEALTHCHECK').split(' CMD ')[0]?.matchAll(/--([a-z-]+)=(\S+)/g) ?? []].map(([, name, value]) => [name, value]))
  const { livenessProbe } = container
  t.equal(livenessProbe.periodSeconds, seconds(options.interval), `liveness every ${options.interval}, the HEALTHCHECK's interval`)
  t.equal(livenessProbe.timeoutSeconds, seconds(options.timeout), `within ${options.timeout}, its timeout`)
  t.equal(livenessProbe.failureThreshold, Number(options.retries), `${options.retries} failures, its retries`)
  t.equal(livenessProbe.initialDelaySeconds, seconds(options['start-period']), `from ${options['start-period']} on, its start period`)
  t.same(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels)
})

t.test('Kubernetes: requests and limits set, the limits Compose gives the api', async (t) => {
  const { container } = workload()
  const { requests, limits } = container.resources
  t.ok(requests.cpu, 'a CPU request: the HPA measures utilisation against it')
  t.ok(requests.memory && limits.cpu && limits.memory, 'a memory request, a CPU and a memory limit')
  const compose = composeApi.deploy.resources
  t.equal(quantityBytes(limits.memory), composeBytes(compose.limits.memory), `memory limit ${limits.memory} = Compose's ${compose.limits.memory}`)
  t.equal(quantityBytes(requests.memory), composeBytes(compose.reservations.memory), `memory request ${requests.memory} = Compose's reservation ${compose.reservations.memory}`)
  t.equal(quantityCpus(limits.cpu), Number(compose.limits.cpus), `CPU limit ${limits.cpu} = Compose's cpus ${compose.limits.cpus}`)
  t.ok(quantityCpus(requests.cpu) <= quantityCpus(limits.cpu), 'CPU request within the limit')
  t.ok(quantityBytes(requests.memory) <= quantityBytes(limits.memory), 'memory request within the limit')
})

t.test('Kubernetes: the grace period covers the preStop pause and SHUTDOWN_TIMEOUT; the pause runs in the image', async (t) => {
  const { pod, container } = workload()
  const config = containerConfig()
  const command = container.lifecycle.preStop.exec.command
  t.equal(command.length, 2)
  t.equal(command[0], 'sleep')
  t.match(command[1], /^[0-9]+$/, 'whole seconds')
  // `sleep` is coreutils', which Debian marks Essential: every Debian image has /bin/sleep, and
  // node:<version>-slim is Debian's bookworm/trixie slim. An Alpine base would have BusyBox's.
  t.match(args('ARG')[0], /^NODE_IMAGE=node:[0-9.]+-slim$/, 'the image is the Debian-based node:<version>-slim')
  // SIGKILL comes after the preStop pause and the app's own shutdown deadline
  const pause = Number(command[1])
  t.ok(pod.terminationGracePeriodSeconds > pause + config.SHUTDOWN_TIMEOUT / 1000,
    `terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} > preStop ${pause} s + SHUTDOWN_TIMEOUT ${config.SHUTDOWN_TIMEOUT / 1000} s`)
})

t.test('Kubernetes: the Service and the HPA point at the Deployment', async (t) => {
  const { deployment, port } = workload()
  const service = byKind('Service')
  const hpa = byKind('HorizontalPodAutoscaler')
  t.same(service.spec.selector, deployment.spec.template.metadata.labels)
  t.equal(service.spec.ports[0].targetPort, port.name, 'targetPort = the container port\'s name')
  t.same(hpa.spec.scaleTargetRef, { apiVersion: deployment.apiVersion, kind: 'Deployment', name: deployment.metadata.name })
  const metrics = service.spec.ports.find(({ name }: Manifest) => name === 'metrics')
  t.equal(metrics?.targetPort, 'metrics', 'the Service\'s metrics port targets the container port named metrics')
  const monitor = byKind('ServiceMonitor')
  t.same(monitor.spec.selector.matchLabels, service.metadata.labels, 'the ServiceMonitor selects the Service')
  t.same(monitor.spec.endpoints.map(({ port: name, path }: Manifest) => [name, path]), [['metrics', '/metrics']], 'and scrapes its metrics port at /metrics')
  t.ok(hpa.spec.minReplicas >= 2 && hpa.spec.maxReplicas > hpa.spec.minReplicas)
})
