// The apps' own readers (CONTRACT §14.4), one module each: what a recipe's test hands its values to.
// Each function asks the real program or library and returns what it said; a reader's refusal is
// `{ ok: false, error }` in its own words. Gate a test on `hasReader(t, READER)` first.
import { DEBIAN_PYTHON, type Reader } from './run.js'

export { hasReader, type Reader, type Verdict } from './run.js'
export { GOLANG_JWT, golangJwtVerify, type JwtKey, type JwtRead } from './golang-jwt.js'
export { GITEA_DECODER, GITEA_JWT_SECRET_FORM, giteaDecodeJwtSecret, giteaNewJwtSecret } from './gitea.js'
export { LARAVEL, LARAVEL_APP_KEY_FORM, laravelEncrypter, laravelGenerateAppKey, type LaravelRoundTrip } from './laravel.js'
export { DJANGO, djangoCheckSecretKey, djangoRandomSecretKey } from './django.js'
export { FERNET, FERNET_KEY_FORM, airflowMultiFernet, fernetGenerateKey, fernetRoundTrip, type MultiFernetRoundTrip } from './fernet.js'
export { SIGNEDJSON, SYNAPSE_SIGNING_KEY_FORM, signedjsonReads, synapseGenerateSigningKey, type SignedJsonRead } from './signedjson.js'
export { ACTIVE_SUPPORT, activeSupportRoundTrip, railsSecret, type RailsRoundTrip } from './active-support.js'
export { webPushVapid, type VapidRead } from './web-push.js'
export { argon2Reads, type Argon2Read } from '../hash-readers.js'

/** argon2-cffi, what Authelia's and Vaultwarden's Argon2id strings are checked with here (test/hash-readers.ts). */
export const ARGON2_CFFI: Reader = { name: 'argon2-cffi', packages: 'python3-argon2', probe: [DEBIAN_PYTHON, '-c', 'import argon2'] }
