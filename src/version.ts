import { readFileSync } from './builtins.js'

/**
 * The package.json of this project, one level up both from src/ (tsx, tests) and from dist/ (the
 * production build is the single file dist/server.js). Read once at start.
 */
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string, version: string }

export const { name: SERVICE_NAME, version: SERVICE_VERSION } = pkg
