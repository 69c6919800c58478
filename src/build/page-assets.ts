import type { PageBundle } from '../../scripts/page-bundle.js'

let bundled: Promise<PageBundle> | undefined

/**
 * The page and its assets (scripts/page-bundle.ts). From source (npm start, the tests) they are
 * bundled from web/ the first time the page is asked for, once per process, so `npm start` needs
 * no build step and tests that never load the page never pay for it. The production build
 * (scripts/build.ts) bundles a module of its own in place of this one, holding what it bundled.
 */
export function pageBundle (): Promise<PageBundle> {
  bundled ??= import('../../scripts/page-bundle.js').then(({ bundlePage }) => bundlePage())
  return bundled
}
