import t from 'tap'
import { availableParallelism } from 'node:os'
import { ConfigError } from '../../../src/ops/config-error.js'
import { loadConfig, parseTrustProxy } from '../../../src/ops/config.js'
import type * as ConfigModule from '../../../src/ops/config.js'

t.test('defaults', async (t) => {
  t.match(loadConfig({}), { HOST: '127.0.0.1', PORT: 3000, LOG_LEVEL: 'info', TRUST_PROXY: 'false', DOCS_ENABLED: true })
})

t.test('good values are parsed', async (t) => {
  t.match(loadConfig({ HOST: '0.0.0.0', PORT: '0', LOG_LEVEL: 'trace', TRUST_PROXY: '2', DOCS_ENABLED: 'false' }),
    { HOST: '0.0.0.0', PORT: 0, LOG_LEVEL: 'trace', TRUST_PROXY: '2', DOCS_ENABLED: false })
  t.equal(loadConfig({ PORT: '65535' }).PORT, 65535)
  t.equal(loadConfig({ DOCS_ENABLED: 'true' }).DOCS_ENABLED, true)
  t.equal(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).TRUST_PROXY, '10.0.0.0/8, 192.168.1.1')
})

t.test('a bad value throws a ConfigError: one line naming the variable', async (t) => {
  const bad: Array<[Record<string, string>, string]> = [
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DOCS_ENABLED: 'maybe' }, 'DOCS_ENABLED'],
    [{ TRUST_PROXY: 'everyone!' }, 'TRUST_PROXY'],
    [{ HOST: '' }, 'HOST'],
    [{ HASH_CONCURRENCY: '0' }, 'HASH_CONCURRENCY'],
    [{ HASH_CONCURRENCY: '65' }, 'HASH_CONCURRENCY'],
    [{ HASH_CONCURRENCY: '-1' }, 'HASH_CONCURRENCY'],
    [{ HASH_CONCURRENCY: '2.5' }, 'HASH_CONCURRENCY'],
    [{ HASH_CONCURRENCY: 'many' }, 'HASH_CONCURRENCY'],
    [{ HASH_CONCURRENCY: '' }, 'HASH_CONCURRENCY'],
    [{ HASH_QUEUE: '-1' }, 'HASH_QUEUE'],
    [{ HASH_QUEUE: '10001' }, 'HASH_QUEUE'],
    [{ HASH_QUEUE: '1e9' }, 'HASH_QUEUE'],
    [{ HASH_QUEUE: '0.5' }, 'HASH_QUEUE'],
    [{ HASH_QUEUE: 'none' }, 'HASH_QUEUE']
  ]
  for (const [env, name] of bad) {
    const error = t.throws(() => loadConfig(env), `${JSON.stringify(env)} throws`) as Error
    t.ok(error instanceof ConfigError, 'a ConfigError')
    t.match(error.message, new RegExp(`^Invalid configuration: ${name} `), `names ${name}`)
    t.notMatch(error.message, /\n/, 'one line')
    t.notMatch(error.message, /^Invalid configuration: env/, 'no AJV prefix')
  }
})

t.test('several bad values: still one line, naming each', async (t) => {
  const error = t.throws(() => loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud' })) as Error
  t.ok(error instanceof ConfigError)
  t.match(error.message, /^Invalid configuration: PORT .*, LOG_LEVEL /)
  t.notMatch(error.message, /env\/|\n/)
})

t.test('HASH_CONCURRENCY and HASH_QUEUE (CONTRACT §12.1): bounds and defaults', async (t) => {
  const defaults = loadConfig({})
  t.equal(defaults.HASH_QUEUE, 32, 'HASH_QUEUE: 32 by default')
  t.equal(defaults.HASH_CONCURRENCY, Math.min(64, availableParallelism()), 'HASH_CONCURRENCY: the CPUs the process may use')
  t.equal(loadConfig({ HASH_CONCURRENCY: '1' }).HASH_CONCURRENCY, 1)
  t.equal(loadConfig({ HASH_CONCURRENCY: '64' }).HASH_CONCURRENCY, 64)
  t.equal(loadConfig({ HASH_QUEUE: '0' }).HASH_QUEUE, 0, 'no queue: only what runs at once is admitted')
  t.equal(loadConfig({ HASH_QUEUE: '10000' }).HASH_QUEUE, 10000)

  // The default is this machine's, read at start, never the build machine's (the build compiles
  // the validator ahead, and a schema default would be written into it)
  for (const [cpus, expected] of [[3, 3], [64, 64], [200, 64], [1, 1]]) {
    const mocked = await t.mockImport<typeof ConfigModule>('../../../src/ops/config.js', { 'node:os': { availableParallelism: () => cpus } })
    t.equal(mocked.loadConfig({}).HASH_CONCURRENCY, expected, `${cpus} CPUs: ${expected}`)
    t.equal(mocked.loadConfig({ HASH_CONCURRENCY: '2' }).HASH_CONCURRENCY, 2, 'a setting wins')
  }
})

t.test('parseTrustProxy', async (t) => {
  t.equal(parseTrustProxy('true'), true)
  t.equal(parseTrustProxy('false'), false)
  const hops = parseTrustProxy('2')
  t.type(hops, 'function')
  if (typeof hops === 'function') {
    t.same([0, 1, 2, 3].map((hop) => hops('10.0.0.1', hop)), [true, true, false, false], 'trusts 2 hops')
  }
  const none = parseTrustProxy('0')
  if (typeof none === 'function') t.equal(none('10.0.0.1', 0), false, '0 hops trusts nobody')
  t.same(parseTrustProxy('10.0.0.1, 10.0.0.0/8,,  ::1 '), ['10.0.0.1', '10.0.0.0/8', '::1'])
})
