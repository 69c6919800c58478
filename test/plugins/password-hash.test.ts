// CONTRACT §12 on the routes: `hash` on password and passphrase. Every hash is checked against its
// own value (and not its neighbour's: the order) by an implementation that is not the service's
// (test/hash-readers.ts); the formats' own readers (PostgreSQL, Mosquitto, nginx) are
// test/src/hashing/*'s. Rules, errors, plain text, GET and MCP alike.
import t from 'tap'
import { request } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { build, buildWithLogs, callTool, get, post } from '../helper.js'
import { WorkPoolError } from '../../src/work-pool/pool.js'
import { hasTool, temporaryDirectory } from '../tools.js'
import { argon2Verifies, DEBIAN_PYTHON, htpasswdVerifies, mkpasswdVerifies, mosquittoVerifies, scramVerifies } from '../hash-readers.js'
import { WORDLIST } from '../../plugins/passphrase.js'

const present = (): boolean => false

interface Answer { values: string[], hashes?: string[], entropyBits: number }
interface Problem { status: number, code: string, errors: Array<{ pointer: string, code: string, detail?: string }> }

const SHAPES: Record<string, RegExp> = {
  argon2id: /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
  bcrypt: /^\$2y\$12\$[./A-Za-z0-9]{53}$/,
  'sha512-crypt': /^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/,
  'scram-sha-256': /^SCRAM-SHA-256\$4096:[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$/,
  mosquitto: /^\$7\$101\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{86}==$/
}

async function hashed (app: FastifyInstance, type: string, params: Record<string, unknown>, send = post): Promise<Answer> {
  const response = await send(app, type, params)
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`)
  return response.json() as Answer
}

t.test('each algorithm at its defaults: one hash per value, in the values\' order, each its own value\'s', async (t) => {
  const app = await build(t)
  const directory = temporaryDirectory(t)
  const verifiers: Record<string, (pairs: Array<[string, string]>) => boolean[]> = {
    'scram-sha-256': (pairs) => pairs.map(([value, hash]) => scramVerifies(value, hash)),
    mosquitto: (pairs) => pairs.map(([value, hash]) => mosquittoVerifies(value, hash))
  }
  if (hasTool(t, DEBIAN_PYTHON, 'python3') && hasTool(t, 'mkpasswd', 'whois') && hasTool(t, 'htpasswd', 'apache2-utils')) {
    verifiers.argon2id = (pairs) => argon2Verifies(pairs)
    verifiers.bcrypt = (pairs) => pairs.map(([value, hash]) => htpasswdVerifies(directory, value, hash))
    verifiers['sha512-crypt'] = (pairs) => pairs.map(([value, hash]) => mkpasswdVerifies(value, hash))
  }
  for (const [algorithm, verify] of Object.entries(verifiers)) {
    for (const [type, send] of [['password', post], ['passphrase', get]] as const) {
      const answer = await hashed(app, type, { quantity: 3, hash: { algorithm } }, send)
      const hashes = answer.hashes ?? []
      t.equal(hashes.length, 3, `${type} ${algorithm}: three hashes`)
      t.ok(hashes.every((hash) => SHAPES[algorithm]?.test(hash)), `${type} ${algorithm}: each in its layout`)
      const own = verify(answer.values.map((value, index) => [value, hashes[index] as string]))
      const shifted = verify(answer.values.map((value, index) => [value, hashes[(index + 1) % 3] as string]))
      t.same(own, [true, true, true], `${type} ${algorithm}: each hash verifies its own value`)
      t.same(shifted, [false, false, false], `${type} ${algorithm}: and not the next value`)
      t.equal(new Set(hashes).size, 3, `${type} ${algorithm}: a fresh salt each`)
    }
  }
})

t.test('the fields reach the strings: bounds and non-defaults', async (t) => {
  const app = await build(t)
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ algorithm: 'argon2id', memoryKiB: 7168, iterations: 1, parallelism: 4 }, /^\$argon2id\$v=19\$m=7168,t=1,p=4\$/],
    [{ algorithm: 'bcrypt', cost: 4 }, /^\$2y\$04\$/],
    [{ algorithm: 'sha512-crypt', rounds: 1000 }, /^\$6\$rounds=1000\$/],
    [{ algorithm: 'scram-sha-256', iterations: 5000 }, /^SCRAM-SHA-256\$5000:/],
    [{ algorithm: 'mosquitto', iterations: 1000 }, /^\$7\$1000\$/]
  ]
  for (const [hash, shape] of cases) {
    const answer = await hashed(app, 'password', { hash })
    t.match(answer.hashes?.[0], shape, JSON.stringify(hash))
  }
  const plain = await hashed(app, 'password', {})
  t.notOk('hashes' in plain, 'no hash asked: no `hashes`')
  const withHash = await hashed(app, 'password', { length: 32, hash: { algorithm: 'mosquitto' } })
  t.equal(withHash.entropyBits, (await hashed(app, 'password', { length: 32 })).entropyBits, 'entropyBits is the value\'s, unchanged')
})

t.test('plain text: each line the value, one space, its hash', async (t) => {
  const app = await build(t)
  const response = await post(app, 'passphrase', { quantity: 2, separator: ' ', hash: { algorithm: 'mosquitto' } }, { accept: 'text/plain' })
  t.equal(response.statusCode, 200)
  const lines = response.body.split('\n')
  t.equal(lines.pop(), '', 'each line ends in a line feed')
  t.equal(lines.length, 2)
  for (const line of lines) {
    const space = line.lastIndexOf(' ')
    t.ok(mosquittoVerifies(line.slice(0, space), line.slice(space + 1)), 'the last space divides value and hash')
  }
})

async function problemOf (app: FastifyInstance, type: string, params: Record<string, unknown>): Promise<Problem> {
  const response = await post(app, type, params)
  return { ...(response.json() as Problem), status: response.statusCode }
}

t.test('rules before anything is drawn: at most 5 hashed values, bcrypt\'s 72 bytes', async (t) => {
  const app = await build(t)
  const tooMany = await problemOf(app, 'password', { quantity: 6, hash: { algorithm: 'mosquitto' } })
  t.same([tooMany.status, tooMany.errors], [400, [{ pointer: '#/quantity', code: 'TOO_MANY_VALUES', detail: tooMany.errors[0]?.detail }]], 'quantity 6 with a hash')
  t.equal((await post(app, 'password', { quantity: 6 })).statusCode, 200, 'quantity 6 without one')
  t.equal((await post(app, 'password', { quantity: 5, hash: { algorithm: 'mosquitto' } })).statusCode, 200, 'quantity 5 with one')

  const long = await problemOf(app, 'password', { length: 73, hash: { algorithm: 'bcrypt', cost: 4 } })
  t.same(long.errors.map(({ pointer, code }) => [pointer, code]), [['#/length', 'TOO_LONG_FOR_HASH']], 'a 73-character password and bcrypt')
  t.equal((await post(app, 'password', { length: 72, hash: { algorithm: 'bcrypt', cost: 4 } })).statusCode, 200, '72 characters: 72 bytes')
  t.equal((await post(app, 'password', { length: 128, hash: { algorithm: 'argon2id', memoryKiB: 7168, iterations: 1 } })).statusCode, 200, '128 characters and another algorithm')

  // The EFF list's longest words have 9 letters: 7 words and 6 hyphens are 69 bytes at most, 8 are 79
  t.equal(Math.max(...WORDLIST.map((word) => word.length)), 9)
  t.equal((await post(app, 'passphrase', { words: 7, hash: { algorithm: 'bcrypt', cost: 4 } })).statusCode, 200, '7 EFF words: 69 bytes at most')
  const eight = await problemOf(app, 'passphrase', { words: 8, hash: { algorithm: 'bcrypt', cost: 4 } })
  t.same(eight.errors.map(({ pointer, code }) => [pointer, code]), [['#/words', 'TOO_LONG_FOR_HASH']], '8 EFF words: 79 bytes')
  const number = await problemOf(app, 'passphrase', { words: 7, separator: '--', includeNumber: true, hash: { algorithm: 'bcrypt', cost: 4 } })
  t.same(number.errors.map(({ pointer, code }) => [pointer, code]), [['#/words', 'TOO_LONG_FOR_HASH']], 'separators and the digit count: 7·9 + 6·2 + 1 = 76')
  const spanish = await problemOf(app, 'passphrase', { words: 7, wordList: 'bip39-spanish', separator: ' ', hash: { algorithm: 'bcrypt', cost: 4 } })
  t.same(spanish.errors.map(({ pointer, code }) => [pointer, code]), [['#/words', 'TOO_LONG_FOR_HASH']], 'NFKD accents count as the bytes they are: 7·10 + 6 = 76')
  // crypt(3) refuses SHA-512 crypt input over 511 bytes: 20 Korean words (NFKD, up to 33 bytes) reach it
  const korean = await problemOf(app, 'passphrase', { words: 20, wordList: 'bip39-korean', hash: { algorithm: 'sha512-crypt' } })
  t.same(korean.errors.map(({ pointer, code }) => [pointer, code]), [['#/words', 'TOO_LONG_FOR_HASH']], 'sha512-crypt: 511 bytes at most')
  t.equal((await post(app, 'passphrase', { words: 20, wordList: 'bip39-korean', hash: { algorithm: 'argon2id', memoryKiB: 7168, iterations: 1 } })).statusCode, 200, 'the same passphrase with Argon2id')
  const both = await problemOf(app, 'passphrase', { words: 8, quantity: 6, hash: { algorithm: 'bcrypt', cost: 4 } })
  t.same(both.errors.map(({ code }) => code), ['TOO_LONG_FOR_HASH', 'TOO_MANY_VALUES'], 'every problem listed')
  const rule = await problemOf(app, 'password', { length: 6, minNumbers: 7, quantity: 6, hash: { algorithm: 'mosquitto' } })
  t.same(rule.errors.map(({ code }) => code), ['MINIMUMS_EXCEED_LENGTH', 'TOO_MANY_VALUES'], 'beside the generator\'s own rules')
})

t.test('the hash object: a choice by algorithm, its fields checked as any parameter', async (t) => {
  const app = await build(t)
  const cases: Array<[unknown, Array<[string, string]>]> = [
    [{}, [['#/hash/algorithm', 'REQUIRED']]],
    [{ algorithm: 'md5' }, [['#/hash/algorithm', 'NOT_ALLOWED_VALUE']]],
    [{ algorithm: 7 }, [['#/hash/algorithm', 'TYPE']]],
    [{ algorithm: 'bcrypt', rounds: 5000 }, [['#/hash/rounds', 'UNKNOWN_FIELD']]],
    [{ algorithm: 'bcrypt', cost: 3 }, [['#/hash/cost', 'OUT_OF_RANGE']]],
    [{ algorithm: 'argon2id', memoryKiB: 65541 }, [['#/hash/memoryKiB', 'OUT_OF_RANGE']]],
    [{ algorithm: 'sha512-crypt', rounds: '5000' }, [['#/hash/rounds', 'TYPE']]],
    [null, [['#/hash', 'TYPE']]],
    ['bcrypt', [['#/hash', 'TYPE']]]
  ]
  for (const [hash, expected] of cases) {
    for (const type of ['password', 'passphrase']) {
      const problem = await problemOf(app, type, { hash })
      t.same([problem.status, problem.errors.map(({ pointer, code }) => [pointer, code])], [400, expected], `${type} ${JSON.stringify(hash)}`)
    }
  }
  // A hostile hash object is refused on its first 20 unknown fields, before AJV builds thousands of errors
  const fields = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, 1]))
  const hostile = await problemOf(app, 'password', { hash: { algorithm: 'bcrypt', ...fields } })
  t.equal(hostile.errors.length, 20)
  t.same(hostile.errors[0], { pointer: '#/hash/f0', code: 'UNKNOWN_FIELD', detail: hostile.errors[0]?.detail })
})

t.test('MCP: generate_password takes hash as any parameter', async (t) => {
  const app = await build(t)
  const call = (args: unknown) => callTool(app, 'generate_password', args)
  const answer = (await call({ quantity: 2, hash: { algorithm: 'mosquitto' } })).json() as { result: { structuredContent: Answer } }
  const { values, hashes = [] } = answer.result.structuredContent
  t.same(values.map((value, index) => mosquittoVerifies(value, hashes[index] as string)), [true, true], 'each hash its value\'s')
  const refused = (await call({ quantity: 6, hash: { algorithm: 'mosquitto' } })).json() as { result: { isError: boolean, content: Array<{ text: string }> } }
  t.equal(refused.result.isError, true)
  t.match(JSON.parse(refused.result.content[0]?.text as string), { errors: [{ pointer: '#/quantity', code: 'TOO_MANY_VALUES' }] })
})

t.test('503 BUSY when the queue is full: Retry-After, nothing drawn, the admitted ones answered', async (t) => {
  const app = await build(t, { HASH_CONCURRENCY: '1', HASH_QUEUE: '1' })
  const heavy = { quantity: 1, hash: { algorithm: 'argon2id', memoryKiB: 65540, iterations: 5, parallelism: 4 } }
  // Two admitted (one running, one waiting), then the third finds no room (inject starts a request
  // when it is awaited: `then` starts these two now)
  const first = post(app, 'password', heavy).then((response) => response)
  const second = post(app, 'password', heavy).then((response) => response)
  const busy = await post(app, 'password', heavy, { 'x-language': 'de' })
  t.equal(busy.statusCode, 503)
  t.match(busy.json(), { status: 503, code: 'BUSY', title: 'Dienst ausgelastet' })
  t.ok(Number(busy.headers['retry-after']) >= 1, `Retry-After: ${String(busy.headers['retry-after'])}`)
  const twoAtOnce = await post(app, 'password', { ...heavy, quantity: 2 })
  t.equal(twoAtOnce.statusCode, 503, 'a request of 2 hashes is admitted whole or not at all')
  // The pool is full: requests without a hash are answered meanwhile, before the first hash is made
  // (an order, not a time: an upper-bound Argon2id hash takes 0.3 s on a quiet machine, on a
  // thread at the lowest priority, and a uuid well under a millisecond on the event loop)
  let hashed = false
  first.then(() => { hashed = true }, () => {})
  const cheap = await Promise.all(Array.from({ length: 20 }, () => post(app, 'uuid', {}).then((response) => ({ status: response.statusCode, hashed }))))
  t.same(cheap, Array.from({ length: 20 }, () => ({ status: 200, hashed: false })), 'while the pool is full, 20 uuid requests are answered before its first hash is made')
  t.same([(await first).statusCode, (await second).statusCode], [200, 200], 'the admitted ones are answered')
  t.equal((await post(app, 'password', heavy)).statusCode, 200, 'room again once they are done')
})

t.test('a request whose hash is not done when its connection\'s idle timeout fires is answered 503 BUSY, not cut off', async (t) => {
  // Node's idle timer emits 'timeout' on a socket after the server's connectionTimeout (30 s) and
  // closes it unless the response listens. Here the test emits that event itself on the server's
  // socket of each request, once the pool holds both: an order, not a time
  const app = await build(t, { HASH_CONCURRENCY: '1', HASH_QUEUE: '1' })
  const sockets: Socket[] = []
  app.server.on('connection', (socket: Socket) => sockets.push(socket))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const heavy = JSON.stringify({ hash: { algorithm: 'argon2id', memoryKiB: 65540, iterations: 5, parallelism: 4 } })
  const send = async (): Promise<{ status: number, code: unknown, retryAfter: unknown }> => await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/generate/password', method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(heavy) } }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk.toString() })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(body) as { code?: unknown }).code, retryAfter: res.headers['retry-after'] }))
    })
    req.on('error', reject)
    req.end(heavy)
  })
  const until = async (condition: () => boolean): Promise<void> => { while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5)) }
  const running = send()
  await until(() => app.workPool.running === 1)
  const waiting = send()
  await until(() => app.workPool.depth === 2 && sockets.length === 2)
  sockets[1]?.emit('timeout')
  t.match(await waiting, { status: 503, code: 'BUSY', retryAfter: /^[1-9][0-9]*$/ }, 'the waiting request: 503 BUSY with Retry-After')
  t.equal(app.workPool.depth, 1, 'its slot freed')
  sockets[0]?.emit('timeout')
  t.match(await running, { status: 503, code: 'BUSY' }, 'the running one too: its hash ends unread')
  await until(() => app.workPool.depth === 0)
  t.equal((await post(app, 'password', { hash: { algorithm: 'mosquitto' } })).statusCode, 200, 'the pool serves on')
})

t.test('a request whose hashes are abandoned is answered 503 BUSY with Retry-After, on every path to the pool', async (t) => {
  // The pool's own test (test/src/work-pool/pool.test.ts) shows how a run is abandoned, and the next
  // test when a real connection does it; here the pool's rejection is handed to each route
  const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: 'info' })
  const pool = app.workPool
  const admit = pool.admit.bind(pool)
  pool.admit = (count) => {
    const admission = admit(count)
    // The admission's slots are given back (a run of no jobs), then the deadline's refusal
    return admission === undefined ? undefined : { run: async () => { await admission.run([], present); throw new WorkPoolError('abandoned', 'HASH_ABANDONED') } }
  }
  const requests = {
    'a password with a hash': () => post(app, 'password', { hash: { algorithm: 'mosquitto' } }, { 'x-language': 'fr' }),
    'an RSA signing key': () => post(app, 'signing-key', { algorithm: 'RS256' }, { 'x-language': 'fr' }),
    'a set with a hashed item': () => app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', 'x-language': 'fr' }, payload: JSON.stringify({ items: [{ name: 'P', type: 'password', params: { hash: { algorithm: 'mosquitto' } } }] }) })
  }
  for (const [what, request] of Object.entries(requests)) {
    const response = await request()
    t.equal(response.statusCode, 503, what)
    t.match(response.json(), { status: 503, code: 'BUSY', title: 'Service occupé' }, `${what}: the problem document, in the request's language`)
    t.ok(Number.isInteger(Number(response.headers['retry-after'])) && Number(response.headers['retry-after']) >= 1, `${what}: Retry-After ${String(response.headers['retry-after'])}`)
  }
  t.equal(pool.depth, 0, 'no slot held')
  t.equal(logs().match(/"reason":"connection timeout"/g)?.length, 3, 'the log says why, once per request')
  pool.admit = admit
  t.equal((await post(app, 'password', { hash: { algorithm: 'mosquitto' } })).statusCode, 200)
})
