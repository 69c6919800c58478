import type { Recipe } from '../schemas/recipes.js'

// What `openssl rand -hex 32` prints, as Outline's guide says
const hex32 = { byteLength: 32, encoding: 'hex' }

export default {
  id: 'outline',
  title: 'Outline',
  docs: 'https://docs.getoutline.com/s/hosting/doc/docker-7pfeLP5a8t',
  group: 'apps',
  items: [
    { name: 'SECRET_KEY', type: 'seq', params: hex32 },
    { name: 'UTILS_SECRET', type: 'seq', params: hex32 }
  ],
  notes: {
    SECRET_KEY: 'The key Outline encrypts and signs its data with (64 hex characters): docker.env, read by the Outline container.',
    UTILS_SECRET: 'The secret that authorises Outline\'s internal utility and cron endpoints: docker.env, read by the Outline container.'
  }
} satisfies Recipe
