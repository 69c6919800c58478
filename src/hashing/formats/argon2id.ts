// CONTRACT §12 `argon2id`: the PHC string of Argon2id version 0x13 (RFC 9106) over a maintained
// implementation, never our own: the runtime's `crypto.argon2Sync` (OpenSSL, Node >= 24.7), else
// the audited pure-JS @noble/hashes (Node 20 and 22). Synchronous on purpose: it runs on a hashing
// thread, never on the event loop.
import * as nodeCrypto from 'node:crypto'
import { argon2id as nobleArgon2id } from '@noble/hashes/argon2.js'
import type { Static } from '@sinclair/typebox'
import type { Argon2idHash } from '../../../schemas/hash.js'

type Argon2idSettings = Static<typeof Argon2idHash>

/** RFC 9106's version 0x13, written `v=19`. */
const VERSION = 0x13
const HASH_BYTES = 32

/** The raw Argon2id hash of `message` (the value's UTF-8 bytes) and `salt`. */
export type Argon2idRaw = (message: Uint8Array, salt: Uint8Array, settings: Argon2idSettings) => Uint8Array

// @types/node 22 does not know crypto.argon2Sync (Node 24.7): its shape, as Node documents it
type NodeArgon2Sync = (algorithm: 'argon2id', parameters: {
  message: Uint8Array, nonce: Uint8Array, parallelism: number, tagLength: number, memory: number, passes: number
}) => Buffer

/** OpenSSL's Argon2id through node:crypto; throws where the runtime has no crypto.argon2Sync. */
export const nodeArgon2id: Argon2idRaw = (message, salt, { memoryKiB, iterations, parallelism }) =>
  (nodeCrypto as unknown as { argon2Sync: NodeArgon2Sync }).argon2Sync('argon2id', {
    message, nonce: salt, parallelism, tagLength: HASH_BYTES, memory: memoryKiB, passes: iterations
  })

/** @noble/hashes' Argon2id: the same bytes, in JavaScript (~4x the CPU of OpenSSL's). */
export const nobleArgon2idRaw: Argon2idRaw = (message, salt, { memoryKiB, iterations, parallelism }) =>
  nobleArgon2id(message, salt, { m: memoryKiB, t: iterations, p: parallelism, dkLen: HASH_BYTES, version: VERSION })

/** Whether `raw` hashes on this runtime (a tiny hash: 8 KiB, one pass). */
export function answers (raw: Argon2idRaw): boolean {
  try {
    raw(new Uint8Array(1), new Uint8Array(16), { algorithm: 'argon2id', memoryKiB: 8, iterations: 1, parallelism: 1 })
    return true
  } catch {
    return false
  }
}

/** What this runtime hashes with: the first that answers, node:crypto's before @noble/hashes'. */
export const argon2idRaw = [nodeArgon2id, nobleArgon2idRaw].filter(answers)[0] as Argon2idRaw

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
