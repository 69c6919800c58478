// TOTP Key URIs read and written without the service's code. `expectedUri` writes what CONTRACT §2
// totp calls for byte by byte (UTF-8 bytes, each outside A-Z a-z 0-9 - . _ ~ as %XX), where the
// service goes through encodeURIComponent; `parseUri` reads a URI with the otpauth package, the
// maintained parser authenticator-app backends use.
import { URI, TOTP } from 'otpauth'

const UNRESERVED = /^[A-Za-z0-9._~-]$/

/** RFC 3986 percent-encoding of `text`'s UTF-8 bytes, written out byte by byte. */
export function percentEncodeBytes (text: string): string {
  let encoded = ''
  for (const byte of Buffer.from(text, 'utf8')) {
    const character = String.fromCharCode(byte)
    encoded += byte < 0x80 && UNRESERVED.test(character) ? character : '%' + byte.toString(16).toUpperCase().padStart(2, '0')
  }
  return encoded
}

export interface TotpSettings { issuer: string, account: string, algorithm: string, digits: number, period: number }

/** The URI the contract calls for, given its Base32 secret. */
export function expectedUri (secret: string, { issuer, account, algorithm, digits, period }: TotpSettings): string {
  const label = issuer === '' ? percentEncodeBytes(account) : `${percentEncodeBytes(issuer)}:${percentEncodeBytes(account)}`
  const issuerParameter = issuer === '' ? '' : `&issuer=${percentEncodeBytes(issuer)}`
  return `otpauth://totp/${label}?secret=${secret}${issuerParameter}&algorithm=${algorithm}&digits=${digits}&period=${period}`
}

/** The secret parameter of a URI, as it is written (Base32). */
export function secretOf (uri: string): string {
  return /[?&]secret=([^&]*)/.exec(uri)?.[1] ?? ''
}

/** What the otpauth package reads from `uri` (it throws on a URI it cannot read). */
export function parseUri (uri: string): TotpSettings & { secret: string, otp: TOTP } {
  const otp = URI.parse(uri)
  if (!(otp instanceof TOTP)) throw new TypeError('not a TOTP URI')
  return { issuer: otp.issuer, account: otp.label, algorithm: otp.algorithm, digits: otp.digits, period: otp.period, secret: otp.secret.base32, otp }
}
