// CONTRACT §9 access keys: the SHA-256 digests an operator configures, and the check of the key
// a request presents. Only digests are ever held: the service cannot leak a key it never stored.
import { createHash, timingSafeEqual } from 'node:crypto'
import { Type, type Static } from '@sinclair/typebox'
import { readFileSync } from '../builtins.js'
import type { FastifyRequest } from 'fastify'
import { ConfigError } from './config-error.js'

/**
 * CONTRACT §9: SHA-256 digests of the accepted access keys, part of the environment src/ops/config.ts
 * reads. Their syntax is checked here (accessKeyDigests), with messages that never quote a value.
 */
export const AccessKeySettings = Type.Object({
  API_KEY_HASHES: Type.String({ default: '', description: 'Comma-separated SHA-256 digests (hex) of the accepted access keys' }),
  API_KEY_HASHES_FILE: Type.String({ default: '', description: 'A file holding the SHA-256 digests of the accepted access keys, one per line' })
})

const DIGEST = /^[0-9a-fA-F]{64}$/
/** CONTRACT §9: a key is 16..256 printable ASCII characters but space. */
const BEARER = /^bearer +([\x21-\x7e]{16,256}) *$/i
/** Longer than any well-formed `Bearer <key>`: refused without running the pattern over it. */
const AUTHORIZATION_MAX_LENGTH = 'bearer '.length + 256 + 16

/**
 * The digests in `entries`, each checked; a bad one stops the start with a message that names
 * the setting and the entry's position, never its text (it may be a key pasted by mistake).
 */
function parseDigests (entries: string[], setting: string, unit: string): Buffer[] {
  const digests = new Map<string, Buffer>()
  entries.forEach((raw, index) => {
    const entry = raw.trim()
    if (entry === '') return
    if (!DIGEST.test(entry)) {
      throw new ConfigError(`Invalid configuration: ${setting} ${unit} ${index + 1} is not a SHA-256 digest (64 hexadecimal characters)`)
    }
    // Either case is accepted; the same digest twice is one key
    digests.set(entry.toLowerCase(), Buffer.from(entry, 'hex'))
  })
  return [...digests.values()]
}

/**
 * The accepted keys' digests from API_KEY_HASHES or API_KEY_HASHES_FILE; none means keys are
 * off. Both set is refused (one source of truth), and so is a file that holds no digest: an
 * operator who names a file means to close the service, and an empty mount must not open it.
 */
export function accessKeyDigests (config: Static<typeof AccessKeySettings>, read: (path: string) => string = (path) => readFileSync(path, 'utf8')): Buffer[] {
  const inline = config.API_KEY_HASHES.trim()
  const file = config.API_KEY_HASHES_FILE.trim()
  if (inline !== '' && file !== '') {
    throw new ConfigError('Invalid configuration: set API_KEY_HASHES or API_KEY_HASHES_FILE, not both')
  }
  if (file === '') return parseDigests(inline.split(','), 'API_KEY_HASHES', 'entry')
  let text: string
  try {
    text = read(file)
  } catch (error) {
    throw new ConfigError(`Invalid configuration: API_KEY_HASHES_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  // One digest a line; blank lines and # comments (which key is whose) are skipped
  const lines = text.split(/\r?\n/).map((line) => (line.trimStart().startsWith('#') ? '' : line))
  const digests = parseDigests(lines, 'API_KEY_HASHES_FILE', 'line')
  if (digests.length === 0) throw new ConfigError('Invalid configuration: API_KEY_HASHES_FILE holds no digest')
  return digests
}

/** How logs name a key: the first 8 hex characters of its digest (32 bits: enough to tell keys apart, nothing to recover one). */
export function keyId (digest: Buffer): string {
  return digest.toString('hex', 0, 4)
}

export function sha256 (text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

/**
 * The index of `presented` among `digests`, or -1. Every digest is compared, each in constant
 * time, with no early exit: how long the check takes says nothing about which digest, or how
 * much of one, a key's digest matched (test/stats/access-key-timing.test.ts).
 */
export function matchDigest (digests: readonly Buffer[], presented: Buffer): number {
  let found = 0
  for (let i = 0; i < digests.length; i++) {
    // Digests are distinct, so at most one term is not 0
    found += Number(timingSafeEqual(digests[i] as Buffer, presented)) * (i + 1)
  }
  return found - 1
}

export type Credential = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'key', key: string }

/** The key of an `Authorization: Bearer <key>` header (scheme in any case, RFC 9110 §11.1). */
export function credentialOf (header: string | undefined): Credential {
  if (header === undefined || header === '') return { kind: 'missing' }
  if (header.length > AUTHORIZATION_MAX_LENGTH) return { kind: 'malformed' }
  const key = BEARER.exec(header)?.[1]
  return key === undefined ? { kind: 'malformed' } : { kind: 'key', key }
}

/** The key id of each request let in with a key, for its log lines (src/server-options.ts). */
export const keyIds = new WeakMap<FastifyRequest, string>()
