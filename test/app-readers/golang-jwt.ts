// golang-jwt, the library GoTrue (Supabase Auth) verifies ANON_KEY and SERVICE_ROLE_KEY with:
// its parseJWTClaims (supabase/auth, internal/api/auth.go) parses with the valid methods
// configured and, for an HS256 token without a `kid`, the key `[]byte(config.JWT.Secret)`: the
// secret's UTF-8 bytes. Debian has v4 (GoTrue is on v5: the same HMAC check and the same strict
// segments). Its parser refuses a segment padded with `=` (DecodePaddingAllowed is false; jose
// takes one), any algorithm but the one given, and by its MapClaims an `exp` passed or an
// `iat`/`nbf` still to come.
import { createPublicKey, type JsonWebKey } from 'node:crypto'
import { goProgram } from './go.js'
import { askJson, type Reader, type Verdict } from './run.js'

export const GOLANG_JWT: Reader = {
  name: 'golang-jwt',
  packages: 'golang-go golang-github-golang-jwt-jwt-dev',
  probe: ['sh', '-c', 'command -v go >/dev/null && test -d /usr/share/gocode/src/github.com/golang-jwt/jwt']
}

const SOURCE = String.raw`package main

import (
  "encoding/base64"
  "encoding/json"
  "errors"
  "os"

  "github.com/golang-jwt/jwt"
)

func publicKey(pem []byte, method jwt.SigningMethod) (interface{}, error) {
  switch method.(type) {
  case *jwt.SigningMethodRSA, *jwt.SigningMethodRSAPSS:
    return jwt.ParseRSAPublicKeyFromPEM(pem)
  case *jwt.SigningMethodECDSA:
    return jwt.ParseECPublicKeyFromPEM(pem)
  case *jwt.SigningMethodEd25519:
    return jwt.ParseEdPublicKeyFromPEM(pem)
  }
  return nil, errors.New("no public key for " + method.Alg())
}

func main() {
  // token, algorithm, and one of secret, secretBase64, publicKey
  var r map[string]string
  if err := json.NewDecoder(os.Stdin).Decode(&r); err != nil {
    panic(err)
  }
  parser := jwt.NewParser(jwt.WithValidMethods([]string{r["algorithm"]}), jwt.WithJSONNumber())
  token, err := parser.Parse(r["token"], func(t *jwt.Token) (interface{}, error) {
    if secret, ok := r["secret"]; ok {
      return []byte(secret), nil
    }
    if secret, ok := r["secretBase64"]; ok {
      return base64.StdEncoding.DecodeString(secret)
    }
    if key, ok := r["publicKey"]; ok {
      return publicKey([]byte(key), t.Method)
    }
    return nil, errors.New("no key given")
  })
  if err == nil && !token.Valid {
    err = errors.New("token is not valid")
  }
  out := map[string]interface{}{"ok": err == nil}
  if err != nil {
    out["error"] = err.Error()
  } else {
    out["header"] = token.Header
    out["claims"] = token.Claims
  }
  if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
    panic(err)
  }
}
`

/** The key golang-jwt verifies with. */
export type JwtKey =
  /** A secret whose UTF-8 bytes are the HMAC key (GoTrue's, PostgREST's and Realtime's JWT_SECRET). */
  | { secret: string }
  /** An HMAC key as bytes (an HS* signing key's decoded JWK `k`). */
  | { secretBytes: Uint8Array }
  /** A public key as SPKI PEM, or as a public JWK (JSON), turned into PEM by node:crypto. */
  | { publicKey: string }

export interface JwtRead {
  header: Record<string, unknown>
  claims: Record<string, unknown>
}

function pem (publicKey: string): string {
  if (!publicKey.trimStart().startsWith('{')) return publicKey
  return createPublicKey({ key: JSON.parse(publicKey) as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string
}

/**
 * What golang-jwt v4 says of `token` verified with `key`, `algorithm` the one valid method (as
 * GoTrue's parser is configured): its header and claims, or its refusal (signature, algorithm,
 * a padded or malformed segment, exp/iat/nbf against now).
 */
export function golangJwtVerify (token: string, key: JwtKey, algorithm: string): Verdict<JwtRead> {
  const program = goProgram('golang-jwt-reader', SOURCE)
  const request = 'secret' in key
    ? { token, algorithm, secret: key.secret }
    : 'secretBytes' in key
      ? { token, algorithm, secretBase64: Buffer.from(key.secretBytes).toString('base64') }
      : { token, algorithm, publicKey: pem(key.publicKey) }
  return askJson<Verdict<JwtRead>>('golang-jwt', program, [], request)
}
