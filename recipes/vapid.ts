import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'vapid',
  title: 'Web push (VAPID)',
  docs: 'https://docs.joinmastodon.org/admin/config/#vapid',
  group: 'keys',
  items: [
    // The name derives VAPID_PUBLIC_KEY (CONTRACT §10), the pair's names in Mastodon and web-push
    { name: 'VAPID_PRIVATE_KEY', type: 'signing-key', params: { algorithm: 'ES256', format: 'vapid' } }
  ],
  notes: {
    VAPID_PRIVATE_KEY: 'The P-256 private scalar (Base64url) a push sender signs its VAPID JWTs with: the server\'s environment (Mastodon\'s .env.production, web-push\'s setVapidDetails).',
    VAPID_PUBLIC_KEY: 'The uncompressed public point (Base64url) browsers subscribe with (applicationServerKey): beside VAPID_PRIVATE_KEY.'
  }
} satisfies Recipe
