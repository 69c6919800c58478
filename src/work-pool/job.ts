// What the work pool runs (CONTRACT §12.1): work too costly for the event loop, each kind defined
// beside what it makes. A plain object, so a job crosses to a pool thread as it is.
import type { HashAlgorithm } from '../../schemas/hash.js'
import type { HashJob } from '../hashing/hash-job.js'
import type { SigningKeyJob, SigningKeySettings } from '../keys/signing-key-job.js'

/** A password hash (src/hashing/), or signing keys (src/keys/). */
export type PoolJob = HashJob | SigningKeyJob
export type PoolAlgorithm = HashAlgorithm | SigningKeySettings['algorithm']
