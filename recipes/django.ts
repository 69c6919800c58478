import type { Recipe } from '../schemas/recipes.js'

export default {
  id: 'django',
  title: 'Django',
  docs: 'https://docs.djangoproject.com/en/stable/ref/settings/#secret-key',
  group: 'apps',
  items: [
    // get_random_secret_key: 50 characters, each uniform over a-z 0-9 !@#$%^&*(-_=+), no minimums
    { name: 'SECRET_KEY', type: 'password', params: { length: 50, uppercase: false, minLowercase: 0, minNumbers: 0, minSymbols: 0, symbolSet: '!@#$%^&*(-_=+)' } }
  ],
  notes: {
    SECRET_KEY: 'The key Django signs sessions, password-reset links and messages with: the environment, read by settings.py (SECRET_KEY = os.environ[\'SECRET_KEY\']).'
  }
} satisfies Recipe
