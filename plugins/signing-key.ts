import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { DEFAULT_MODULUS_BITS, JwkSetResult, RSA_KEYS_MAX, SigningKeyParams, SigningKeyResult } from '../schemas/signing-key.js'
import { registerGenerator, type Generated } from '../src/http/generator-route.js'
import { ParameterError, type FieldProblem } from '../src/http/parameter-error.js'
import type { SigningKeyJob, SigningKeySettings } from '../src/keys/signing-key-job.js'
import type { PooledWork } from '../src/http/pooled-work.js'
import { formatAllowed, isRsaAlgorithm, jwkSet, rsaEntropyBits, signingKeyEntropyBits, signingKeys, type FastAlgorithm, type ModulusBits } from '../src/keys/signing-keys.js'

type Params = Static<typeof SigningKeyParams>

const ES384_ENTROPY_BITS = signingKeyEntropyBits('ES384')

/** CONTRACT §13's rules beyond the schema, decided before anything is made. */
export function signingKeyProblems ({ algorithm, modulusBits, format, quantity }: Params): FieldProblem[] {
  const problems: FieldProblem[] = []
  const rsa = isRsaAlgorithm(algorithm)
  if (modulusBits !== undefined && !rsa) problems.push({ pointer: '#/modulusBits', code: 'NOT_ALLOWED_VALUE', message: 'RSA_ONLY', args: { allowed: algorithm } })
  if (!formatAllowed(algorithm, format)) problems.push({ pointer: '#/format', code: 'NOT_ALLOWED_VALUE', message: 'FORMAT_NOT_FOR_ALGORITHM', args: { allowed: format } })
  else if (rsa && format === 'vapid') problems.push({ pointer: '#/format', code: 'NOT_ALLOWED_VALUE', message: 'FORMAT_NOT_FOR_ALGORITHM', args: { allowed: format } })
  // Each RSA key costs up to seconds of CPU on the pool (CONTRACT §12.1)
  if (rsa && quantity > RSA_KEYS_MAX) problems.push({ pointer: '#/quantity', code: 'TOO_MANY_VALUES', message: 'TOO_MANY_RSA_KEYS', args: { max: RSA_KEYS_MAX } })
  return problems
}

function check (params: Params): void {
  const problems = signingKeyProblems(params)
  if (problems.length > 0) throw new ParameterError(problems)
}

/** HMAC keys have no public key, so no JWK Set (406) and no `publicKeys`. */
const isHmac = (algorithm: Params['algorithm']): boolean => algorithm.startsWith('HS')

/**
 * The jobs of keys that cost more than the event loop may spend (CONTRACT §5, §12.1), made on the
 * pool's threads (src/work-pool/thread.ts): an RSA key a job (up to seconds each, at most 5), and a
 * request's ES384 keys in one job (~0.9 ms of CPU each: 50 would take ~45 ms on the loop).
 */
function pooledKeys ({ algorithm, modulusBits = DEFAULT_MODULUS_BITS, format, quantity }: Params): PooledWork<Generated> | undefined {
  const rsa = isRsaAlgorithm(algorithm)
  if (!rsa && algorithm !== 'ES384') return undefined
  const settings: SigningKeySettings = { algorithm: 'signing-keys', jws: algorithm, format: format === 'pem' ? 'pem' : 'jwk', quantity: rsa ? 1 : quantity, ...(rsa ? { modulusBits: modulusBits as ModulusBits } : {}) }
  // VAPID is ES256's alone: an ES384 request here is `jwk` or `pem`
  const job: SigningKeyJob = { settings, value: '', salt: new Uint8Array(0) }
  return {
    jobs: Array.from({ length: rsa ? quantity : 1 }, () => job),
    bounded: rsa ? quantity : 0,
    finish: (results) => {
      const made = results.map((result) => JSON.parse(result) as { values: string[], publicKeys: string[] })
      return { values: made.flatMap(({ values }) => values), publicKeys: made.flatMap(({ publicKeys }) => publicKeys), entropyBits: rsa ? rsaEntropyBits(modulusBits as ModulusBits) : ES384_ENTROPY_BITS }
    }
  }
}

export default fp(async function signingKeyGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'signing-key',
    name: 'SigningKey',
    summary: 'Generate signing keys (JWK, PEM, VAPID, Synapse)',
    description: 'Signing keys for JWT and OpenID Connect, and VAPID key pairs for web push, made by node:crypto: `EdDSA` (Ed25519), `ES256` (P-256), `ES384` (P-384), `RS256`/`PS256` (RSA, 2048, 3072 or 4096 bits, made off the event loop in the bounded pool: at most 5 a request, 503 BUSY when the queue is full), `HS256`/`HS384`/`HS512` (a shared secret). ' +
      '`jwk`: the private JWK on one line (`kty`, the key\'s members, `alg`, `use: "sig"`, `kid` = the RFC 7638 thumbprint of the public key) and the public JWK in `publicKeys` (none for HS*); `pem`: PKCS#8 and SPKI; `vapid` (ES256): the 32-byte scalar and the 65-byte uncompressed point, Base64url; `synapse` (EdDSA): a Matrix Synapse signing key line `ed25519 a_XXXX <seed>` (the key id `a_` and 4 random characters of A-Z a-z 0-9, the seed in unpadded standard Base64), its public key `ed25519:a_XXXX <public key>`; in plain text each line is the key line, one space and its public key, so the line\'s first three fields are the key file (`cut -d \' \' -f 1-3`). ' +
      'With `Accept: application/jwk-set+json` the answer is the public keys as a JWK Set (406 for HS*). `entropyBits`: EdDSA 256, ES256 255.99, ES384 383.99, HS* 8 × the secret\'s bytes; RSA is the one exception to counting outcomes: the security strength NIST SP 800-57 gives the modulus (112, 128, 152 for 2048, 3072, 4096 bits), since the number of RSA keys says nothing of what an attacker faces.',
    params: SigningKeyParams,
    result: SigningKeyResult,
    generate: (params) => {
      check(params)
      return signingKeys({ algorithm: params.algorithm as FastAlgorithm, format: params.format, quantity: params.quantity })
    },
    check,
    keyPairs: ({ algorithm }) => !isHmac(algorithm),
    // A PEM spans lines (CONTRACT §13: refused in the .env form); JWK lines, VAPID keys and Synapse lines hold no `'`, `\\` or control character
    notRepresentable: ({ format }) => format === 'pem' ? ['params/format'] : [],
    pooled: pooledKeys,
    alternative: {
      mediaType: 'application/jwk-set+json',
      schema: JwkSetResult,
      possible: ({ algorithm }) => !isHmac(algorithm),
      params: (params) => ({ ...params, format: 'jwk' as const }),
      body: ({ publicKeys = [] }) => jwkSet(publicKeys)
    }
  })
}, { name: 'generator-signing-key', dependencies: ['errors', 'work-pool'] })
