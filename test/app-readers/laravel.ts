// Laravel's APP_KEY as Laravel reads it (Debian php-laravel-framework 8.83, php8.2-cli): the key
// goes into the `app` configuration with Laravel's default cipher (AES-256-CBC, config/app.php),
// Laravel's own EncryptionServiceProvider registers the `encrypter` singleton, and resolving it
// from the container runs the provider's parseKey (strip `base64:`, base64_decode) and `new
// Encrypter($key, $cipher)`, exactly the framework's path, nothing of it reproduced here. The
// Encrypter refuses a key of the wrong length ("Unsupported cipher or incorrect key length"). The
// trap: PHP's base64_decode is lenient (no padding, stray characters skipped), so check the form
// `php artisan key:generate` writes (LARAVEL_APP_KEY_FORM) as well.
import { askJson, type Reader, type Verdict } from './run.js'

export const LARAVEL: Reader = {
  name: 'Laravel\'s Encrypter',
  packages: 'php8.2-cli php-laravel-framework',
  probe: ['php', '-r', 'require_once "Illuminate/Encryption/autoload.php"; exit(class_exists("Illuminate\\Encryption\\Encrypter") ? 0 : 1);']
}

/** What `php artisan key:generate` writes: `base64:` and 32 bytes in padded standard Base64. */
export const LARAVEL_APP_KEY_FORM = /^base64:[A-Za-z0-9+/]{43}=$/

const SCRIPT = String.raw`
require_once 'Illuminate/Container/autoload.php';
require_once 'Illuminate/Config/autoload.php';
require_once 'Illuminate/Encryption/autoload.php';
use Illuminate\Config\Repository;
use Illuminate\Container\Container;
use Illuminate\Contracts\Encryption\DecryptException;
use Illuminate\Encryption\Encrypter;
use Illuminate\Encryption\EncryptionServiceProvider;

$request = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
if ($request['op'] === 'generate') {
    // KeyGenerateCommand::generateRandomKey
    echo json_encode('base64:' . base64_encode(Encrypter::generateKey('AES-256-CBC')));
    exit(0);
}
$app = new Container();
$app->instance('config', new Repository(['app' => ['key' => $request['key'], 'cipher' => 'AES-256-CBC']]));
(new EncryptionServiceProvider($app))->register();
try {
    $encrypter = $app->make('encrypter');
    $payload = $encrypter->encryptString($request['message']);
    echo json_encode(['ok' => true, 'keyBytes' => strlen($encrypter->getKey()), 'payload' => $payload, 'decrypted' => $encrypter->decryptString($payload)]);
} catch (RuntimeException | DecryptException $refused) {
    echo json_encode(['ok' => false, 'error' => $refused->getMessage()]);
}
`

export interface LaravelRoundTrip {
  /** The length of the key Laravel parsed from the line. */
  keyBytes: number
  /** Laravel's encrypted payload (Base64 of its JSON: iv, value, mac). */
  payload: string
  decrypted: string
}

/** Laravel's Encrypter built from `appKey` (the APP_KEY line's value) the framework's way, encrypting and decrypting `message`. */
export function laravelEncrypter (appKey: string, message = 'randgen'): Verdict<LaravelRoundTrip> {
  return askJson<Verdict<LaravelRoundTrip>>('Laravel\'s Encrypter', 'php', ['-r', SCRIPT], { op: 'encrypt', key: appKey, message })
}

/** An APP_KEY as `php artisan key:generate` makes one (Encrypter::generateKey for AES-256-CBC). */
export function laravelGenerateAppKey (): string {
  return askJson<string>('Laravel\'s key generator', 'php', ['-r', SCRIPT], { op: 'generate' })
}
