import type { CompilersFactory } from './compiled-schemas.js'

/**
 * The production build (scripts/build.ts) bundles a module of its own in place of this one: it
 * restores the route validators and serializers the build compiled (src/compiled-schemas.ts).
 * From source (npm start, the tests) there are none, and Fastify compiles every schema at start-up.
 */
export const PRECOMPILED: CompilersFactory | undefined = undefined
