// What one hash is made from: the settings of CONTRACT §12, the value, and its salt. A plain
// object, so a job crosses to a thread of the work pool (src/work-pool/pool.ts) as it is.
import type { HashSettings } from '../../schemas/hash.js'

export interface HashJob {
  settings: HashSettings
  value: string
  /** Fresh from the CSPRNG (src/hashing/salt.ts); for sha512-crypt the ASCII bytes of its 16 salt characters. */
  salt: Uint8Array
}
