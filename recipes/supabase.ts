import type { Recipe } from '../schemas/recipes.js'

const password32 = { length: 32, symbols: false }

export default {
  id: 'supabase',
  title: 'Supabase',
  docs: 'https://supabase.com/docs/guides/self-hosting/docker',
  group: 'apps',
  items: [
    { name: 'POSTGRES_PASSWORD', type: 'password', params: password32 },
    { name: 'JWT_SECRET', type: 'password', params: { length: 40, symbols: false } },
    { name: 'ANON_KEY', type: 'jwt', params: { signedWith: 'JWT_SECRET', claims: { role: 'anon', iss: 'supabase' }, expiresInDays: 1826 } },
    { name: 'SERVICE_ROLE_KEY', type: 'jwt', params: { signedWith: 'JWT_SECRET', claims: { role: 'service_role', iss: 'supabase' }, expiresInDays: 1826 } },
    { name: 'DASHBOARD_PASSWORD', type: 'password', params: password32 },
    { name: 'SECRET_KEY_BASE', type: 'seq', params: { byteLength: 48, encoding: 'base64' } },
    { name: 'VAULT_ENC_KEY', type: 'seq', params: { byteLength: 16, encoding: 'hex' } },
    { name: 'PG_META_CRYPTO_KEY', type: 'seq', params: { byteLength: 24, encoding: 'base64' } },
    // Beyond §14.3's table, the guide's "Configuring and securing Supabase" asks for these too, each
    // with its openssl command: Logflare's two tokens (`openssl rand -base64 24`, at least 32
    // characters) and the Storage S3 protocol's key pair (`openssl rand -hex 16` and `-hex 32`).
    // Left out: MINIO_ROOT_PASSWORD (only the S3 overlay's docker-compose.s3.yml reads it) and the
    // opaque publishable/secret keys of add-new-auth-keys.sh (a checksum format randgen does not make)
    { name: 'LOGFLARE_PUBLIC_ACCESS_TOKEN', type: 'seq', params: { byteLength: 24, encoding: 'base64' } },
    { name: 'LOGFLARE_PRIVATE_ACCESS_TOKEN', type: 'seq', params: { byteLength: 24, encoding: 'base64' } },
    { name: 'S3_PROTOCOL_ACCESS_KEY_ID', type: 'seq', params: { byteLength: 16, encoding: 'hex' } },
    { name: 'S3_PROTOCOL_ACCESS_KEY_SECRET', type: 'seq', params: { byteLength: 32, encoding: 'hex' } }
  ],
  notes: {
    POSTGRES_PASSWORD: 'The database\'s superuser password: docker/.env, read by the db container and every service that connects to it.',
    JWT_SECRET: 'The HMAC secret GoTrue, PostgREST and Realtime verify every JWT with: docker/.env.',
    ANON_KEY: 'The public API key, an HS256 JWT with role anon signed with JWT_SECRET: docker/.env, and your client apps.',
    SERVICE_ROLE_KEY: 'The server-side API key, an HS256 JWT with role service_role signed with JWT_SECRET: docker/.env; never ship it to a browser.',
    DASHBOARD_PASSWORD: 'The Studio dashboard\'s basic-auth password (with DASHBOARD_USERNAME), read by Kong: docker/.env.',
    SECRET_KEY_BASE: 'Realtime\'s and Supavisor\'s Phoenix secret: docker/.env.',
    VAULT_ENC_KEY: 'Supavisor\'s encryption key (32 characters): docker/.env.',
    PG_META_CRYPTO_KEY: 'postgres-meta\'s key for the connection strings Studio stores: docker/.env.',
    LOGFLARE_PUBLIC_ACCESS_TOKEN: 'The token the analytics (Logflare) container takes log ingestion from Vector and the services with: docker/.env.',
    LOGFLARE_PRIVATE_ACCESS_TOKEN: 'The token Studio queries the analytics (Logflare) container\'s logs with: docker/.env.',
    S3_PROTOCOL_ACCESS_KEY_ID: 'The access key id S3 clients use on Storage\'s S3-compatible endpoint: docker/.env, read by the storage container.',
    S3_PROTOCOL_ACCESS_KEY_SECRET: 'The secret access key that goes with S3_PROTOCOL_ACCESS_KEY_ID: docker/.env, read by the storage container.'
  }
} satisfies Recipe
