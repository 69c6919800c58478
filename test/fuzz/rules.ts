// The generators' own rules, for the fuzz (CONTRACT §2): where the fuzzer sent parameters the
// schema accepts, the answer must be the one the rules call for. A 200 where a rule refuses (or a
// refusal where none applies, or another field error) is a violation, and so is a value that
// breaks its parameters: a password under an enabled set's minimum or with a look-alike asked
// away, a passphrase that does not read back as list words with the capitals and digit asked.
// The schema is applied with AJV and the route's options (defaults filled in, no coercion), so the
// rules see the parameters the generator saw.
import { Ajv, type ValidateFunction } from 'ajv'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { CHARACTER_SETS } from '../../plugins/password.js'
import { WORDLIST } from '../../plugins/passphrase.js'
import { PassphraseParams } from '../../schemas/passphrase.js'
import { PasswordParams } from '../../schemas/password.js'
import { SeqParams } from '../../schemas/seq.js'
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
  /** What is wrong with one generated value, if anything. */
  valueProblem: (params: any, value: string) => string | undefined
  /** What is wrong with the answer as a whole (order, public keys), if anything. */
  bodyProblem?: (params: any, body: Record<string, any>) => string | undefined
}

const ajv = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: true, allowUnionTypes: true, strict: false })

// CONTRACT §2, written out here rather than taken from the plugin
const LOOK_ALIKES = 'IOlo01|'
const SETS = [
  { name: 'uppercase', minimum: 'minUppercase', characters: CHARACTER_SETS.uppercase },
  { name: 'lowercase', minimum: 'minLowercase', characters: CHARACTER_SETS.lowercase },
  { name: 'numbers', minimum: 'minNumbers', characters: CHARACTER_SETS.numbers },
  { name: 'symbols', minimum: 'minSymbols', characters: CHARACTER_SETS.symbols }
] as const

const password: Rules = {
  schema: ajv.compile(PasswordParams),
  refusal: (params) => {
    const enabled = SETS.filter((set) => params[set.name] === true)
    if (enabled.length === 0) return { pointer: '#', code: 'NO_CHARACTER_SET' }
    const total = enabled.reduce((sum, set) => sum + (params[set.minimum] as number), 0)
    return total > params.length ? { pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH' } : undefined
  },
  valueProblem: (params, value) => {
    if (value.length !== params.length) return `${value.length} characters for length ${String(params.length)}`
    const enabled = SETS.filter((set) => params[set.name] === true)
    const counts = enabled.map(() => 0)
    for (const character of value) {
      const set = enabled.findIndex(({ characters }) => characters.includes(character))
      if (set < 0) return `a character from no enabled set: ${JSON.stringify(character)}`
      if (params.avoidAmbiguous === true && LOOK_ALIKES.includes(character)) return `the look-alike ${JSON.stringify(character)} with avoidAmbiguous`
      counts[set] = (counts[set] as number) + 1
    }
    const short = enabled.findIndex((set, index) => (counts[index] as number) < params[set.minimum])
    const set = enabled[short]
    return set === undefined ? undefined : `${String(counts[short])} ${set.name} for ${set.minimum} ${String(params[set.minimum])}`
  }
}

const LIST = new Set(WORDLIST)
const SEPARATOR_REFUSED = /[\p{L}\p{Nd}\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Cn}]|^\p{M}/u

const passphrase: Rules = {
  schema: ajv.compile(PassphraseParams),
  refusal: (params) => SEPARATOR_REFUSED.test(params.separator) ? { pointer: '#/separator', code: 'NOT_ALLOWED_VALUE' } : undefined,
  valueProblem: (params, value) => {
    const { first, count } = readPassphrase(value, params, LIST)
    if (first === undefined) return `does not read back as ${String(params.words)} list words as asked`
    if (count > 1) return 'reads back in more than one way'
    const digits = value.match(/[0-9]/g)?.length ?? 0
    if (digits !== (params.includeNumber === true ? 1 : 0)) return `${digits} digits with includeNumber ${String(params.includeNumber)}`
    return undefined
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
  hex: () => /^[0-9a-f]{64}$/
}
const KEY_PAIRS = new Set(['wireguard', 'reality'])

const vpn: Rules = {
  schema: ajv.compile(VpnParams),
  refusal: () => undefined,
  valueProblem: (params, value) => VPN_SHAPES[params.protocol]?.(params.length).test(value) === true ? undefined : `not a ${String(params.protocol)} value`,
  bodyProblem: (params, body) => {
    if (!KEY_PAIRS.has(params.protocol)) return body.publicKeys === undefined ? undefined : `publicKeys for ${String(params.protocol)}`
    const keys = body.publicKeys
    if (!Array.isArray(keys) || keys.length !== body.values?.length) return 'no public key for each value'
    const shape = params.protocol === 'reality' ? BASE64URL_32 : BASE64_32
    return keys.every((key) => typeof key === 'string' && shape.test(key)) ? undefined : 'a malformed public key'
  }
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

const SEQ_SHAPES: Record<string, (bytes: number) => RegExp> = {
  hex: (bytes) => new RegExp(`^[0-9a-f]{${2 * bytes}}$`),
  base64: (bytes) => new RegExp(`^(?=.{${4 * Math.ceil(bytes / 3)}}$)[A-Za-z0-9+/]+={0,2}$`),
  base64url: (bytes) => new RegExp(`^[A-Za-z0-9_-]{${Math.ceil(4 * bytes / 3)}}$`),
  base32: (bytes) => new RegExp(`^[A-Z2-7]{${Math.ceil(8 * bytes / 5)}}$`)
}

const seq: Rules = {
  schema: ajv.compile(SeqParams),
  refusal: () => undefined,
  valueProblem: (params, value) => {
    if (!(SEQ_SHAPES[params.encoding]?.(params.byteLength).test(value) ?? false)) return `not ${String(params.encoding)}`
    // Node's decoders suffice here for the lengths: the alphabets were checked just above
    if (params.encoding !== 'base32' && Buffer.from(value, params.encoding).length !== params.byteLength) return `not ${String(params.byteLength)} bytes`
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

const RULES: Record<string, Rules | undefined> = { password, passphrase, vpn, uuid, seq, token, totp }

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
    if (answered !== due) violations.push(`valid parameters answered ${answered}, where ${due} was due`)
  }
  return violations
}
