import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { base32nopad } from '@scure/base'
import { TOTP_NAME_PATTERN, TotpParams, TotpResult } from '../schemas/totp.js'
import { DIGITS, LETTERS } from '../src/random/alphabets.js'
import { ParameterError, type FieldProblem } from '../src/http/parameter-error.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { randomChunks } from '../src/random/csprng.js'

type Params = Static<typeof TotpParams>

/** Every character of a URI: percent-encoded names, Base32, digits and the URI's own delimiters. */
export const TOTP_ALPHABET = LETTERS + DIGITS + '-._~%:/?=&'

const NAME = new RegExp(TOTP_NAME_PATTERN, 'u')

/**
 * RFC 3986 percent-encoding of `text` as UTF-8: every byte but the unreserved `A-Z a-z 0-9 - . _ ~`
 * as `%XX`, upper case. encodeURIComponent does it but leaves `! ' ( ) *` as they are, which
 * authenticator apps' parsers do not all take, so those five are encoded too. `text` holds no lone
 * surrogate (NAME refuses them), on which encodeURIComponent would throw.
 */
export function percentEncode (text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
}

/**
 * `issuer` and `account` are request data: a refusal names the field, never the value, and the
 * value goes into nothing but the URIs.
 */
function refusals ({ issuer, account }: Params): FieldProblem[] {
  const problems: FieldProblem[] = []
  if (!NAME.test(issuer)) problems.push({ pointer: '#/issuer', code: 'NOT_ALLOWED_VALUE', message: 'TOTP_NAME_NOT_ALLOWED' })
  if (!NAME.test(account)) problems.push({ pointer: '#/account', code: 'NOT_ALLOWED_VALUE', message: 'TOTP_NAME_NOT_ALLOWED' })
  return problems
}

/**
 * The Key URI of a secret (CONTRACT §2 totp) as the text before and after the Base32 secret:
 * label `<issuer>:<account>` (the account alone when there is no issuer, and then no `issuer=`),
 * parameters in the contract's order. The same for every value of a request, so built once.
 */
function uriAround ({ issuer, account, algorithm, digits, period }: Params): [string, string] {
  const label = issuer === '' ? percentEncode(account) : `${percentEncode(issuer)}:${percentEncode(account)}`
  const issuerParameter = issuer === '' ? '' : `&issuer=${percentEncode(issuer)}`
  return [`otpauth://totp/${label}?secret=`, `${issuerParameter}&algorithm=${algorithm}&digits=${digits}&period=${period}`]
}

/**
 * `quantity` URIs, each with its own `byteLength` random bytes of one draw (wiped once encoded)
 * as the secret, in RFC 4648 Base32, upper case and unpadded (what the Key URI format takes).
 */
/** The issuer and account rules. */
export function checkTotpNames (params: Params): void {
  const problems = refusals(params)
  if (problems.length > 0) throw new ParameterError(problems)
}

export function generateTotpUris (params: Params): string[] {
  checkTotpNames(params)
  const [before, after] = uriAround(params)
  return randomChunks(params.byteLength, params.quantity, (bytes, start, end) => before + base32nopad.encode(bytes.subarray(start, end)) + after)
}

/** Every secret byte is uniform: 8 bits each. */
export function totpEntropyBits ({ byteLength }: Params): number {
  return 8 * byteLength
}

export default fp(async function totpGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'totp',
    name: 'Totp',
    summary: 'Generate TOTP secrets as otpauth:// URIs',
    description: 'Key URIs for authenticator apps (show one as a QR code): `otpauth://totp/<label>?secret=<secret>&issuer=<issuer>&algorithm=<algorithm>&digits=<digits>&period=<period>`. ' +
      '`secret` is `byteLength` random bytes in RFC 4648 Base32 (upper case, no padding); `label` is `<issuer>:<account>`, or `<account>` when `issuer` is empty (and then `issuer=` is left out); ' +
      'issuer and account are percent-encoded as UTF-8, every byte but `A-Z a-z 0-9 - . _ ~` as `%XX` (upper-case hex), the colon between them literal. ' +
      '`oathtool --totp` with the secret computes the codes the app shows. `issuer` and `account` are never logged. `entropyBits` is 8 × byteLength.',
    params: TotpParams,
    result: TotpResult,
    alphabet: TOTP_ALPHABET,
    generate: (params) => ({ values: generateTotpUris(params), entropyBits: totpEntropyBits(params) }),
    // issuer and account are percent-encoded (`'` as %27, `\\` as %5C): a URI never needs refusing
    check: checkTotpNames
  })
}, { name: 'generator-totp', dependencies: ['errors'] })
