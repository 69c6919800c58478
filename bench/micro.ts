// Generator micro-benchmarks: each generator's pure function against the limit for the same work,
// that is one bulk crypto.randomFillSync for all the random bytes the call needs plus the same
// encoding of those bytes (no rejection, no checks). The ratio says how much the sampling costs.
import { hash, randomFillSync } from 'node:crypto'
import { base32nopad } from '@scure/base'
import { pathToFileURL } from 'node:url'
import { CHARACTER_SETS, generatePasswords } from '../plugins/password.js'
import { generateNumbers } from '../plugins/number.js'
import { URL_SAFE_ALPHABET, generateVpnSecrets } from '../plugins/vpn.js'
import { COMPACT_ALPHABETS, generateUuids } from '../plugins/uuid.js'
import { generatePhrases, mnemonicOf } from '../plugins/phrase.js'
import { generateSequences } from '../plugins/seq.js'
import { generateShortIds } from '../plugins/short-id.js'
import { generatePins } from '../plugins/pin.js'
import { generateSshKeys } from '../plugins/ssh-key.js'
import { generateAgeKeys } from '../plugins/age-key.js'
import { bech32 } from '@scure/base'
import { POST_QUANTUM } from '../src/keys/post-quantum.js'
import { opensshPrivateKey, opensshPublicKey } from '../src/keys/openssh.js'
import { ed25519PublicKey, x25519PublicKey } from '../src/keys/x25519.js'
import { generateTokenResult, tokenChecksum } from '../plugins/token.js'
import { generateTotpUris } from '../plugins/totp.js'

export interface MicroCase {
  generator: string
  params: string
  quantity: number
  run: () => string[]
  limit: () => string[]
}

export interface MicroResult {
  generator: string
  params: string
  valuesPerSecond: number
  limitPerSecond: number
  ratio: number
}

// One buffer for the limit's bulk draws, as a tuned encoder would keep
const bulk = Buffer.allocUnsafe(64 * 1024)

/** `quantity` values of `bytes` random bytes each, from one fill, each encoded by `encode`. */
function limitOf (quantity: number, bytes: number, encode: (buffer: Buffer, start: number) => string): () => string[] {
  return () => {
    randomFillSync(bulk, 0, quantity * bytes)
    const values: string[] = []
    for (let i = 0; i < quantity; i++) values.push(encode(bulk, i * bytes))
    return values
  }
}

/** One character of `alphabet` per byte. */
function alphabetEncoding (alphabet: string, length: number): (buffer: Buffer, start: number) => string {
  return (buffer, start) => {
    let out = ''
    for (let i = start; i < start + length; i++) out += alphabet[(buffer[i] as number) % alphabet.length]
    return out
  }
}

/** A limit that also reads its input the cheapest way first, as any implementation must. */
function readingFirst (read: () => ArrayLike<number>, limit: () => string[]): () => string[] {
  return () => {
    const input = read()
    const values = limit()
    // Keeps the read from being optimised away: the result depends on it
    if (input.length === 0) values.pop()
    return values
  }
}

const bufferEncoding = (encoding: BufferEncoding, bytes: number) =>
  (buffer: Buffer, start: number) => buffer.toString(encoding, start, start + bytes)

const uuidEncoding = (buffer: Buffer, start: number): string => {
  buffer[start + 6] = ((buffer[start + 6] as number) & 0x0f) | 0x40
  buffer[start + 8] = ((buffer[start + 8] as number) & 0x3f) | 0x80
  const hex = buffer.toString('hex', start, start + 16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A token of `length` base-62 characters (one per byte) and its checksum. */
function tokenEncoding (prefix: string, length: number): (buffer: Buffer, start: number) => string {
  const characters = alphabetEncoding(BASE62, length)
  return (buffer, start) => {
    const random = characters(buffer, start)
    return `${prefix}_${random}${tokenChecksum(random)}`
  }
}

/** A limit that also hashes each value, as the token answer does. */
function hashing (limit: () => string[]): () => string[] {
  return () => {
    const values = limit()
    const hashes = values.map((value) => hash('sha256', value))
    // Keeps the hashes from being optimised away: the result depends on them
    if (hashes.length !== values.length) values.pop()
    return values
  }
}

/** A Key URI around the Base32 of `bytes` random bytes. */
const totpEncoding = (before: string, after: string, bytes: number) =>
  (buffer: Buffer, start: number) => before + base32nopad.encode(buffer.subarray(start, start + bytes)) + after

const ALL_SETS = Object.values(CHARACTER_SETS).join('')
const SITE_SETS = [...CHARACTER_SETS.uppercase + CHARACTER_SETS.lowercase + CHARACTER_SETS.numbers + '!@#$%^&*'].filter((c) => !'lIO0'.includes(c)).join('')
const SAFE_SPAN = 2n * BigInt(Number.MAX_SAFE_INTEGER) + 1n
const EXCLUSIONS = Array.from({ length: 1000 }, (_, i) => String((i - 500) * 9_007_199_254_740))

function microCase (generator: string, params: string, quantity: number, run: () => string[], limit: () => string[]): MicroCase {
  return { generator, params, quantity, run, limit }
}

export const MICRO_CASES: MicroCase[] = [
  microCase('password', 'defaults (length 20)', 1,
    () => generatePasswords({ length: 20, uppercase: true, lowercase: true, numbers: true, symbols: true, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols, exclude: '', quantity: 1 }),
    limitOf(1, 20, alphabetEncoding(ALL_SETS, 20))),
  microCase('password', 'length 128, ×50', 50,
    () => generatePasswords({ length: 128, uppercase: true, lowercase: true, numbers: true, symbols: true, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols, exclude: '', quantity: 50 }),
    limitOf(50, 128, alphabetEncoding(ALL_SETS, 128))),
  // A site's symbols and refused characters: 21 + 24 + 9 + 8 characters, the same work as the defaults
  microCase('password', 'symbolSet !@#$%^&*, exclude lIO0 (length 20)', 1,
    () => generatePasswords({ length: 20, uppercase: true, lowercase: true, numbers: true, symbols: true, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, symbolSet: '!@#$%^&*', exclude: 'lIO0', quantity: 1 }),
    limitOf(1, 20, alphabetEncoding(SITE_SETS, 20))),
  // crypto.randomInt draws 6 bytes per value
  microCase('number', 'defaults (0..100)', 1,
    () => generateNumbers({ min: 0, max: 100, exclusions: [], unique: false, quantity: 1 }),
    limitOf(1, 6, (buffer, start) => String(buffer.readUIntBE(start, 6) % 101))),
  microCase('number', 'whole safe range, unique, ×50', 50,
    () => generateNumbers({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, exclusions: [], unique: true, quantity: 50 }),
    limitOf(50, 8, (buffer, start) => String(buffer.readBigUInt64BE(start) % SAFE_SPAN - BigInt(Number.MAX_SAFE_INTEGER)))),
  // The same work includes reading the input: converting 1000 decimal strings costs several times
  // the draw and encoding of 50 values, so a limit without it is out of any implementation's reach
  microCase('number', 'whole safe range, 1000 exclusions, unique, ×50 (limit reads the exclusions)', 50,
    () => generateNumbers({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, exclusions: EXCLUSIONS, unique: true, quantity: 50 }),
    readingFirst(() => Float64Array.from(EXCLUSIONS, Number),
      limitOf(50, 8, (buffer, start) => String(buffer.readBigUInt64BE(start) % SAFE_SPAN - BigInt(Number.MAX_SAFE_INTEGER))))),
  microCase('vpn', 'defaults (shadowsocks 32)', 1,
    () => generateVpnSecrets({ protocol: 'shadowsocks', length: 32, quantity: 1 }),
    limitOf(1, 32, alphabetEncoding(URL_SAFE_ALPHABET, 32))),
  microCase('vpn', 'shadowsocks 256, ×50', 50,
    () => generateVpnSecrets({ protocol: 'shadowsocks', length: 256, quantity: 50 }),
    limitOf(50, 256, alphabetEncoding(URL_SAFE_ALPHABET, 256))),
  // A key pair's limit includes its public key by node:crypto's X25519, most of the work
  microCase('vpn', 'wireguard, ×50', 50,
    () => generateVpnSecrets({ protocol: 'wireguard', length: 32, quantity: 50 }),
    limitOf(50, 32, (buffer, start) => {
      x25519PublicKey(buffer.subarray(start, start + 32))
      return buffer.toString('base64', start, start + 32)
    })),
  microCase('uuid', 'defaults (standard v4)', 1,
    () => generateUuids({ format: 'standard', length: 32, quantity: 1 }),
    limitOf(1, 16, uuidEncoding)),
  microCase('uuid', 'alphanumeric 256, ×50', 50,
    () => generateUuids({ format: 'alphanumeric', length: 256, quantity: 50 }),
    limitOf(50, 256, alphabetEncoding(COMPACT_ALPHABETS.alphanumeric, 256))),
  microCase('phrase', 'defaults (12 words)', 1,
    () => generatePhrases({ words: 12, language: 'english', separator: ' ', quantity: 1 }),
    limitOf(1, 16, (buffer, start) => mnemonicOf(buffer.subarray(start, start + 16)))),
  microCase('phrase', '24 words, ×50', 50,
    () => generatePhrases({ words: 24, language: 'english', separator: ' ', quantity: 50 }),
    limitOf(50, 32, (buffer, start) => mnemonicOf(buffer.subarray(start, start + 32)))),
  microCase('seq', 'defaults (32 bytes hex)', 1,
    () => generateSequences({ byteLength: 32, encoding: 'hex', quantity: 1 }),
    limitOf(1, 32, bufferEncoding('hex', 32))),
  microCase('seq', '256 bytes hex, ×50', 50,
    () => generateSequences({ byteLength: 256, encoding: 'hex', quantity: 50 }),
    limitOf(50, 256, bufferEncoding('hex', 256))),
  microCase('short-id', 'defaults (length 8)', 1,
    () => generateShortIds({ length: 8, quantity: 1 }),
    limitOf(1, 4, bufferEncoding('hex', 4))),
  microCase('short-id', 'length 256, ×50', 50,
    () => generateShortIds({ length: 256, quantity: 50 }),
    limitOf(50, 128, bufferEncoding('hex', 128))),
  // The limit: one byte per digit, no weak PIN left out
  microCase('pin', 'defaults (length 6)', 1,
    () => generatePins({ length: 6, avoidWeak: true, quantity: 1 }),
    limitOf(1, 6, alphabetEncoding('0123456789', 6))),
  microCase('pin', 'length 12, ×50', 50,
    () => generatePins({ length: 12, avoidWeak: true, quantity: 50 }),
    limitOf(50, 12, alphabetEncoding('0123456789', 12))),
  // Post-quantum and Ed25519/X25519 key pairs: the limit is the same derivation of the public key
  // (node:crypto or noble, as picked at start-up) and encoding, from one bulk draw
  ...(['mlkem768', 'mldsa65'] as const).flatMap((protocol) => {
    const [seedBytes, derive] = protocol === 'mlkem768' ? [64, POST_QUANTUM.mlKem768] : [32, POST_QUANTUM.mlDsa65]
    const limit = (quantity: number) => limitOf(quantity, seedBytes, (buffer, start) => {
      const seed = buffer.subarray(start, start + seedBytes)
      sink += Buffer.from(derive(seed)).toString('base64url').length
      return seed.toString('base64url')
    })
    return [
      microCase('vpn', `${protocol} (${POST_QUANTUM.name})`, 1, () => generateVpnSecrets({ protocol, length: 32, quantity: 1 }), limit(1)),
      microCase('vpn', `${protocol}, ×50 (${POST_QUANTUM.name})`, 50, () => generateVpnSecrets({ protocol, length: 32, quantity: 50 }), limit(50))
    ]
  }),
  ...[1, 50].map((quantity) => microCase('ssh-key', quantity === 1 ? 'defaults' : 'comment of 64 characters, ×50', quantity,
    () => generateSshKeys({ comment: quantity === 1 ? '' : 'x'.repeat(64), quantity }).values,
    limitOf(quantity, 36, (buffer, start) => {
      const seed = buffer.subarray(start, start + 32)
      const publicKey = ed25519PublicKey(seed)
      sink += opensshPublicKey(publicKey, 'x').length
      return opensshPrivateKey(seed, publicKey, buffer.readUInt32BE(start + 32), quantity === 1 ? '' : 'x'.repeat(64))
    }))),
  ...[1, 50].map((quantity) => microCase('age-key', quantity === 1 ? 'defaults' : '×50', quantity,
    () => generateAgeKeys({ quantity }).values,
    limitOf(quantity, 32, (buffer, start) => {
      const key = buffer.subarray(start, start + 32)
      sink += bech32.encode('age', bech32.toWords(x25519PublicKey(key))).length
      return bech32.encode('age-secret-key-', bech32.toWords(key)).toUpperCase()
    }))),
  // A token's encoding includes its checksum and the SHA-256 the answer carries
  microCase('token', 'defaults (rg, length 30, with hashes)', 1,
    () => generateTokenResult({ prefix: 'rg', length: 30, quantity: 1 }).values,
    hashing(limitOf(1, 30, tokenEncoding('rg', 30)))),
  microCase('token', 'length 128, ×50 (with hashes)', 50,
    () => generateTokenResult({ prefix: 'abcdefghijklmnop', length: 128, quantity: 50 }).values,
    hashing(limitOf(50, 128, tokenEncoding('abcdefghijklmnop', 128)))),
  microCase('totp', 'defaults (20 bytes, account user)', 1,
    () => generateTotpUris({ issuer: '', account: 'user', algorithm: 'SHA1', digits: 6, period: 30, byteLength: 20, quantity: 1 }),
    limitOf(1, 20, totpEncoding('otpauth://totp/user?secret=', '&algorithm=SHA1&digits=6&period=30', 20))),
  microCase('totp', 'issuer and account, 64 bytes, ×50', 50,
    () => generateTotpUris({ issuer: 'Example Co', account: 'alice@example.com', algorithm: 'SHA512', digits: 8, period: 30, byteLength: 64, quantity: 50 }),
    limitOf(50, 64, totpEncoding('otpauth://totp/Example%20Co:alice%40example.com?secret=', '&issuer=Example%20Co&algorithm=SHA512&digits=8&period=30', 64)))
]

// Written to, so the JIT cannot drop the calls being timed
let sink = 0

/** Calls per second of `fn`, run for about `ms` milliseconds in batches of at least 1 ms. */
function callsPerSecond (fn: () => string[], ms: number): number {
  let batch = 1
  for (;;) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) sink += fn().length
    if (Number(process.hrtime.bigint() - start) >= 1e6 || batch >= 1 << 20) break
    batch *= 2
  }
  let calls = 0
  const start = process.hrtime.bigint()
  let elapsed = 0
  while (elapsed < ms * 1e6) {
    for (let i = 0; i < batch; i++) sink += fn().length
    calls += batch
    elapsed = Number(process.hrtime.bigint() - start)
  }
  return calls / (elapsed / 1e9)
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] as number : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** Generator and limit alternate (A B A B ...) `rounds` times; the medians are reported. */
export function runMicro (ms: number, rounds: number, log: (line: string) => void = () => {}): MicroResult[] {
  const results: MicroResult[] = []
  for (const micro of MICRO_CASES) {
    callsPerSecond(micro.run, ms / 2)
    callsPerSecond(micro.limit, ms / 2)
    const runs: number[] = []
    const limits: number[] = []
    for (let round = 0; round < rounds; round++) {
      runs.push(callsPerSecond(micro.run, ms))
      limits.push(callsPerSecond(micro.limit, ms))
    }
    const valuesPerSecond = median(runs) * micro.quantity
    const limitPerSecond = median(limits) * micro.quantity
    results.push({ generator: micro.generator, params: micro.params, valuesPerSecond, limitPerSecond, ratio: valuesPerSecond / limitPerSecond })
    log(`micro ${micro.generator} ${micro.params}: ${Math.round(valuesPerSecond)} values/s, limit ${Math.round(limitPerSecond)}, ratio ${(valuesPerSecond / limitPerSecond).toFixed(2)}`)
  }
  if (sink === 0) log('(no values generated)')
  return results
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = runMicro(Number(process.env.BENCH_MICRO_MS ?? 250), Number(process.env.BENCH_MICRO_ROUNDS ?? 3), console.log)
  // For bench/run.ts, which runs this in a process of its own: the results, last, on one line
  if (process.env.BENCH_MICRO_JSON === '1') console.log(JSON.stringify(results))
}
