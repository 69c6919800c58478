// A VAPID pair as web-push (npm) takes it, what Mastodon's and most push senders' libraries do:
// setVapidDetails checks the pair, getVapidHeaders signs the JWT a push service checks, and jose
// verifies that JWT with the public key (web-push itself only checks the keys' lengths).
import { errors, importJWK, jwtVerify, type JWTPayload } from 'jose'
import webpush from 'web-push'
import type { Verdict } from './run.js'

export interface VapidRead {
  /** The `k=` of the Authorization header web-push writes: the public key it sends. */
  k: string
  /** The claims of web-push's JWT, verified with the public key. */
  payload: JWTPayload
}

/** web-push taking the pair and signing a JWT for `audience` that verifies with `publicKey`; or web-push's (or jose's) refusal. */
export async function webPushVapid (publicKey: string, privateKey: string, audience = 'https://push.example.com', subject = 'mailto:a@example.com'): Promise<Verdict<VapidRead>> {
  try {
    webpush.setVapidDetails(subject, publicKey, privateKey)
  } catch (refused) {
    return { ok: false, error: (refused as Error).message }
  }
  const { Authorization } = webpush.getVapidHeaders(audience, subject, publicKey, privateKey, 'aes128gcm') as { Authorization: string }
  const [, jwt, k] = /^vapid t=([^,]+), k=(.+)$/.exec(Authorization) as unknown as [string, string, string]
  const point = Buffer.from(publicKey, 'base64url')
  const key = await importJWK({ kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, 'ES256')
  try {
    const { payload } = await jwtVerify(jwt, key, { algorithms: ['ES256'], audience, subject })
    return { ok: true, k, payload }
  } catch (refused) {
    // the pair's halves do not match: web-push signed with a scalar that is not this point's
    if (refused instanceof errors.JOSEError) return { ok: false, error: `jose: ${refused.message}` }
    throw refused
  }
}
