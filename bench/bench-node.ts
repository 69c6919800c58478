// BENCH_NODE=<path to node> runs a benchmark under that Node.js: the script runs itself again
// under it, so that every server it spawns (with process.execPath) and every figure it prints come
// from the one runtime the report names.
import { spawnSync } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Runs the script at `scriptUrl` (its import.meta.url) again under BENCH_NODE, unless this process
 * already is that binary, and answers whether it did (its exit status is then this process's).
 */
export function ranUnderBenchNode (scriptUrl: string): boolean {
  const wanted = process.env.BENCH_NODE
  if (wanted === undefined || wanted === '' || realpathSync(wanted) === realpathSync(process.execPath)) return false
  const child = spawnSync(wanted, ['--import', 'tsx', fileURLToPath(scriptUrl)], { stdio: 'inherit' })
  process.exitCode = child.status ?? 1
  return true
}
