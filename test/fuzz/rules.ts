// The generators' own rules, for the fuzz (CONTRACT §2): where the fuzzer sent parameters the
// schema accepts, the answer must be the one the rules call for. A 200 where a rule refuses (or a
// refusal where none applies, or another field error) is a violation, and so is a value that
// breaks its parameters: a password under an enabled set's minimum or with a character excluded
// or a look-alike asked away, a passphrase that does not read back as words of its list with the
// capitals and digit asked, a weak PIN with avoidWeak.
// The schema is applied with AJV and the route's options (defaults filled in, no coercion), so the
// rules see the parameters the generator saw.
import { HASH_SCHEMAS } from '../../schemas/hash.js'
import { Ajv, type ValidateFunction } from 'ajv'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { CHARACTER_SETS } from '../../plugins/password.js'
import { PASSPHRASE_WORD_LISTS } from '../../plugins/passphrase.js'
import { isAllowedSeparator } from '../../plugins/phrase.js'
import { PassphraseParams } from '../../schemas/passphrase.js'
import { PasswordParams } from '../../schemas/password.js'
import { PinParams } from '../../schemas/pin.js'
import { SeqParams } from '../../schemas/seq.js'
import { SshKeyParams } from '../../schemas/ssh-key.js'
import { AgeKeyParams } from '../../schemas/age-key.js'
import { TokenParams } from '../../schemas/token.js'
import { TotpParams } from '../../schemas/totp.js'
import { UuidParams } from '../../schemas/uuid.js'
import { VpnParams } from '../../schemas/vpn.js'
import { expectedUri, parseUri, secretOf } from '../otpauth-uri.js'
import { readPassphrase } from '../passphrase-reader.js'
import { checksumHolds } from '../token-checksum.js'

interface FieldError { pointer: string, code: string }

interface Rules {
  schema: ValidateFunction
  /** The field errors the rules call for, if any (the schema already accepted the parameters). */
  refusal: (params: any) => FieldError | FieldError[] | undefined
  /** Every field error the rules call for, where an answer lists more than `refusal` gives (else `refusal` alone). */
  refusals?: (params: any) => FieldError[]
  /** What is wrong with one generated value, if anything. */
  valueProblem: (params: any, value: string) => string | undefined
  /** What is wrong with the answer as a whole (order, public keys), if anything. */
  bodyProblem?: (params: any, body: Record<string, any>) => string | undefined
}

const ajv = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: true, allowUnionTypes: true, strict: false, discriminator: true })
// CONTRACT §12: password's and passphrase's `hash` refers to the named choice
for (const schema of HASH_SCHEMAS) ajv.addSchema(schema)

// CONTRACT §2, written out here rather than taken from the plugin
const LOOK_ALIKES = 'IOlo01|'
const SETS = [
  { name: 'uppercase', minimum: 'minUppercase', characters: CHARACTER_SETS.uppercase },
  { name: 'lowercase', minimum: 'minLowercase', characters: CHARACTER_SETS.lowercase },
  { name: 'numbers', minimum: 'minNumbers', characters: CHARACTER_SETS.numbers },
  { name: 'symbols', minimum: 'minSymbols', characters: CHARACTER_SETS.symbols }
] as const

/** An enabled set's characters in the contract's order: the set (or symbolSet), less exclude, less the look-alikes. */
function charactersOf (params: any, set: typeof SETS[number]): string {
  const source: string = set.name === 'symbols' ? params.symbolSet : set.characters
  return [...source].filter((c) => !(params.exclude as string).includes(c) && !(params.avoidAmbiguous === true && LOOK_ALIKES.includes(c))).join('')
}

const password: Rules = {
  schema: ajv.compile(PasswordParams),
  refusal: (params) => {
    const enabled = SETS.filter((set) => params[set.name] === true)
    if (enabled.length === 0) return { pointer: '#', code: 'NO_CHARACTER_SET' }
    const empty = enabled.find((set) => charactersOf(params, set) === '')
    if (empty !== undefined) return { pointer: `#/${empty.name}`, code: 'EMPTY_SET' }
    const total = enabled.reduce((sum, set) => sum + (params[set.minimum] as number), 0)
    return total > params.length ? { pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH' } : undefined
  },
  // Every empty set is listed, then the minimums: the answer is compared with all of them
  refusals: (params) => {
    const enabled = SETS.filter((set) => params[set.name] === true)
    if (enabled.length === 0) return [{ pointer: '#', code: 'NO_CHARACTER_SET' }]
    const problems: FieldError[] = enabled.filter((set) => charactersOf(params, set) === '').map((set) => ({ pointer: `#/${set.name}`, code: 'EMPTY_SET' }))
    const total = enabled.reduce((sum, set) => sum + (params[set.minimum] as number), 0)
    if (total > params.length) problems.push({ pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH' })
    return problems
  },
  valueProblem: (params, value) => {
    if (value.length !== params.length) return `${value.length} characters for length ${String(params.length)}`
    const enabled = SETS.filter((set) => params[set.name] === true)
    const sets = enabled.map((set) => charactersOf(params, set))
    const counts = enabled.map(() => 0)
    for (const character of value) {
      const set = sets.findIndex((characters) => characters.includes(character))
      if (set < 0) return `a character from no enabled set (or excluded, or a look-alike asked away): ${JSON.stringify(character)}`
      counts[set] = (counts[set] as number) + 1
    }
    const short = enabled.findIndex((set, index) => (counts[index] as number) < params[set.minimum])
    const set = enabled[short]
    return set === undefined ? undefined : `${String(counts[short])} ${set.name} for ${set.minimum} ${String(params[set.minimum])}`
  }
}

const SEPARATOR_REFUSED = /[\p{L}\p{Nd}\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Cn}]|^\p{M}/u
const LISTS = new Map(Object.entries(PASSPHRASE_WORD_LISTS).map(([name, { words }]) => [name, { words: new Set(words), longest: Math.max(...words.map((word) => word.length)) + 1 }]))

const passphrase: Rules = {
  schema: ajv.compile(PassphraseParams),
  refusal: (params) => {
    if (SEPARATOR_REFUSED.test(params.separator)) return { pointer: '#/separator', code: 'NOT_ALLOWED_VALUE' }
    if (params.wordList === 'eff-large') return undefined
    // A BIP-39 list: the phrase generator's rule too (1..4 characters, none from the list's words)
    if (params.separator === '') return { pointer: '#/separator', code: 'TOO_SHORT' }
    return isAllowedSeparator(params.separator, params.wordList.slice('bip39-'.length)) ? undefined : { pointer: '#/separator', code: 'NOT_ALLOWED_VALUE' }
  },
  valueProblem: (params, value) => {
    const list = LISTS.get(params.wordList)
    if (list === undefined) return `no list ${String(params.wordList)}`
    const { first, count } = readPassphrase(value, params, list.words, list.longest)
    if (first === undefined) return `does not read back as ${String(params.words)} ${String(params.wordList)} words as asked`
    if (count > 1) return 'reads back in more than one way'
    const digits = value.match(/[0-9]/g)?.length ?? 0
    if (digits !== (params.includeNumber === true ? 1 : 0)) return `${digits} digits with includeNumber ${String(params.includeNumber)}`
    return undefined
  }
}

// CONTRACT §2 pin: weak when a shorter block whose length divides the PIN's repeats, or a straight run
function weakPin (pin: string): boolean {
  const digits = [...pin].map(Number)
  const repeated = digits.some((_, block) => block > 0 && pin.length % block === 0 && block < pin.length && digits.every((digit, i) => digit === digits[i % block]))
  const run = (step: number) => digits.every((digit, i) => i === 0 || digit - (digits[i - 1] as number) === step)
  return repeated || run(1) || run(-1)
}

const pin: Rules = {
  schema: ajv.compile(PinParams),
  refusal: () => undefined,
  valueProblem: (params, value) => {
    if (!new RegExp(`^[0-9]{${String(params.length)}}$`).test(value)) return `not ${String(params.length)} digits`
    return params.avoidWeak === true && weakPin(value) ? 'a weak PIN with avoidWeak' : undefined
  }
}

// CONTRACT §2 vpn, uuid and seq: the shape of each value, written out here
const BASE64_16 = /^[A-Za-z0-9+/]{22}==$/
const BASE64_32 = /^[A-Za-z0-9+/]{43}=$/
const BASE64URL_32 = /^[A-Za-z0-9_-]{43}$/
const VPN_SHAPES: Record<string, (length: number) => RegExp> = {
  shadowsocks: (length) => new RegExp(`^[A-Za-z0-9_-]{${length}}$`),
  '2022-blake3-aes-128-gcm': () => BASE64_16,
  '2022-blake3-aes-256-gcm': () => BASE64_32,
  '2022-blake3-chacha20-poly1305': () => BASE64_32,
  wireguard: () => BASE64_32,
  'wireguard-psk': () => BASE64_32,
  reality: () => BASE64URL_32,
  mlkem768: () => /^[A-Za-z0-9_-]{86}$/,
  mldsa65: () => BASE64URL_32,
  hex: () => /^[0-9a-f]{64}$/
}
// Public keys: X25519's 32 bytes, ML-KEM-768's 1,184, ML-DSA-65's 1,952 (base64url, unpadded)
const PUBLIC_KEY_SHAPES: Record<string, RegExp> = {
  wireguard: BASE64_32,
  reality: BASE64URL_32,
  mlkem768: /^[A-Za-z0-9_-]{1579}$/,
  mldsa65: /^[A-Za-z0-9_-]{2603}$/
}
const KEY_PAIRS = new Set(Object.keys(PUBLIC_KEY_SHAPES))

/** What is wrong with `body.publicKeys`: one per value, each of `shape`. */
function publicKeysProblem (body: Record<string, any>, shape: (key: string) => boolean): string | undefined {
  const keys = body.publicKeys
  if (!Array.isArray(keys) || keys.length !== body.values?.length) return 'no public key for each value'
  return keys.every((key) => typeof key === 'string' && shape(key)) ? undefined : 'a malformed public key'
}

const vpn: Rules = {
  schema: ajv.compile(VpnParams),
  refusal: () => undefined,
  valueProblem: (params, value) => VPN_SHAPES[params.protocol]?.(params.length).test(value) === true ? undefined : `not a ${String(params.protocol)} value`,
  bodyProblem: (params, body) => {
    if (!KEY_PAIRS.has(params.protocol)) return body.publicKeys === undefined ? undefined : `publicKeys for ${String(params.protocol)}`
    const shape = PUBLIC_KEY_SHAPES[params.protocol] as RegExp
    return publicKeysProblem(body, (key) => shape.test(key))
  }
}

// CONTRACT §2 ssh-key: the file's frame and 70-character Base64 lines; the public key line with
// the comment. The blob of an Ed25519 public key is 51 bytes: 68 Base64 characters, no padding
const SSH_FILE = /^-----BEGIN OPENSSH PRIVATE KEY-----\n([A-Za-z0-9+/]{70}\n)*[A-Za-z0-9+/]{1,69}={0,2}\n-----END OPENSSH PRIVATE KEY-----\n$/
const SSH_PUBLIC_KEY = /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]{43}( [\x20-\x7e]+)?$/

const sshKey: Rules = {
  schema: ajv.compile(SshKeyParams),
  refusal: (params) => /^[\x20-\x7e]*$/.test(params.comment) ? undefined : { pointer: '#/comment', code: 'NOT_ALLOWED_VALUE' },
  valueProblem: (params, value) => {
    if (!SSH_FILE.test(value)) return 'not an OpenSSH private key file'
    const blob = Buffer.from(value.split('\n').slice(1, -2).join(''), 'base64')
    if (!blob.subarray(0, 15).equals(Buffer.from('openssh-key-v1\0', 'latin1'))) return 'not openssh-key-v1'
    return blob.includes(Buffer.from(params.comment, 'latin1')) ? undefined : 'the comment is not in the file'
  },
  bodyProblem: (params, body) => publicKeysProblem(body, (key) =>
    SSH_PUBLIC_KEY.test(key) && key.slice(80) === (params.comment === '' ? '' : ` ${String(params.comment)}`))
}

// CONTRACT §2 age-key: Bech32 of 32 bytes (52 characters) and its 6-character checksum
const ageKey: Rules = {
  schema: ajv.compile(AgeKeyParams),
  refusal: () => undefined,
  valueProblem: (_params, value) => /^AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}$/.test(value) ? undefined : 'not an age identity',
  bodyProblem: (_params, body) => publicKeysProblem(body, (key) => /^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$/.test(key))
}

const UUID_SHAPES: Record<string, (length: number) => RegExp> = {
  standard: () => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  v7: () => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  ulid: () => /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/,
  numeric: (length) => new RegExp(`^[0-9]{${length}}$`),
  alpha: (length) => new RegExp(`^[A-Za-z]{${length}}$`),
  alphanumeric: (length) => new RegExp(`^[A-Za-z0-9]{${length}}$`),
  urlsafe: (length) => new RegExp(`^[A-Za-z0-9_-]{${length}}$`)
}

const uuid: Rules = {
  schema: ajv.compile(UuidParams),
  refusal: () => undefined,
  valueProblem: (params, value) => UUID_SHAPES[params.format]?.(params.length).test(value) === true ? undefined : `not a ${String(params.format)} value`,
  // v7 and ULID: strictly ascending within a response (both sort as strings in time-then-random order)
  bodyProblem: (params, body) => (params.format === 'v7' || params.format === 'ulid') && !(body.values as string[]).every((value, index, values) => index === 0 || (values[index - 1] as string) < value)
    ? `${String(params.format)} values not strictly ascending`
    : undefined
}

// Unpadded and padded (CONTRACT §14.2: `=` to a whole quantum of 4, or 8 for base32)
const SEQ_SHAPES: Record<string, (bytes: number, padded: boolean) => RegExp> = {
  hex: (bytes) => new RegExp(`^[0-9a-f]{${2 * bytes}}$`),
  base64: (bytes, padded) => padded ? new RegExp(`^(?=.{${4 * Math.ceil(bytes / 3)}}$)[A-Za-z0-9+/]+={0,2}$`) : new RegExp(`^[A-Za-z0-9+/]{${Math.ceil(4 * bytes / 3)}}$`),
  base64url: (bytes, padded) => padded ? new RegExp(`^(?=.{${4 * Math.ceil(bytes / 3)}}$)[A-Za-z0-9_-]+={0,2}$`) : new RegExp(`^[A-Za-z0-9_-]{${Math.ceil(4 * bytes / 3)}}$`),
  base32: (bytes, padded) => padded ? new RegExp(`^(?=.{${8 * Math.ceil(bytes / 5)}}$)[A-Z2-7]{${Math.ceil(8 * bytes / 5)}}=*$`) : new RegExp(`^[A-Z2-7]{${Math.ceil(8 * bytes / 5)}}$`)
}

const seq: Rules = {
  schema: ajv.compile(SeqParams),
  // CONTRACT §14.2: hex has no padding to give
  refusal: (params) => params.encoding === 'hex' && params.padding !== undefined ? { pointer: '#/padding', code: 'NOT_ALLOWED_VALUE' } : undefined,
  valueProblem: (params, value) => {
    if (!value.startsWith(params.prefix)) return `not after the prefix ${JSON.stringify(params.prefix)}`
    const encoded = value.slice(params.prefix.length)
    // Left out, only Base64 is padded
    const padded: boolean = params.padding ?? params.encoding === 'base64'
    if (!(SEQ_SHAPES[params.encoding]?.(params.byteLength, padded).test(encoded) ?? false)) return `not ${String(params.encoding)}${padded ? ', padded' : ''}`
    // Node's decoders suffice here for the lengths: the alphabets were checked just above
    if (params.encoding !== 'base32' && Buffer.from(encoded, params.encoding).length !== params.byteLength) return `not ${String(params.byteLength)} bytes`
    return undefined
  }
}

// CONTRACT §2 token: the prefix rule, the shape, the checksum (crc-32, test/token-checksum.ts) and
// the hashes (@noble/hashes, not node:crypto)
const token: Rules = {
  schema: ajv.compile(TokenParams),
  refusal: (params) => /^[a-z][a-z0-9]*$/.test(params.prefix) ? undefined : { pointer: '#/prefix', code: 'NOT_ALLOWED_VALUE' },
  valueProblem: (params, value) => {
    if (!new RegExp(`^${String(params.prefix)}_[0-9A-Za-z]{${params.length + 6}}$`).test(value)) return 'not <prefix>_<length + 6 base-62 characters>'
    return checksumHolds(value) ? undefined : 'a checksum that is not the CRC-32 of the random part'
  },
  bodyProblem: (_params, body) => {
    const hashes = body.hashes
    if (!Array.isArray(hashes) || hashes.length !== body.values?.length) return 'no hash for each value'
    return body.values.every((value: string, index: number) => hashes[index] === bytesToHex(sha256(Buffer.from(value, 'utf8'))))
      ? undefined
      : 'a hash that is not the SHA-256 of its token'
  }
}

// CONTRACT §2 totp: issuer and account refused for a colon, a control character or a lone
// surrogate (each its own error); every URI exactly as the contract writes it, and read back by
// the otpauth package to the same settings
const NOT_IN_NAME = /[\p{Cc}:]|\p{Cs}/u
const totp: Rules = {
  schema: ajv.compile(TotpParams),
  refusal: (params) => (['issuer', 'account'] as const)
    .filter((name) => NOT_IN_NAME.test(params[name]))
    .map((name) => ({ pointer: `#/${name}`, code: 'NOT_ALLOWED_VALUE' })),
  valueProblem: (params, value) => {
    const secret = secretOf(value)
    if (!new RegExp(`^[A-Z2-7]{${Math.ceil(params.byteLength * 8 / 5)}}$`).test(secret)) return `a secret that is not ${String(params.byteLength)} bytes of unpadded Base32`
    if (value !== expectedUri(secret, params)) return 'not the URI the contract writes'
    const parsed = parseUri(value)
    const settings = ['issuer', 'account', 'algorithm', 'digits', 'period'] as const
    const differing = settings.filter((name) => parsed[name] !== params[name])
    return differing.length === 0 && parsed.secret === secret ? undefined : `otpauth reads back other ${differing.join(', ') || 'secret'}`
  }
}

const RULES: Record<string, Rules | undefined> = { password, passphrase, vpn, uuid, seq, pin, 'ssh-key': sshKey, 'age-key': ageKey, token, totp }

function isObject (value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The violations of the rules of `generator` in one answer to `params`. Answers other than 200 and
 * 400 VALIDATION_FAILED (413, a body error, ...) and parameters the schema refuses are judged by
 * the general invariants alone.
 */
export function ruleViolations (generator: string, params: Record<string, unknown>, status: number, body: unknown): string[] {
  const rules = RULES[generator]
  if (rules === undefined || !isObject(body)) return []
  // Every parameter of these generators is a scalar: anything nested (even thousands deep) is the
  // schema's to refuse. A copy, since the schema fills in the defaults
  if (Object.values(params).some((value) => typeof value === 'object' && value !== null)) return []
  const effective = { ...params }
  if (!rules.schema(effective)) return []
  const refusals = [rules.refusal(effective) ?? []].flat()
  const due = refusals.length === 0 ? 'no error' : refusals.map((refusal) => `${refusal.code} at ${refusal.pointer}`).join(', ')
  const violations: string[] = []
  if (status === 200) {
    if (refusals.length > 0) violations.push(`200 where ${due} was due`)
    else if (Array.isArray(body.values)) {
      for (const value of body.values) {
        const problem = typeof value === 'string' ? rules.valueProblem(effective, value) : 'not a string'
        if (problem !== undefined) violations.push(`${generator} value: ${problem}`)
      }
      const problem = rules.bodyProblem?.(effective, body)
      if (problem !== undefined) violations.push(`${generator}: ${problem}`)
    }
  } else if (status === 400 && body.code === 'VALIDATION_FAILED' && Array.isArray(body.errors)) {
    const answered = body.errors.map((error: FieldError) => `${error.code} at ${error.pointer}`).join(', ')
    const all = rules.refusals?.(effective) ?? refusals
    const dueAll = all.length === 0 ? 'no error' : all.map((error) => `${error.code} at ${error.pointer}`).join(', ')
    if (answered !== dueAll) violations.push(`valid parameters answered ${answered}, where ${dueAll} was due`)
  }
  return violations
}
