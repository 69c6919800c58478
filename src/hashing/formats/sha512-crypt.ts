// CONTRACT §12 `sha512-crypt`: SHA-crypt with SHA-512 (Ulrich Drepper's specification,
// https://www.akkadia.org/drepper/SHA-crypt.txt), as glibc/libxcrypt crypt(3) computes `$6$`.
// No maintained npm package computes it well, so the steps are written here over node:crypto's
// SHA-512 (OpenSSL); test/src/hashing/formats/sha512-crypt.test.ts compares every string with
// what mkpasswd and openssl make. Synchronous on purpose: it runs on a hashing thread.
import { createHash, hash } from 'node:crypto'
import type { Static } from '@sinclair/typebox'
import type { Sha512CryptHash } from '../../../schemas/hash.js'
import { CRYPT_SALT_ALPHABET } from '../salt.js'

/** crypt(3)'s rounds when `rounds=` is left out of the string. */
const DEFAULT_ROUNDS = 5000
const MIN_ROUNDS = 1000
const SALT_CHARACTERS = 16
const DIGEST_BYTES = 64
/** A round's input repeats its layout every 42 rounds (odd or even, multiple of 3 or not, of 7 or not). */
const CYCLE = 42

const SALT_CODES = new Set(Array.from(CRYPT_SALT_ALPHABET, (character) => character.charCodeAt(0)))

/**
 * The 21 byte triples of the final digest, each written as 4 characters, least significant
 * 6 bits first: (0, 21, 42), (22, 43, 1), (44, 2, 23), (3, 24, 45), ... (the specification's
 * order); byte 63 closes with 2 characters.
 */
const TRIPLES: ReadonlyArray<readonly [number, number, number]> = Array.from({ length: 21 }, (_, i) => {
  const [a, b, c] = [i, i + 21, i + 42]
  return i % 3 === 0 ? [a, b, c] : i % 3 === 1 ? [b, c, a] : [c, a, b]
})

function sha512 (...parts: Uint8Array[]): Buffer {
  const context = createHash('sha512')
  for (const part of parts) context.update(part)
  return context.digest()
}

/** `source` repeated, then cut, to `length` bytes (the P and S sequences, A's copies of B). */
function repeatTo (source: Uint8Array, length: number): Buffer {
  return Buffer.alloc(length, source)
}

/** The 86 characters of crypt's own Base64 of the final digest, given as a latin1 string. */
function encode (digest: string): string {
  let out = ''
  const put = (word: number, characters: number): void => {
    for (let n = 0; n < characters; n++, word >>>= 6) out += CRYPT_SALT_ALPHABET[word & 63]
  }
  for (const [a, b, c] of TRIPLES) put((digest.charCodeAt(a) << 16) | (digest.charCodeAt(b) << 8) | digest.charCodeAt(c), 4)
  put(digest.charCodeAt(63), 2)
  return out
}

export function sha512CryptHash (value: string, salt: Uint8Array, settings: Static<typeof Sha512CryptHash>): string {
  const { rounds } = settings
  if (!Number.isSafeInteger(rounds) || rounds < MIN_ROUNDS) throw new RangeError(`sha512-crypt: rounds must be an integer of at least ${MIN_ROUNDS}`)
  if (salt.length !== SALT_CHARACTERS || !salt.every((code) => SALT_CODES.has(code))) {
    throw new RangeError(`sha512-crypt: the salt must be ${SALT_CHARACTERS} characters of ./0-9A-Za-z`)
  }
  const key = Buffer.from(value, 'utf8')
  const length = key.length

  // Steps 1-12: the digest A, begun from the key, the salt and B = SHA-512(key, salt, key)
  const b = sha512(key, salt, key)
  const bits: Uint8Array[] = []
  for (let n = length; n > 0; n >>>= 1) bits.push((n & 1) === 1 ? b : key)
  const a = sha512(key, salt, repeatTo(b, length), ...bits)

  // Steps 13-20: the P sequence (from the key) and the S sequence (from the salt)
  const dp = sha512(repeatTo(key, length * length))
  const p = repeatTo(dp, length)
  const s = sha512(repeatTo(salt, SALT_CHARACTERS * (16 + (a[0] as number)))).subarray(0, SALT_CHARACTERS)

  // Step 21: each round hashes one of 8 layouts, assembled once; only the previous digest C is
  // written into it. Odd rounds: P [S] [P] C; even rounds: C [S] [P] P (S unless the round is a
  // multiple of 3, the middle P unless of 7).
  const layouts = new Map<number, { input: Buffer, at: number }>()
  const cycle = Array.from({ length: CYCLE }, (_, round) => {
    const odd = round % 2 === 1
    const withS = round % 3 !== 0
    const withP = round % 7 !== 0
    const shape = (odd ? 4 : 0) | (withS ? 2 : 0) | (withP ? 1 : 0)
    let layout = layouts.get(shape)
    if (layout === undefined) {
      const slot = Buffer.alloc(DIGEST_BYTES)
      const middle = [...(withS ? [s] : []), ...(withP ? [p] : [])]
      const input = Buffer.concat(odd ? [p, ...middle, slot] : [slot, ...middle, p])
      layout = { input, at: odd ? input.length - DIGEST_BYTES : 0 }
      layouts.set(shape, layout)
    }
    return layout
  })

  // A round is one call of the one-shot hash, its digest answered as a latin1 string ('binary' is
  // Node's other name for it) and written into the next layout: measured on Node 20 and 26,
  // ~0.45 µs a round where a Buffer answer (allocated per call) takes ~1.1 µs, and hex ~0.6 µs.
  // Most of what remains is node:crypto's cost per call (~0.4 µs), not SHA-512's compression
  let c = a.toString('latin1')
  for (let round = 0, k = 0; round < rounds; round++) {
    const { input, at } = cycle[k] as { input: Buffer, at: number }
    input.write(c, at, DIGEST_BYTES, 'latin1')
    c = hash('sha512', input, 'binary')
    if (++k === CYCLE) k = 0
  }

  // What was derived from the key is not left in memory
  for (const buffer of [key, b, a, dp, p, ...bits]) buffer.fill(0)
  for (const { input } of layouts.values()) input.fill(0)

  const rest = `${Buffer.from(salt).toString('latin1')}$${encode(c)}`
  return rounds === DEFAULT_ROUNDS ? `$6$${rest}` : `$6$rounds=${rounds}$${rest}`
}
