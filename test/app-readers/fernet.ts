// Fernet keys as cryptography reads them (Debian python3-cryptography, /usr/bin/python3), and
// AIRFLOW__CORE__FERNET_KEY as Airflow does: get_fernet (airflow/models/crypto.py) builds
// `MultiFernet([Fernet(part.encode('utf-8')) for part in key.split(',')])`, so the first key
// encrypts and any of them decrypts (key rotation). Fernet refuses a key that does not decode to
// 32 bytes, an unpadded one among them ("Fernet key must be 32 url-safe base64-encoded bytes").
// The traps: Fernet's urlsafe_b64decode also takes standard Base64's `+` and `/`, so check the
// form Fernet.generate_key writes (FERNET_KEY_FORM) as well; and Airflow takes an empty value as
// "store unencrypted" (a warning, no error), which Fernet itself refuses here.
import { askJson, DEBIAN_PYTHON, type Reader, type Verdict } from './run.js'

export const FERNET: Reader = { name: 'cryptography (Fernet)', packages: 'python3-cryptography', probe: [DEBIAN_PYTHON, '-c', 'from cryptography.fernet import Fernet, MultiFernet'] }

/** What Fernet.generate_key writes: 32 bytes in padded Base64url. */
export const FERNET_KEY_FORM = /^[A-Za-z0-9_-]{43}=$/

const SCRIPT = String.raw`
import json, sys
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
request = json.load(sys.stdin)
if request['op'] == 'generate':
    print(json.dumps(Fernet.generate_key().decode('ascii')))
    sys.exit(0)
message = request['message'].encode('utf-8')
try:
    if request['op'] == 'fernet':
        fernet = Fernet(request['key'])
        print(json.dumps({'ok': True, 'decrypted': fernet.decrypt(fernet.encrypt(message)).decode('utf-8')}))
    else:
        parts = [Fernet(part.encode('utf-8')) for part in request['key'].split(',')]
        multi = MultiFernet(parts)
        token = multi.encrypt(message)
        print(json.dumps({'ok': True, 'keys': len(parts),
                          'decrypted': multi.decrypt(token).decode('utf-8'),
                          'firstKeyEncrypts': parts[0].decrypt(token) == message,
                          'eachKeyDecrypts': all(multi.decrypt(part.encrypt(message)) == message for part in parts)}))
except (ValueError, InvalidToken) as refused:
    print(json.dumps({'ok': False, 'error': f'{type(refused).__name__}: {refused}'}))
`

/** Fernet(key) encrypting and decrypting `message`, or Fernet's refusal of the key. */
export function fernetRoundTrip (key: string, message = 'randgen'): Verdict<{ decrypted: string }> {
  return askJson<Verdict<{ decrypted: string }>>('Fernet', DEBIAN_PYTHON, ['-c', SCRIPT], { op: 'fernet', key, message })
}

export interface MultiFernetRoundTrip {
  /** How many keys the comma list held. */
  keys: number
  decrypted: string
  /** The first key alone decrypts what the MultiFernet encrypted. */
  firstKeyEncrypts: boolean
  /** What each key alone encrypts, the MultiFernet decrypts. */
  eachKeyDecrypts: boolean
}

/** Airflow's MultiFernet from the comma list `keys`, encrypting and decrypting `message`, or the refusal of a key. */
export function airflowMultiFernet (keys: string, message = 'randgen'): Verdict<MultiFernetRoundTrip> {
  return askJson<Verdict<MultiFernetRoundTrip>>('Airflow\'s MultiFernet', DEBIAN_PYTHON, ['-c', SCRIPT], { op: 'multi', key: keys, message })
}

/** A key as Fernet.generate_key makes one. */
export function fernetGenerateKey (): string {
  return askJson<string>('Fernet.generate_key', DEBIAN_PYTHON, ['-c', SCRIPT], { op: 'generate' })
}
