// vpn mlkem768 and mldsa65 (CONTRACT §2 vpn, §5): the public key of each seed, by node:crypto
// where the runtime has ML-KEM/ML-DSA and by @noble/post-quantum elsewhere, checked against a
// FIPS 203/204 known answer and against the other implementation; the cost of 50 keys.
import t from 'tap'
import { readFile } from 'node:fs/promises'
import { ml_dsa65 as mlDsa65 } from '@noble/post-quantum/ml-dsa.js'
import { ml_kem768 as mlKem768 } from '@noble/post-quantum/ml-kem.js'
import * as postQuantum from '../../../src/keys/post-quantum.js'
import { answers, NOBLE, NODE_CRYPTO, pickBackend, POST_QUANTUM, type PostQuantumBackend } from '../../../src/keys/post-quantum.js'
import { generateVpn } from '../../../plugins/vpn.js'
import type * as Vpn from '../../../plugins/vpn.js'
import { build, buildWithLogs, post } from '../../helper.js'

const hex = (text: string) => Buffer.from(text, 'hex')
const vectors = JSON.parse(await readFile(new URL('../../vectors/acvp-keygen.json', import.meta.url), 'utf8'))
const nodeAnswers = answers(NODE_CRYPTO)
const imageRuntime = (await readFile(new URL('../../../.node-version', import.meta.url), 'utf8')).trim()
const BOTH = 'needs ML-KEM/ML-DSA in node:crypto (Node ≥ 24.7 with OpenSSL 3.5): .ci/run runs this file under the image\'s Node too'

t.test('node:crypto is used exactly where it makes both keys; the image\'s runtime has them', async (t) => {
  t.equal(POST_QUANTUM, nodeAnswers ? NODE_CRYPTO : NOBLE, `node ${process.version}: ${POST_QUANTUM.name}`)
  if (process.versions.node === imageRuntime) t.ok(nodeAnswers, `the image's Node ${imageRuntime} derives them with OpenSSL`)
  if (!nodeAnswers) {
    t.throws(() => NODE_CRYPTO.mlKem768(new Uint8Array(64)), `node ${process.version} has no ML-KEM-768 in node:crypto`)
    t.throws(() => NODE_CRYPTO.mlDsa65(new Uint8Array(32)), `node ${process.version} has no ML-DSA-65 in node:crypto`)
  }
})

t.test('pickBackend: the first backend that answers; none is an error', async (t) => {
  const broken: PostQuantumBackend = { name: 'broken', mlKem768: () => { throw new Error('no') }, mlDsa65: () => new Uint8Array(1952) }
  t.notOk(answers(broken))
  t.equal(pickBackend([broken, NOBLE]), NOBLE)
  t.equal(pickBackend([NOBLE, broken]), NOBLE)
  t.throws(() => pickBackend([broken]), /no ML-KEM\/ML-DSA implementation/)
})

t.test('known answers: NIST ACVP keyGen vectors of FIPS 203 (ML-KEM-768) and FIPS 204 (ML-DSA-65)', async (t) => {
  const kem = vectors['ML-KEM-768']
  const dsa = vectors['ML-DSA-65']
  for (const backend of [NOBLE, NODE_CRYPTO]) {
    if (!answers(backend)) continue
    // FIPS 203 KeyGen_internal(d, z): Xray's 64-byte seed is d ‖ z
    t.same(Buffer.from(backend.mlKem768(Buffer.concat([hex(kem.d), hex(kem.z)]))), hex(kem.ek), `${backend.name}: ML-KEM-768 tcId ${kem.tcId as number}`)
    t.same(Buffer.from(backend.mlDsa65(hex(dsa.seed))), hex(dsa.pk), `${backend.name}: ML-DSA-65 tcId ${dsa.tcId as number}`)
  }
})

/** The seeds and public keys of one response, decoded. */
function decoded (protocol: 'mlkem768' | 'mldsa65', generate: typeof generateVpn, quantity: number) {
  const { values, publicKeys, entropyBits } = generate({ protocol, length: 32, quantity })
  return { entropyBits, pairs: values.map((value, index) => ({ value, publicKey: publicKeys?.[index] as string, seed: Buffer.from(value, 'base64url') })) }
}

t.test('Xray\'s encodings: unpadded base64url, seeds of 64 / 32 bytes, public keys of 1,184 / 1,952 bytes', async (t) => {
  const shapes = { mlkem768: [64, 86, 1184, 1579, 512], mldsa65: [32, 43, 1952, 2603, 256] } as const
  for (const [protocol, [seedBytes, seedLength, keyBytes, keyLength, bits]] of Object.entries(shapes)) {
    const { entropyBits, pairs } = decoded(protocol as 'mlkem768' | 'mldsa65', generateVpn, 5)
    t.equal(entropyBits, bits, `${protocol}: entropyBits`)
    for (const { value, publicKey, seed } of pairs) {
      t.match(value, new RegExp(`^[A-Za-z0-9_-]{${seedLength}}$`), `${protocol}: seed of ${seedLength} characters`)
      t.equal(seed.length, seedBytes)
      t.equal(seed.toString('base64url'), value, 'canonical')
      t.match(publicKey, new RegExp(`^[A-Za-z0-9_-]{${keyLength}}$`), `${protocol}: public key of ${keyLength} characters`)
      t.equal(Buffer.from(publicKey, 'base64url').length, keyBytes)
    }
  }
})

t.test('the keys work: ML-KEM-768 encapsulates to the seed\'s key, ML-DSA-65 verifies the seed\'s signature (noble)', async (t) => {
  for (const { seed, publicKey } of decoded('mlkem768', generateVpn, 3).pairs) {
    const { cipherText, sharedSecret } = mlKem768.encapsulate(Buffer.from(publicKey, 'base64url'))
    t.same(Buffer.from(mlKem768.decapsulate(cipherText, mlKem768.keygen(seed).secretKey)), Buffer.from(sharedSecret), 'the same shared secret')
  }
  for (const { seed, publicKey } of decoded('mldsa65', generateVpn, 3).pairs) {
    const message = Buffer.from('randgen')
    t.ok(mlDsa65.verify(mlDsa65.sign(message, mlDsa65.keygen(seed).secretKey), message, Buffer.from(publicKey, 'base64url')), 'the signature verifies')
  }
})

t.test('node:crypto and @noble/post-quantum agree on every seed, both directions', async (t) => {
  if (!nodeAnswers) return t.pass('node:crypto against noble', { skip: BOTH })
  // The service as it runs here (node:crypto), each public key re-derived by noble
  for (const protocol of ['mlkem768', 'mldsa65'] as const) {
    const derive = protocol === 'mlkem768' ? NOBLE.mlKem768 : NOBLE.mlDsa65
    for (const { seed, publicKey } of decoded(protocol, generateVpn, 25).pairs) {
      t.equal(Buffer.from(derive(seed)).toString('base64url'), publicKey, `${protocol}: noble derives the service's key`)
    }
  }
  // The service with noble picked (as on Node 20), each public key re-derived by node:crypto
  const withNoble = await t.mockImport<typeof Vpn>('../../../plugins/vpn.js', { '../../../src/keys/post-quantum.js': { ...postQuantum, POST_QUANTUM: NOBLE } })
  for (const protocol of ['mlkem768', 'mldsa65'] as const) {
    const derive = protocol === 'mlkem768' ? NODE_CRYPTO.mlKem768 : NODE_CRYPTO.mlDsa65
    for (const { seed, publicKey } of decoded(protocol, withNoble.generateVpn, 25).pairs) {
      t.equal(Buffer.from(derive(seed)).toString('base64url'), publicKey, `${protocol}: node:crypto derives noble's key`)
    }
  }
})

t.test('the backend is said once, at info, when the service starts', async (t) => {
  const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: 'info' })
  t.equal((await post(app, 'vpn', { protocol: 'mldsa65' })).statusCode, 200)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const lines = logs().split('\n').filter((line) => line.includes('"postQuantum"')).map((line) => JSON.parse(line))
  t.equal(lines.length, 1, 'one line')
  t.match(lines[0], { level: 30, postQuantum: POST_QUANTUM.name }, `info: ${POST_QUANTUM.name}`)
})

t.test('HTTP: 50 distinct seeds and public keys per response, POST and text/plain', async (t) => {
  const app = await build(t)
  for (const protocol of ['mlkem768', 'mldsa65']) {
    const body = (await post(app, 'vpn', { protocol, quantity: 50 })).json()
    t.equal(new Set(body.values).size, 50, `${protocol}: 50 distinct seeds`)
    t.equal(new Set(body.publicKeys).size, 50, `${protocol}: 50 distinct public keys`)
    const text = (await post(app, 'vpn', { protocol, quantity: 2 }, { accept: 'text/plain' })).body
    t.match(text, /^([A-Za-z0-9_-]+ [A-Za-z0-9_-]+\n){2}$/, `${protocol}: \`seed public\` lines`)
  }
})

t.test('noble\'s expanded secret keys are wiped once the public key is taken', async (t) => {
  const kept: Uint8Array[] = []
  const recording = <K extends { keygen: (seed: Uint8Array) => { secretKey: Uint8Array } }>(scheme: K): K =>
    ({ ...scheme, keygen: (seed: Uint8Array) => { const keys = scheme.keygen(seed); kept.push(keys.secretKey); return keys } })
  const spied = await t.mockImport<typeof postQuantum>('../../../src/keys/post-quantum.js', {
    '@noble/post-quantum/ml-kem.js': { ml_kem768: recording(mlKem768) },
    '@noble/post-quantum/ml-dsa.js': { ml_dsa65: recording(mlDsa65) }
  })
  kept.length = 0
  spied.NOBLE.mlKem768(new Uint8Array(64).fill(7))
  spied.NOBLE.mlDsa65(new Uint8Array(32).fill(7))
  t.equal(kept.length, 2, 'the spy saw both secret keys')
  t.ok(kept.every((secret) => secret.length > 0 && secret.every((byte) => byte === 0)), 'every byte of both is zero')
  // The check can fail: a key nobody wipes is caught
  t.notOk(mlKem768.keygen(new Uint8Array(64).fill(7)).secretKey.every((byte) => byte === 0), 'an unwiped secret key is not all zeros')
})
