import { readFileSync } from 'node:fs'

/**
 * The package.json of this project: one level up from src/ under tsx, two from dist/src/ when
 * compiled. Read once at start.
 */
function readPackage (): { name: string, version: string } {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8'))
      if (pkg.name === 'randgen') return pkg
    } catch {
      // not at this depth
    }
  }
  throw new Error('package.json of randgen not found')
}

export const { name: SERVICE_NAME, version: SERVICE_VERSION } = readPackage()
