// Synapse's signing key line as Synapse reads it: signedjson (Debian python3-signedjson,
// /usr/bin/python3), whose read_signing_keys synapse/config/key.py calls on its `.signing.key`
// file. The key read from the line signs a JSON object (sign_json); the public key, in the form
// a server publishes (`ed25519:<key id>` and the key in unpadded Base64), verifies it
// (verify_signed_json), and the same object with a member changed is refused. The trap: the
// decoder (unpaddedbase64) also takes a padded seed and Base64url, so check the form Synapse writes
// (SYNAPSE_SIGNING_KEY_FORM) as well.
import { askJson, DEBIAN_PYTHON, type Reader, type Verdict } from './run.js'

export const SIGNEDJSON: Reader = { name: 'signedjson', packages: 'python3-signedjson', probe: [DEBIAN_PYTHON, '-c', 'import signedjson.key, signedjson.sign'] }

/**
 * A signing key line as write_signing_keys writes it: `ed25519`, the key id, the 32-byte seed in
 * standard Base64 without padding. Synapse draws the id's 4 characters from letters only
 * (random_string); CONTRACT §14.2 adds digits, which the Matrix key id grammar allows.
 */
export const SYNAPSE_SIGNING_KEY_FORM = /^ed25519 a_[A-Za-z0-9]{4} [A-Za-z0-9+/]{43}$/

const SCRIPT = String.raw`
import json, secrets, string, sys
from io import StringIO
from signedjson.key import (decode_verify_key_bytes, encode_verify_key_base64, generate_signing_key,
                            get_verify_key, read_signing_keys, write_signing_keys)
from signedjson.sign import SignatureVerifyException, sign_json, verify_signed_json
from unpaddedbase64 import decode_base64
request = json.load(sys.stdin)
if request['op'] == 'generate':
    # synapse/config/key.py: key id 'a_' and random_string(4), written by write_signing_keys
    key = generate_signing_key('a_' + ''.join(secrets.choice(string.ascii_letters) for _ in range(4)))
    out = StringIO()
    write_signing_keys(out, [key])
    print(json.dumps({'line': out.getvalue().rstrip('\n'),
                      'publicKey': f'{key.alg}:{key.version} {encode_verify_key_base64(get_verify_key(key))}'}))
    sys.exit(0)
def verifies(signed, name, verify_key):
    try:
        verify_signed_json(signed, name, verify_key)
        return True
    except SignatureVerifyException:
        return False
try:
    keys = read_signing_keys(StringIO(request['line']))
    if not keys:
        raise ValueError('no key in the line')
    key_id, public_base64 = request['publicKey'].split(' ')
    verify_key = decode_verify_key_bytes(key_id, decode_base64(public_base64))
except ValueError as refused:
    print(json.dumps({'ok': False, 'error': f'{type(refused).__name__}: {refused}'}))
    sys.exit(0)
signing_key = keys[0]
signed = sign_json(dict(request['json']), 'randgen.example', signing_key)
tampered = dict(signed, tampered=True)
print(json.dumps({'ok': True, 'keys': len(keys), 'keyId': f'{signing_key.alg}:{signing_key.version}',
                  'publicKeyId': key_id, 'signatures': signed['signatures'],
                  'verified': verifies(signed, 'randgen.example', verify_key),
                  'tamperedVerified': verifies(tampered, 'randgen.example', verify_key)}))
`

export interface SignedJsonRead {
  /** How many keys read_signing_keys found in the line. */
  keys: number
  /** `ed25519:<key id>` of the key read from the line. */
  keyId: string
  /** The key id the public key was given under. */
  publicKeyId: string
  /** The JSON's `signatures` after sign_json. */
  signatures: Record<string, Record<string, string>>
  /** verify_signed_json with the public key accepted the signed JSON. */
  verified: boolean
  /** It accepted the signed JSON with a member added (a reader that works says false). */
  tamperedVerified: boolean
}

/**
 * signedjson reading the Synapse signing key `line`, signing `json` with it, and verifying with
 * `publicKey` (`ed25519:<key id> <unpadded Base64>`); or its refusal of the line or the key.
 */
export function signedjsonReads (line: string, publicKey: string, json: Record<string, unknown> = { server_name: 'randgen.example' }): Verdict<SignedJsonRead> {
  return askJson<Verdict<SignedJsonRead>>('signedjson', DEBIAN_PYTHON, ['-c', SCRIPT], { op: 'read', line, publicKey, json })
}

/** A line and its public key as Synapse makes them (signedjson's generate_signing_key and write_signing_keys). */
export function synapseGenerateSigningKey (): { line: string, publicKey: string } {
  return askJson<{ line: string, publicKey: string }>('signedjson', DEBIAN_PYTHON, ['-c', SCRIPT], { op: 'generate' })
}
