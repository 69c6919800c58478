// CONTRACT §11: every tool held to openapi.json, the document clients generate from: one tool per
// generator POST route, its inputSchema the operation's request body schema, its outputSchema the
// operation's JSON answer, its description the operation's summary and description.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { build } from '../helper.js'
import { toolName } from '../../src/mcp/tools.js'

type Json = Record<string, any>

const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as Json
const component = (ref: string): Json => document.components.schemas[ref.replace('#/components/schemas/', '')]

/**
 * A schema with every reference replaced by what it names (in the document, or in the tool's own
 * `$defs`) and OpenAPI's `discriminator` left out: what a JSON Schema validator reads, so a tool's
 * standalone schema and the document's can be compared whatever their references look like.
 */
function inlined (node: unknown, lookup: (ref: string) => unknown): unknown {
  if (Array.isArray(node)) return node.map((entry) => inlined(entry, lookup))
  if (typeof node !== 'object' || node === null) return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'discriminator' || key === '$defs') continue
    if (key === '$ref') Object.assign(out, inlined(lookup(value as string), lookup))
    else out[key] = inlined(value, lookup)
  }
  return out
}
const fromDocument = (schema: Json): unknown => inlined(schema, (ref) => component(ref))
const fromTool = (schema: Json): unknown => inlined(schema, (ref) => schema.$defs[ref.replace('#/$defs/', '')])

t.test('every tool is its route, as openapi.json describes the route', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
  const tools = new Map<string, Json>(response.json().result.tools.map((tool: Json) => [tool.name, tool]))
  const generators = Object.entries(document.paths as Json).filter(([path, item]) => /^\/api\/generate\/[a-z-]+$/.test(path) && item.post !== undefined)
  t.ok(generators.length >= 13, `${generators.length} generator routes in the document`)
  t.equal(tools.size, generators.length + 1, 'one tool per generator route and generate_set, no other')
  for (const [path, item] of generators) {
    const operation = item.post as Json
    const name = toolName(path.slice('/api/generate/'.length))
    const tool = tools.get(name)
    t.ok(tool !== undefined, `${path}: tool ${name}`)
    // Read through its references: password's and passphrase's `hash` refers to HashParams, which the tool carries in $defs
    t.same(fromTool(tool?.inputSchema ?? {}), fromDocument(component(operation.requestBody.content['application/json'].schema.$ref)), `${name}: inputSchema is the request body schema`)
    t.notOk(JSON.stringify(tool?.inputSchema).includes('#/components/'), `${name}: no reference into the document`)
    t.equal(tool?.inputSchema.additionalProperties, false)
    t.same(tool?.outputSchema, component(operation.responses['200'].content['application/json'].schema.$ref), `${name}: outputSchema is the JSON answer`)
    t.equal(tool?.title, operation.summary)
    t.equal(tool?.description, `${operation.summary as string}. ${operation.description as string}`, `${name}: the route's own words`)
  }
})

t.test('generate_set is /api/generate as openapi.json describes it, its schemas standing alone', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
  const tool = response.json().result.tools.find((candidate: Json) => candidate.name === 'generate_set') as Json
  const operation = document.paths['/api/generate'].post as Json
  const input = component(operation.requestBody.content['application/json'].schema.$ref)
  const output = component(operation.responses['200'].content['application/json'].schema.$ref)
  t.notOk(JSON.stringify(tool).includes('#/components/'), 'no reference into the document')
  t.same(fromTool(tool.inputSchema), fromDocument(input), 'inputSchema: the request body schema, read through its references')
  t.same(fromTool(tool.outputSchema), fromDocument(output), 'outputSchema: the JSON answer, read through its references')
  t.equal(tool.title, operation.summary)
  t.equal(tool.description, `${operation.summary as string}. ${operation.description as string}`)
})
