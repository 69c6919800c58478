import neostandard, { resolveIgnoresFromGitignore } from 'neostandard'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'

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
  },
  {
    // Imports point one way (docs/architecture.md): a cycle among the project's own modules fails
    // the lint. The rule skips type-only imports; test/architecture/import-cycles.test.ts counts
    // them too, and dynamic import() as well
    files: ['src/**/*.ts', 'plugins/**/*.ts', 'schemas/**/*.ts', 'web/**/*.ts', 'scripts/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { ...importX.flatConfigs.typescript.settings, 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] }
  }
]
