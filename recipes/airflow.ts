import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'airflow',
  title: 'Apache Airflow',
  docs: 'https://airflow.apache.org/docs/apache-airflow/stable/security/secrets/fernet.html',
  group: 'apps',
  items: [
    // What Fernet.generate_key() writes: 32 bytes, Base64url with its `=` (Fernet refuses it without)
    { name: 'AIRFLOW__CORE__FERNET_KEY', type: 'seq', params: { byteLength: 32, encoding: 'base64url', padding: true } },
    { name: 'AIRFLOW__WEBSERVER__SECRET_KEY', type: 'seq', params: { byteLength: 32, encoding: 'hex' } }
  ],
  notes: {
    AIRFLOW__CORE__FERNET_KEY: 'The Fernet key connections\' and variables\' passwords are encrypted with in the metadata database ([core] fernet_key): the environment of every Airflow component.',
    AIRFLOW__WEBSERVER__SECRET_KEY: 'The secret the web server signs its session cookies with ([webserver] secret_key): the environment of every Airflow component, the same in each.'
  }
} satisfies Recipe
