// CONTRACT §12: the `hash` parameter of password and passphrase, a choice by `algorithm` between
// five named schemas. AJV's discriminator validates only the chosen branch, so its defaults are
// filled in and its unknown fields reported (`#/hash/<field>`); the OpenAPI document names each
// branch (plugins/docs.ts adds the discriminator's mapping).
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox'
import { StringEnum } from './common.js'

/** CONTRACT §12: a request hashes at most this many values. */
export const HASHED_VALUES_MAX = 5
/** bcrypt reads at most this many bytes of its input (CONTRACT §12: TOO_LONG_FOR_HASH beyond). */
export const BCRYPT_MAX_BYTES = 72
/**
 * crypt(3) (libxcrypt: /etc/shadow, nginx, mkpasswd) refuses a SHA-512 crypt input over this many
 * bytes, so a hash of a longer value could never be checked: TOO_LONG_FOR_HASH as for bcrypt (a
 * passphrase of 20 Korean words reaches it; no password does).
 */
export const SHA512_CRYPT_MAX_BYTES = 511

/** The most bytes of a value each algorithm takes, where it has a most. */
export const HASH_INPUT_MAX_BYTES: Readonly<Partial<Record<string, number>>> = { bcrypt: BCRYPT_MAX_BYTES, 'sha512-crypt': SHA512_CRYPT_MAX_BYTES }

/**
 * One choice of `hash`: `algorithm` required, every other field optional for the client with a
 * default AJV fills in (as Params does for a generator), so the handler's type has them all.
 */
function HashChoice<T extends TProperties> ($id: string, properties: T, description: string): TObject<T> {
  const schema = Type.Object(properties, { $id, additionalProperties: false, description })
  return { ...schema, required: ['algorithm'] } as unknown as TObject<T>
}

export const Argon2idHash = HashChoice('Argon2idHash', {
  algorithm: Type.Literal('argon2id'),
  memoryKiB: Type.Integer({ minimum: 7168, maximum: 65540, default: 19456, description: 'Memory in KiB (7168..65540; 19456 = 19 MiB, OWASP\'s first choice).' }),
  iterations: Type.Integer({ minimum: 1, maximum: 5, default: 2, description: 'Passes over the memory (1..5).' }),
  parallelism: Type.Integer({ minimum: 1, maximum: 4, default: 1, description: 'Lanes (1..4).' })
}, 'Argon2id version 0x13 (RFC 9106), a 16-byte salt and a 32-byte hash: `$argon2id$v=19$m=<memoryKiB>,t=<iterations>,p=<parallelism>$<salt>$<hash>`, each in Base64 without padding (the PHC string format). Read by Vaultwarden (`ADMIN_TOKEN`), Authelia, the reference `argon2` and argon2-cffi.')

export const BcryptHash = HashChoice('BcryptHash', {
  algorithm: Type.Literal('bcrypt'),
  cost: Type.Integer({ minimum: 4, maximum: 14, default: 12, description: 'log2 of the rounds (4..14).' })
}, `bcrypt: \`$2y$<cost as two digits>$<22 characters of salt><31 of hash>\` in bcrypt's own Base64 alphabet. bcrypt reads at most ${BCRYPT_MAX_BYTES} bytes, so a request whose values could be longer is TOO_LONG_FOR_HASH. Read by Apache \`htpasswd -v\`, nginx \`auth_basic\`, Traefik, Caddy and the Docker registry.`)

export const Sha512CryptHash = HashChoice('Sha512CryptHash', {
  algorithm: Type.Literal('sha512-crypt'),
  rounds: Type.Integer({ minimum: 1000, maximum: 100000, default: 5000, description: 'Rounds (1000..100000); 5000 is left out of the string, as crypt(3) writes it.' })
}, `SHA-crypt with SHA-512: \`$6$<salt>$<86 characters>\` at 5000 rounds, \`$6$rounds=<rounds>$<salt>$<86 characters>\` otherwise, with a 16-character salt over \`./0-9A-Za-z\`. crypt(3) refuses an input over ${SHA512_CRYPT_MAX_BYTES} bytes, so a request whose values could be longer (a long passphrase) is TOO_LONG_FOR_HASH. Read by glibc/libxcrypt \`crypt(3)\` (\`/etc/shadow\`, cloud-init), \`mkpasswd -m sha-512\`, \`openssl passwd -6\` and nginx \`auth_basic\`.`)

export const ScramSha256Hash = HashChoice('ScramSha256Hash', {
  algorithm: Type.Literal('scram-sha-256'),
  iterations: Type.Integer({ minimum: 4096, maximum: 100000, default: 4096, description: 'PBKDF2 iterations (4096..100000; PostgreSQL\'s default is 4096).' })
}, 'A SCRAM-SHA-256 verifier (RFC 5802, RFC 7677): `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, a 16-byte salt, Base64 with padding; computed from the value after SASLprep (RFC 4013), exactly as PostgreSQL and libpq prepare a password (the raw bytes where SASLprep refuses it). Read by PostgreSQL (`CREATE ROLE ... PASSWORD \'<hash>\'`) and PgBouncer.')

export const MosquittoHash = HashChoice('MosquittoHash', {
  algorithm: Type.Literal('mosquitto'),
  iterations: Type.Integer({ minimum: 101, maximum: 100000, default: 101, description: 'PBKDF2 iterations (101..100000; 101 is what `mosquitto_passwd` writes).' })
}, 'Mosquitto 2\'s PBKDF2-HMAC-SHA512: `$7$<iterations>$<salt>$<hash>`, a 12-byte salt and a 64-byte hash, each in Base64 with padding. Read by Mosquitto\'s `password_file` (`<user>:<hash>`).')

/** The five choices, in the order the contract lists them. */
export const HASH_BRANCHES = [Argon2idHash, BcryptHash, Sha512CryptHash, ScramSha256Hash, MosquittoHash] as const
export const HASH_ALGORITHMS = ['argon2id', 'bcrypt', 'sha512-crypt', 'scram-sha-256', 'mosquitto'] as const
export type HashAlgorithm = typeof HASH_ALGORITHMS[number]

/** Every field some branch takes: what the precheck (src/http/precheck.ts) counts as known inside `hash`. */
export const HASH_FIELDS: ReadonlySet<string> = new Set(HASH_BRANCHES.flatMap((branch) => Object.keys(branch.properties)))

/** What a handler sees: one branch, its defaults filled in. */
export type HashSettings = Static<typeof Argon2idHash> | Static<typeof BcryptHash> | Static<typeof Sha512CryptHash> | Static<typeof ScramSha256Hash> | Static<typeof MosquittoHash>

/**
 * `hash`: `algorithm` (required) picks the branch, whose own fields and defaults apply. Said once
 * here (`algorithm` and its choices), so AJV names a missing or unknown algorithm at
 * `#/hash/algorithm` whichever branch would have been taken.
 */
export const HASH_PARAMS_ID = 'HashParams'
export const HashParams = Type.Unsafe<HashSettings>({
  $id: HASH_PARAMS_ID,
  type: 'object',
  required: ['algorithm'],
  properties: {
    algorithm: StringEnum(HASH_ALGORITHMS, { description: 'The hash to answer in `hashes`: `argon2id`, `bcrypt`, `sha512-crypt`, `scram-sha-256` or `mosquitto`; it decides which other fields `hash` takes.' })
  },
  discriminator: { propertyName: 'algorithm' },
  oneOf: HASH_BRANCHES.map((branch) => Type.Ref(branch.$id as string)),
  description: `The hash of each value to answer in \`hashes\`, in the values' order (at most ${HASHED_VALUES_MAX} values then): a choice by \`algorithm\`. Every salt is fresh from the CSPRNG, one per hash.`,
  examples: [{ algorithm: 'argon2id' }]
}) as TSchema & { static: HashSettings }

/** The `hash` property of a generator's parameters: optional, no default (no hash unless asked). */
export const HashParameter = Type.Optional(Type.Unsafe<HashSettings>({ $ref: HASH_PARAMS_ID, description: 'The hash of each value to answer in `hashes` beside it (CONTRACT §12): a choice by `algorithm` between `argon2id`, `bcrypt`, `sha512-crypt`, `scram-sha-256` and `mosquitto`. At most 5 values then.' }))

/** Every schema `hash` refers to, for app.addSchema before the generators that use it. */
export const HASH_SCHEMAS: readonly TSchema[] = [...HASH_BRANCHES, HashParams]
