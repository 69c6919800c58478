// The project's own import graph, read with TypeScript's own pre-processor: every import and
// export of a module, type-only ones and dynamic `import()` included (import-x/no-cycle, the lint
// rule, skips type-only imports; a cycle through types still ties two modules' designs together).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import t from 'tap'
import ts from 'typescript'

const ROOT = resolve(import.meta.dirname, '../..')
const SOURCE_FOLDERS = ['src', 'plugins', 'schemas', 'web', 'scripts']

function sourceFiles (folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in source. */
function resolveSpecifier (from: string, specifier: string, known: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const target = resolve(dirname(from), specifier)
  for (const candidate of [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), join(target, 'index.ts')]) {
    if (known.has(candidate)) return candidate
  }
  return undefined
}

/** Each module (a path relative to the root) and the project modules it imports. */
function importGraph (root: string, folders: string[]): Map<string, string[]> {
  const files = folders.flatMap((folder) => sourceFiles(join(root, folder)))
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = importedFiles.flatMap(({ fileName }) => resolveSpecifier(file, fileName, known) ?? [])
    graph.set(relative(root, file), [...new Set(targets.map((target) => relative(root, target)))])
  }
  return graph
}

/** The graph's cycles: its strongly connected components of more than one module, or a module importing itself (Tarjan). */
function importCycles (graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string): void => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort())
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles
}

t.test('no import cycle among the project\'s own modules, type-only and dynamic imports included', async (t) => {
  const graph = importGraph(ROOT, SOURCE_FOLDERS)
  t.ok(graph.size > 90, `${graph.size} modules read`)
  t.ok(graph.get('src/app.ts')?.includes('src/ops/config.ts'), 'imports are resolved (.js specifiers to .ts files)')
  t.same(importCycles(graph), [])
})

t.test('the check finds a cycle through a type-only import, a dynamic import, a folder index and a module importing itself', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'randgen-cycles-'))
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  write('src/a.ts', "import { b } from './b.js'\nexport const a = b\n")
  write('src/b.ts', "import type { A } from './types/index.js'\nexport const b: A = 1\n")
  write('src/types/index.ts', "export type A = typeof import('../a.js').a\nimport 'node:fs'\n")
  write('src/self.mjs', "export const self = await import('./self.mjs')\n")
  write('src/alone.ts', "import { a } from './a.js'\nimport { gone } from './missing.js'\nexport const alone = [a, gone]\n")
  write('src/types.d.ts', "import './alone.js'\n")
  t.same(importCycles(importGraph(root, ['src'])), [['src/a.ts', 'src/b.ts', 'src/types/index.ts'], ['src/self.mjs']])
})
