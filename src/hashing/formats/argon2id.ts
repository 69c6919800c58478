// CONTRACT §12 `argon2id`: the PHC string of Argon2id version 0x13 (RFC 9106) over a maintained
// implementation, never our own: @node-rs/argon2 (napi-rs's binding of argon2-rust, a Rust port
// of the reference C code with SIMD chosen at run time; a prebuilt binary per platform and libc,
// no install script). Chosen by measurement (issue 42, CPU per hash against argon2-cffi's C
// reference): ~0.5x on Node 20 and 26, where node:crypto's OpenSSL build costs 1.3-1.4x and
// @noble/hashes 10x. Synchronous on purpose: it runs on a hashing thread, its lanes one after
// another on that thread (it starts none of its own), never on the event loop.
import { hashRawSync, type Algorithm, type Version } from '@node-rs/argon2'
import type { Static } from '@sinclair/typebox'
import type { Argon2idHash } from '../../../schemas/hash.js'

type Argon2idSettings = Static<typeof Argon2idHash>

/** RFC 9106's version 0x13, written `v=19`. */
const VERSION = 0x13
const HASH_BYTES = 32
// The package's enums are `const enum`s in its types and absent from its module at run time
// (isolatedModules cannot inline them): their values, as its index.d.ts gives them
const ARGON2ID: Algorithm = 2
const V0X13: Version = 1

/** The raw 32-byte Argon2id hash of `message` (the value's UTF-8 bytes) and `salt`. */
export function argon2idRaw (message: Uint8Array, salt: Uint8Array, { memoryKiB, iterations, parallelism }: Argon2idSettings): Uint8Array {
  return hashRawSync(message, { algorithm: ARGON2ID, version: V0X13, salt, memoryCost: memoryKiB, timeCost: iterations, parallelism, outputLen: HASH_BYTES })
}

/** The PHC string format's Base64: the standard alphabet, no padding. */
function phcBase64 (bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64').replace(/=+$/, '')
}

export function argon2idHash (value: string, salt: Uint8Array, settings: Argon2idSettings): string {
  const message = Buffer.from(value, 'utf8')
  try {
    const hash = argon2idRaw(message, salt, settings)
    // Parameters in the order m, t, p: argon2-cffi refuses any other
    const { memoryKiB, iterations, parallelism } = settings
    return `$argon2id$v=${VERSION}$m=${memoryKiB},t=${iterations},p=${parallelism}$${phcBase64(salt)}$${phcBase64(hash)}`
  } finally {
    message.fill(0)
  }
}
