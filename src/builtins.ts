// Node built-ins taken as CommonJS, not imported as ES modules. Importing a built-in as an ES
// module makes Node build its ES facade, which reads every export: on Node 26 node:http's include
// lazy getters that load undici (Node's fetch client, which the service never uses), ~33 ms of
// start-up and its memory; node:fs's load node:fs/promises (~4 ms). Required, a built-in loads only
// itself. bench/RESULTS.md (start-up, idle RSS) measures what this saves. node:zlib is loaded on
// first use: one generator needs it.
import { createRequire } from 'node:module'
import type * as Fs from 'node:fs'
import type * as Http from 'node:http'
import type * as Zlib from 'node:zlib'

const requireBuiltin = createRequire(import.meta.url)

export const { STATUS_CODES, createServer } = requireBuiltin('node:http') as typeof Http
export const { readFileSync } = requireBuiltin('node:fs') as typeof Fs

let zlib: typeof Zlib | undefined

/**
 * node:zlib's CRC-32, with node:zlib loaded on the first call: only the token generator's
 * checksum uses it, and loading zlib (on Node 26 with its zip modules) took ~5 ms of every
 * start-up (issue 26). A built-in cannot fail to load.
 */
export function crc32 (data: string | NodeJS.ArrayBufferView): number {
  zlib ??= requireBuiltin('node:zlib') as typeof Zlib
  return zlib.crc32(data)
}
