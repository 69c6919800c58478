// ML-KEM-768 and ML-DSA-65 public keys from their seeds (FIPS 203 KeyGen_internal(d, z), FIPS 204
// KeyGen_internal(ξ)), by a maintained implementation, never by lattice code of our own: OpenSSL
// through node:crypto where the runtime has it, else the audited pure-JS @noble/post-quantum.
import { createPrivateKey, createPublicKey, type KeyObject, type PrivateKeyInput } from 'node:crypto'
import { ml_dsa65 as mlDsa65 } from '@noble/post-quantum/ml-dsa.js'
import { ml_kem768 as mlKem768 } from '@noble/post-quantum/ml-kem.js'

/** Seed sizes: ML-KEM's d ‖ z, ML-DSA's ξ (what `xray mlkem768` and `xray mldsa65` print as the private key). */
export const ML_KEM_768_SEED_BYTES = 64
export const ML_DSA_65_SEED_BYTES = 32

export interface PostQuantumBackend {
  /** Said in the start-up log line. */
  name: string
  /** The 1,184-byte ML-KEM-768 encapsulation key of a 64-byte seed. */
  mlKem768: (seed: Uint8Array) => Uint8Array
  /** The 1,952-byte ML-DSA-65 public key of a 32-byte seed. */
  mlDsa65: (seed: Uint8Array) => Uint8Array
}

// Node ≥ 24.7 has both algorithms (OpenSSL 3.5); @types/node 22 knows neither them nor the raw
// key formats, so the options are spelled out here. The seed goes in raw: measured on Node 24.21,
// 50 ML-DSA-65 keys cost ~24 ms of CPU imported as seed-only PKCS#8 (OpenSSL's DER decoder
// machinery, per key) and ~14 ms as `raw-seed`, and CONTRACT §5 allows 20 ms for the request.
function nodePublicKey (asymmetricKeyType: string, seed: Uint8Array): Uint8Array {
  const input = { key: seed, format: 'raw-seed', asymmetricKeyType } as unknown as PrivateKeyInput
  const publicKey: KeyObject = createPublicKey(createPrivateKey(input))
  return publicKey.export({ format: 'raw-public' } as unknown as { format: 'der', type: 'spki' })
}

export const NODE_CRYPTO: PostQuantumBackend = {
  name: 'node:crypto (OpenSSL)',
  mlKem768: (seed) => nodePublicKey('ml-kem-768', seed),
  mlDsa65: (seed) => nodePublicKey('ml-dsa-65', seed)
}

// noble also returns the expanded secret key: wiped here, as every secret we hold
function noblePublicKey (keygen: (seed: Uint8Array) => { publicKey: Uint8Array, secretKey: Uint8Array }, seed: Uint8Array): Uint8Array {
  const { publicKey, secretKey } = keygen(seed)
  secretKey.fill(0)
  return publicKey
}

export const NOBLE: PostQuantumBackend = {
  name: '@noble/post-quantum (JavaScript)',
  mlKem768: (seed) => noblePublicKey(mlKem768.keygen, seed),
  mlDsa65: (seed) => noblePublicKey(mlDsa65.keygen, seed)
}

/** Whether `backend` makes both keys on this runtime (a runtime without them throws). */
export function answers (backend: PostQuantumBackend): boolean {
  try {
    backend.mlKem768(new Uint8Array(ML_KEM_768_SEED_BYTES))
    backend.mlDsa65(new Uint8Array(ML_DSA_65_SEED_BYTES))
    return true
  } catch {
    return false
  }
}

/** The first of `candidates` that answers on this runtime. */
export function pickBackend (candidates: readonly PostQuantumBackend[]): PostQuantumBackend {
  for (const candidate of candidates) if (answers(candidate)) return candidate
  throw new Error('no ML-KEM/ML-DSA implementation answers on this runtime')
}

/**
 * Picked once, when the service starts: OpenSSL's keys cost ~0.3 ms (ML-DSA-65) where the
 * pure-JS ones cost ~1.6-3 ms, so only node:crypto keeps 50 ML-DSA keys within CONTRACT §5's
 * 20 ms; noble keeps older runtimes (Node 20, 22) answering, slower.
 */
export const POST_QUANTUM = pickBackend([NODE_CRYPTO, NOBLE])
