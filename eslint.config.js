import neostandard, { resolveIgnoresFromGitignore } from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: resolveIgnoresFromGitignore() }),
  {
    // What the service runs: src/builtins.ts says why these are required, not imported
    files: ['src/**/*.ts', 'plugins/**/*.ts', 'schemas/**/*.ts'],
    ignores: ['src/builtins.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: ['node:http', 'http', 'node:fs', 'fs', 'node:zlib', 'zlib'].map((name) => ({
          name,
          allowTypeImports: true,
          message: 'Import it from src/builtins.ts: as an ES module it loads more than itself (undici, fs/promises), or at start-up what one request needs (zlib).'
        }))
      }]
    }
  }
]
