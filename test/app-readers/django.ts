// Django's own check of SECRET_KEY (Debian python3-django 3.2, /usr/bin/python3):
// django.core.checks.security.base.check_secret_key, what `manage.py check --deploy` runs. It
// answers W009 for a key under 50 characters, with under 5 distinct ones, or starting with
// `django-insecure-` (what startproject writes).
import { askJson, DEBIAN_PYTHON, type Reader } from './run.js'

export const DJANGO: Reader = { name: 'Django', packages: 'python3-django', probe: [DEBIAN_PYTHON, '-c', 'import django.core.checks.security.base'] }

const SCRIPT = String.raw`
import json, sys
from django.conf import settings
request = json.load(sys.stdin)
if request['op'] == 'generate':
    from django.core.management.utils import get_random_secret_key
    print(json.dumps(get_random_secret_key()))
else:
    settings.configure(SECRET_KEY=request['key'])
    from django.core.checks.security.base import check_secret_key
    print(json.dumps([warning.id for warning in check_secret_key(None)]))
`

/** The ids of the warnings Django's check_secret_key gives `secretKey` (`[]`, or `['security.W009']`). */
export function djangoCheckSecretKey (secretKey: string): string[] {
  return askJson<string[]>('Django\'s check_secret_key', DEBIAN_PYTHON, ['-c', SCRIPT], { op: 'check', key: secretKey })
}

/** A SECRET_KEY as Django makes one (django.core.management.utils.get_random_secret_key). */
export function djangoRandomSecretKey (): string {
  return askJson<string>('Django\'s get_random_secret_key', DEBIAN_PYTHON, ['-c', SCRIPT], { op: 'generate' })
}
