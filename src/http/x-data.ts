// GET requests carry their parameters in the X-Data header: a JSON object, UTF-8, Base64.
// Node's Buffer.from(x, 'base64') skips bad characters and toString('utf8') replaces bad bytes,
// so both are checked strictly here first.
import { ProblemError } from './errors.js'
import { strictUtf8 } from './request-body.js'

/** CONTRACT §5: X-Data up to 48 KiB. */
export const X_DATA_MAX_LENGTH = 49_152

// Standard or URL-safe alphabet, then at most two '=' of padding
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/

export type JsonParser = (text: string) => unknown

function invalid (reason: 'X_DATA_NOT_BASE64' | 'X_DATA_NOT_UTF8' | 'X_DATA_NOT_JSON' | 'X_DATA_NOT_OBJECT' | 'X_DATA_TOO_LONG'): ProblemError {
  return new ProblemError(400, 'X_DATA_INVALID', reason, { limit: X_DATA_MAX_LENGTH })
}

export function decodeBase64Strict (text: string): Buffer {
  if (!BASE64.test(text)) throw invalid('X_DATA_NOT_BASE64')
  const unpadded = text.replace(/=+$/, '')
  const padded = unpadded.length !== text.length
  // A lone trailing character carries fewer than 8 bits; padding must complete a 4-character group
  if (unpadded.length % 4 === 1 || (padded && text.length % 4 !== 0)) throw invalid('X_DATA_NOT_BASE64')
  return Buffer.from(unpadded, 'base64')
}

/** The X-Data header value that carries `parameters`: JSON, UTF-8, standard Base64. */
export function encodeXData (parameters: unknown): string {
  return Buffer.from(JSON.stringify(parameters), 'utf8').toString('base64')
}

export function isJsonObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The parameters object X-Data holds; throws a ProblemError (400 X_DATA_INVALID) saying why not. */
export function decodeXData (header: string, parseJson: JsonParser): Record<string, unknown> {
  if (header.length > X_DATA_MAX_LENGTH) throw invalid('X_DATA_TOO_LONG')
  const bytes = decodeBase64Strict(header)
  // The same strict decoding as a POST body's (CONTRACT §1.1: both forms are answered alike)
  const text = strictUtf8(bytes)
  if (text === undefined) throw invalid('X_DATA_NOT_UTF8')
  let value: unknown
  try {
    value = parseJson(text)
  } catch {
    throw invalid('X_DATA_NOT_JSON')
  }
  if (!isJsonObject(value)) throw invalid('X_DATA_NOT_OBJECT')
  return value
}
