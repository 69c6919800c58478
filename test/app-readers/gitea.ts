// Gitea's JWT secrets ([oauth2] JWT_SECRET, [server] LFS_JWT_SECRET) as Gitea reads them:
// modules/setting/oauth2.go (loadOAuth2From) and modules/setting/lfs.go hand the value to
// DecodeJwtSecretBase64 in modules/generate/generate.go (go-gitea/gitea), which decodes it with
// Go's base64.RawURLEncoding into a buffer and wants exactly 32 bytes ("invalid base64 decoded
// length: %d, expects: 32"); `gitea generate secret JWT_SECRET` prints RawURLEncoding of 32
// random bytes. Gitea's own package imports half of Gitea, so the same steps run here in a small
// program on Go's standard library decoder, the one Gitea calls. The trap: on a value it cannot
// decode Gitea does not stop, it draws a new secret and writes it over the configured one, so a
// wrong value is lost silently. Go's decoder also skips `\r` and `\n` and does not insist on
// zero trailing bits: check the form (GITEA_JWT_SECRET_FORM) as well.
import { goProgram } from './go.js'
import { askJson, type Reader, type Verdict } from './run.js'

export const GITEA_DECODER: Reader = { name: 'Go (encoding/base64)', packages: 'golang-go', probe: ['go', 'version'] }

/** The form `gitea generate secret JWT_SECRET` prints: 32 bytes, Base64url without padding. */
export const GITEA_JWT_SECRET_FORM = /^[A-Za-z0-9_-]{43}$/

const SOURCE = String.raw`package main

import (
  "crypto/rand"
  "encoding/base64"
  "encoding/hex"
  "encoding/json"
  "fmt"
  "os"
)

const secretLength = 32

func decode(value string) map[string]interface{} {
  encoding := base64.RawURLEncoding
  buffer := make([]byte, encoding.DecodedLen(len(value))+3)
  n, err := encoding.Decode(buffer, []byte(value))
  if err == nil && n != secretLength {
    err = fmt.Errorf("invalid base64 decoded length: %d, expects: %d", n, secretLength)
  }
  if err != nil {
    return map[string]interface{}{"ok": false, "error": err.Error()}
  }
  return map[string]interface{}{"ok": true, "hex": hex.EncodeToString(buffer[:secretLength])}
}

func main() {
  var out interface{}
  if len(os.Args) > 1 && os.Args[1] == "generate" {
    secret := make([]byte, secretLength)
    if _, err := rand.Read(secret); err != nil {
      panic(err)
    }
    out = base64.RawURLEncoding.EncodeToString(secret)
  } else {
    var value string
    if err := json.NewDecoder(os.Stdin).Decode(&value); err != nil {
      panic(err)
    }
    out = decode(value)
  }
  if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
    panic(err)
  }
}
`

/** Gitea's decoding of a JWT secret: its 32 bytes (hex), or Go's or Gitea's refusal. */
export function giteaDecodeJwtSecret (value: string): Verdict<{ hex: string }> {
  return askJson<Verdict<{ hex: string }>>('Gitea\'s JWT secret decoding', goProgram('gitea-jwt-secret', SOURCE), [], value)
}

/** A JWT secret as `gitea generate secret JWT_SECRET` makes one (crypto/rand, RawURLEncoding). */
export function giteaNewJwtSecret (): string {
  return askJson<string>('Gitea\'s JWT secret generator', goProgram('gitea-jwt-secret', SOURCE), ['generate'], null)
}
