// CONTRACT §14.2: a set's `jwt` item. Its rules, decided from the parameters before anything is
// drawn (what it is signed with, which algorithm, its claims), and its token, signed once the
// key it names is drawn (src/keys/jwt.ts).
import { JWT_CLAIM_NAME_MAX_LENGTH, JWT_CLAIM_VALUE_MAX_LENGTH, JWT_CLAIMS_MAX, JWT_RESERVED_CLAIMS, JwtParams } from '../../schemas/jwt.js'
import { HMAC_ALGORITHMS, signingKeyOf, signJwt, type ClaimValue, type JwsAlgorithm, type JwtKey } from '../keys/jwt.js'
import type { Generated } from './generator-route.js'
import type { FieldProblem } from './parameter-error.js'
import { precheckOf, type Precheck } from './precheck.js'
import { escapePointerToken, unknownFieldToken } from './validation-errors.js'
import { isJsonObject } from './x-data.js'

/** How a token is made, once its key is drawn. */
export interface JwtPlan {
  /** The set item whose value is the key. */
  keyIndex: number
  key: 'secret' | 'jwk' | 'pem'
  algorithm: JwsAlgorithm
  claims: Record<string, ClaimValue>
  expiresInDays?: number
}

/** Generators whose one value's UTF-8 bytes are an HMAC secret (as GoTrue reads JWT_SECRET). */
const SECRET_TYPES = new Set(['password', 'passphrase', 'seq', 'token', 'uuid'])
/** uuid's formats that are a random string, not a UUID or a ULID. */
const SECRET_UUID_FORMATS = new Set(['numeric', 'alpha', 'alphanumeric', 'urlsafe'])

interface EarlierItem { name?: unknown, type?: unknown, params?: unknown }
type Params = Record<string, unknown>

/** What `signedWith` names, when it names a key a token can be signed with: its index, kind and algorithm. */
function keyOf (signedWith: unknown, earlier: readonly EarlierItem[]): { index: number, key: JwtPlan['key'], algorithm?: JwsAlgorithm } | undefined {
  const index = earlier.findIndex(({ name }) => name === signedWith)
  const item = earlier[index]
  if (item === undefined || typeof item.type !== 'string' || typeof item.params !== 'object' || item.params === null) return undefined
  const params = item.params as Params
  if ((params.quantity ?? 1) !== 1) return undefined
  if (item.type === 'signing-key') {
    const format = params.format ?? 'jwk'
    const algorithm = (params.algorithm ?? 'EdDSA') as JwsAlgorithm
    return format === 'jwk' || format === 'pem' ? { index, key: format, algorithm } : undefined
  }
  if (!SECRET_TYPES.has(item.type)) return undefined
  if (item.type === 'uuid' && !SECRET_UUID_FORMATS.has((params.format ?? 'standard') as string)) return undefined
  return { index, key: 'secret' }
}

/** Whether a claim name could be one: §14.2's rules (a name all of digits would be reordered by a JSON parser). */
function claimNameAllowed (name: string): boolean {
  return name.length >= 1 && name.length <= JWT_CLAIM_NAME_MAX_LENGTH && !/\p{Cc}/u.test(name) && !/^[0-9]+$/.test(name) && !(JWT_RESERVED_CLAIMS as readonly string[]).includes(name)
}

/** A claim's pointer token: its whole name when it could be one (as AJV's pointers write it), else cut short as an unknown field's. */
function claimToken (name: string): string {
  return claimNameAllowed(name) ? escapePointerToken(name) : unknownFieldToken(name)
}

/**
 * What refuses a jwt's parameters before AJV reads them (CONTRACT §5), as a generator's precheck
 * does: thousands of unknown fields, and more claims than a token takes, on their count alone
 * (AJV builds an error object for each bad claim value: 64 KiB of `"a1":null` cost ~15 ms of
 * CPU). Then names longer than a claim's or holding a control character: AJV's error for a
 * claim's value repeats its name whole, twice, and 16 names of 3,000 characters made a 120 KB
 * answer; refused here, each is cut short.
 */
export function jwtPrecheck (): Precheck {
  const fields = precheckOf(JwtParams)
  return (parameters) => {
    const refused = fields(parameters)
    if (refused !== undefined) return refused
    const { claims } = parameters
    // Not an object: AJV's one TYPE error
    if (!isJsonObject(claims)) return undefined
    const names = Object.keys(claims)
    if (names.length > JWT_CLAIMS_MAX) return [{ pointer: '#/claims', code: 'TOO_MANY_ITEMS', args: { max: JWT_CLAIMS_MAX } }]
    const long = names.filter((name) => name.length > JWT_CLAIM_NAME_MAX_LENGTH || /\p{Cc}/u.test(name))
    return long.length === 0 ? undefined : long.map((name): FieldProblem => ({ pointer: `#/claims/${claimToken(name)}`, code: 'NOT_ALLOWED_VALUE', message: 'JWT_CLAIM_NAME' }))
  }
}

/**
 * Item `index`'s problems (pointers into the request), or its plan. `earlier`: the set's items
 * before it, as AJV left them.
 */
export function jwtProblems (index: number, params: Params, earlier: readonly EarlierItem[]): { problems: FieldProblem[], plan?: JwtPlan } {
  const at = (field: string) => `#/items/${index}/params/${field}`
  const problems: FieldProblem[] = []
  const key = keyOf(params.signedWith, earlier)
  if (key === undefined) problems.push({ pointer: at('signedWith'), code: 'NOT_ALLOWED_VALUE', message: 'JWT_SIGNED_WITH' })
  // An HS* signing key signs with its own `k` as a secret would, under its own algorithm
  const allowed: readonly JwsAlgorithm[] = key === undefined ? [] : key.algorithm === undefined ? HMAC_ALGORITHMS : [key.algorithm]
  const algorithm = (params.algorithm ?? allowed[0]) as JwsAlgorithm | undefined
  if (key !== undefined && !allowed.includes(algorithm as JwsAlgorithm)) {
    problems.push({ pointer: at('algorithm'), code: 'NOT_ALLOWED_VALUE', args: { allowed: allowed.map((name) => JSON.stringify(name)).join(', ') } })
  }
  const claims = (params.claims ?? {}) as Record<string, ClaimValue>
  const names = Object.keys(claims)
  if (names.length > JWT_CLAIMS_MAX) problems.push({ pointer: at('claims'), code: 'TOO_MANY_ITEMS', args: { max: JWT_CLAIMS_MAX } })
  for (const name of names.slice(0, JWT_CLAIMS_MAX + 1)) {
    const pointer = at(`claims/${claimToken(name)}`)
    if (!claimNameAllowed(name)) problems.push({ pointer, code: 'NOT_ALLOWED_VALUE', message: 'JWT_CLAIM_NAME' })
    const value = claims[name]
    if (typeof value === 'string' && value.length > JWT_CLAIM_VALUE_MAX_LENGTH) problems.push({ pointer, code: 'TOO_LONG', args: { max: JWT_CLAIM_VALUE_MAX_LENGTH } })
    // Past 2^53 a JSON integer is not one any more to most readers (JavaScript's, Go's float64)
    if (typeof value === 'number' && !Number.isSafeInteger(value)) problems.push({ pointer, code: 'OUT_OF_RANGE', args: { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER } })
  }
  if (problems.length > 0 || key === undefined) return { problems }
  const expiresInDays = params.expiresInDays as number | undefined
  return { problems, plan: { keyIndex: key.index, key: key.key, algorithm: algorithm as JwsAlgorithm, claims, ...(expiresInDays === undefined ? {} : { expiresInDays }) } }
}

/** Signs planned tokens issued at `generatedAt` (whole seconds): each with its key's drawn value. */
export function jwtSigner (generatedAt: string): (plan: JwtPlan, keyValue: string) => Generated {
  const issuedAt = Math.floor(Date.parse(generatedAt) / 1000)
  return (plan, keyValue) => {
    const key: JwtKey = plan.key === 'secret' ? { kind: 'secret', bytes: Buffer.from(keyValue, 'utf8') } : signingKeyOf(keyValue, plan.key)
    return { values: [signJwt(plan.algorithm, key, plan.claims, issuedAt, plan.expiresInDays)], entropyBits: 0 }
  }
}
