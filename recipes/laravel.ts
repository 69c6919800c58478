import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'laravel',
  title: 'Laravel',
  docs: 'https://laravel.com/docs/encryption#configuration',
  group: 'apps',
  items: [
    // What `php artisan key:generate` writes: `base64:` and 32 random bytes (AES-256-CBC's key)
    { name: 'APP_KEY', type: 'seq', params: { byteLength: 32, encoding: 'base64', prefix: 'base64:' } }
  ],
  notes: {
    APP_KEY: 'The key Laravel\'s Encrypter encrypts cookies and encrypted values with: .env, read by config/app.php as the key.'
  }
} satisfies Recipe
