import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'airflow',
  title: 'Apache Airflow',
  docs: 'https://airflow.apache.org/docs/apache-airflow/stable/security/secrets/fernet.html',
  group: 'apps',
  items: [
    // What Fernet.generate_key() writes: 32 bytes, Base64url with its `=` (Fernet refuses it without)
    { name: 'AIRFLOW__CORE__FERNET_KEY', type: 'seq', params: { byteLength: 32, encoding: 'base64url', padding: true } },
    // §14.3 says AIRFLOW__WEBSERVER__SECRET_KEY: Airflow 3 moved it to [api] secret_key (the old
    // name is a deprecated alias since 3.0.2), and added [api_auth] jwt_secret, which every
    // component must share (the official docker-compose.yaml otherwise falls back to a fixed,
    // public `airflow_jwt_secret`). 64 bytes: the key of the HS512 tokens it signs
    { name: 'AIRFLOW__API__SECRET_KEY', type: 'seq', params: { byteLength: 32, encoding: 'hex' } },
    { name: 'AIRFLOW__API_AUTH__JWT_SECRET', type: 'seq', params: { byteLength: 64, encoding: 'hex' } }
  ],
  notes: {
    AIRFLOW__CORE__FERNET_KEY: 'The Fernet key connections\' and variables\' secrets are encrypted with in the metadata database ([core] fernet_key), read from the environment of every Airflow component (with the official docker-compose.yaml, name this line FERNET_KEY: its environment: section maps FERNET_KEY to AIRFLOW__CORE__FERNET_KEY).',
    AIRFLOW__API__SECRET_KEY: 'The secret the API server signs its session cookies with ([api] secret_key; [webserver] secret_key before Airflow 3), the same in the environment of every component.',
    AIRFLOW__API_AUTH__JWT_SECRET: 'The secret the API\'s JWTs are signed and checked with ([api_auth] jwt_secret), the same in the environment of every component, or calls between them fail.'
  }
} satisfies Recipe
