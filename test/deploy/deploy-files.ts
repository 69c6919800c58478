// Reads the deployment files the way Docker and the nginx image do, for the fast checks in
// test/deploy/*.test.ts and the live edge test in test/deploy/edge.deploy.ts.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { parse, parseAllDocuments } from 'yaml'

export const ROOT = new URL('../../', import.meta.url).pathname

export const COMPOSE_FILE = 'docker-compose.yml'
export const COMPOSE_TLS_FILE = 'docker-compose.tls.yml'
export const COMPOSE_MONITORING_FILE = 'docker-compose.monitoring.yml'

export function readText (path: string): string {
  return readFileSync(join(ROOT, path), 'utf8')
}

/** Compose's `${NAME}` / `${NAME:-default}` interpolation, applied to every string in a value. */
export function interpolate<T> (value: T, env: Record<string, string>): T {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) =>
      env[name] ?? fallback ?? '') as T
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env)) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env)])) as T
  }
  return value
}

export interface ComposeService {
  image?: string
  build?: string
  environment?: Record<string, string>
  ports?: string[]
  volumes?: string[]
  [key: string]: unknown
}

export interface ComposeFile { services: Record<string, ComposeService> }

/** A Compose file as parsed YAML, before interpolation (what the JSON schema sees after it). */
export function readCompose (path: string): ComposeFile {
  return parse(readText(path)) as ComposeFile
}

/** The edge service after Compose merges the files: environment by key, the rest appended. */
export function mergedEdge (files: string[], env: Record<string, string> = {}): Required<Pick<ComposeService, 'environment' | 'ports' | 'volumes'>> {
  const merged = { environment: {} as Record<string, string>, ports: [] as string[], volumes: [] as string[] }
  for (const file of files) {
    // Both files give the edge all three keys (test/deploy/compose.test.ts checks it)
    const edge = interpolate(readCompose(file).services.edge, env) as Required<ComposeService>
    Object.assign(merged.environment, edge.environment)
    merged.ports.push(...edge.ports)
    merged.volumes.push(...edge.volumes)
  }
  return merged
}

export interface Mount { source: string, target: string }

export function mounts (volumes: string[]): Mount[] {
  return volumes.map((volume) => {
    const [source, target] = volume.split(':') as [string, string]
    return { source: posix.normalize(source), target }
  })
}

export const TEMPLATE_DIR = '/etc/nginx/templates/'

/**
 * The templates the nginx image renders, as the image's 20-envsubst-on-templates.sh does:
 * /etc/nginx/templates/x/y.conf.template becomes /etc/nginx/conf.d/x/y.conf.
 */
export function edgeTemplates (volumes: string[]): Array<{ source: string, output: string }> {
  return mounts(volumes)
    .filter(({ target }) => target.startsWith(TEMPLATE_DIR) && target.endsWith('.template'))
    .map(({ source, target }) => ({ source, output: posix.join('conf.d', target.slice(TEMPLATE_DIR.length, -'.template'.length)) }))
}

export const ENTRYPOINT_DIR = '/docker-entrypoint.d/'

/** The mounted scripts the image's entrypoint sources (`*.envsh`), in the order it runs them. */
export function entrypointScripts (volumes: string[]): Mount[] {
  return mounts(volumes)
    .filter(({ target }) => target.startsWith(ENTRYPOINT_DIR) && target.endsWith('.envsh'))
    .sort((a, b) => a.target.localeCompare(b.target))
}

/**
 * The environment the image's 20-envsubst-on-templates.sh renders with: `env` after the mounted
 * `*.envsh` scripts are sourced, as the image's entrypoint sources them, by sh, before it. Only
 * EDGE_ variables are taken from the scripts (NGINX_ENVSUBST_FILTER passes no others).
 */
export function entrypointEnvironment (volumes: string[], env: Record<string, string>): Record<string, string> {
  let result = { ...env }
  for (const { source } of entrypointScripts(volumes)) {
    const run = spawnSync('sh', ['-ec', '. "$1"; env -0', 'sh', join(ROOT, source)], { env: { ...result, PATH: process.env.PATH }, encoding: 'utf8' })
    if (run.status !== 0) throw new Error(`${source}: ${run.stderr}`)
    const exported = run.stdout.split('\0').filter((line) => line.startsWith('EDGE_')).map((line) => line.split(/=(.*)/s).slice(0, 2))
    result = { ...result, ...Object.fromEntries(exported) }
  }
  return result
}

/** `${NAME}` references in a template (what envsubst replaces). */
export function templateVariables (text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{(\w+)\}/g)].map((match) => match[1] as string))]
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
export function dockerfileInstructions (text: string): Array<{ instruction: string, args: string }> {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const space = line.indexOf(' ')
      return { instruction: line.slice(0, space).toUpperCase(), args: line.slice(space + 1).trim() }
    })
}

/** ENV lines of a Dockerfile's final stage as one object (`ENV A=1 B=2`): the image's environment. */
export function finalStageEnv (instructions: Array<{ instruction: string, args: string }>): Record<string, string> {
  const start = instructions.findLastIndex(({ instruction }) => instruction === 'FROM')
  const env = instructions.slice(start).filter(({ instruction }) => instruction === 'ENV')
  // NAME=value pairs; a value with spaces is in double quotes, as in the Dockerfile's NODE_OPTIONS
  return Object.fromEntries(env.flatMap(({ args }) => [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)]
    .map(([, name, value]) => [name as string, (value as string).replace(/^"(.*)"$/, '$1')])))
}

export function readYamlDocuments (path: string): Array<Record<string, any>> {
  return parseAllDocuments(readText(path)).map((document) => document.toJS() as Record<string, any>)
}
