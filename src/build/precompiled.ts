import type { CompilersFactory } from './compiled-schemas.js'
import type { ConfigValidator } from '../ops/config.js'

export interface Precompiled {
  /** Restores every route's validator and serializer (src/build/compiled-schemas.ts). */
  compilers?: CompilersFactory
  /** Validates the environment (src/ops/config.ts). */
  validateConfig?: ConfigValidator
}

/**
 * The production build (scripts/build.ts) bundles a module of its own in place of this one, with
 * the schemas it compiled (scripts/compile-schemas.ts). From source (npm start, the tests) there
 * are none: Fastify compiles the route schemas at start-up and AJV the config schema.
 */
export const PRECOMPILED: Precompiled = {}
