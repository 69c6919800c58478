// CONTRACT §14.1: GET /api/recipes and GET /api/recipes/{id}, the catalog read. What each recipe
// makes is checked against the set route itself: its names are its `.env` answer's lines, its
// items a set body the route takes back. Every recipe of the catalog, whatever its number (the
// argon2 ones are slow on Node 20 until issue 42 lands: a few seconds each).
import t, { type Test } from 'tap'
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { RECIPE_ID_PATTERN } from '../../schemas/recipes.js'
import { build, xData } from '../helper.js'

const SET = '/api/generate'
const TEXT = { accept: 'text/plain' }

interface Summary { id: string, title: string, docs: string, group: string, names: string[] }

function postSet (app: FastifyInstance, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: SET, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) })
}

/** The names of a `.env` answer's lines, in order (each `NAME='...'`). */
function envNames (t: Test, body: string): string[] {
  t.ok(body.endsWith('\n'), 'the last line ends in \\n')
  return body.slice(0, -1).split('\n').map((line) => {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)='[^']*'$/.exec(line)
    t.ok(match, `a NAME='value' line: ${line.slice(0, 40)}`)
    return match?.[1] as string
  })
}

async function list (t: Test, app: FastifyInstance): Promise<Summary[]> {
  const response = await app.inject({ method: 'GET', url: '/api/recipes' })
  t.equal(response.statusCode, 200, response.body)
  return response.json().recipes
}

t.test('GET /api/recipes: every recipe by id, each with the names its .env answer holds, in order', async (t) => {
  const app = await build(t)
  const response = await app.inject({ method: 'GET', url: '/api/recipes' })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  t.same(Object.keys(response.json()), ['recipes'])
  const recipes: Summary[] = response.json().recipes
  t.ok(recipes.length >= 1, 'a catalog')
  const ids = recipes.map(({ id }) => id)
  t.same(ids, [...ids].sort(), 'by id')
  t.equal(new Set(ids).size, ids.length, 'each id once')
  t.ok(ids.includes('supabase'))
  for (const recipe of recipes) {
    t.same(Object.keys(recipe).sort(), ['docs', 'group', 'id', 'names', 'title'], `${recipe.id}: its fields`)
    t.match(recipe.id, new RegExp(RECIPE_ID_PATTERN), `${recipe.id}: lower-case a-z 0-9 -`)
    t.match(recipe.docs, /^https:\/\/[^/\s]+\/\S*$/, `${recipe.id}: an https:// address`)
    t.ok(recipe.title.length > 0, `${recipe.id}: a title`)
    const env = await postSet(app, { recipe: recipe.id }, TEXT)
    t.equal(env.statusCode, 200, `${recipe.id}: .env answered`)
    t.equal(env.headers['content-type'], 'text/plain; charset=utf-8')
    t.same(recipe.names, envNames(t, env.body), `${recipe.id}: names are the .env answer's lines, in order`)
  }
  const supabase = recipes.find(({ id }) => id === 'supabase')
  // §14.3's names first, in its order; the guide's newer secrets after them (recipes/supabase.ts says which)
  t.same(supabase?.names.slice(0, 8), ['POSTGRES_PASSWORD', 'JWT_SECRET', 'ANON_KEY', 'SERVICE_ROLE_KEY', 'DASHBOARD_PASSWORD', 'SECRET_KEY_BASE', 'VAULT_ENC_KEY', 'PG_META_CRYPTO_KEY'], 'supabase: §14.3\'s names')
})

t.test('GET /api/recipes/{id}: items are a set body the route takes back, notes name exactly the names', async (t) => {
  const app = await build(t)
  for (const summary of await list(t, app)) {
    const response = await app.inject({ method: 'GET', url: `/api/recipes/${summary.id}` })
    t.equal(response.statusCode, 200, `${summary.id}: answered`)
    t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
    const detail = response.json()
    t.same(Object.keys(detail).sort(), ['docs', 'group', 'id', 'items', 'notes', 'title'], `${summary.id}: its fields`)
    t.same({ id: detail.id, title: detail.title, docs: detail.docs, group: detail.group }, { id: summary.id, title: summary.title, docs: summary.docs, group: summary.group }, `${summary.id}: as the list says`)
    // Sent back by hand, in both forms: the same lines as the recipe's own answer
    const env = await postSet(app, { items: detail.items }, TEXT)
    t.equal(env.statusCode, 200, `${summary.id}: its items, posted back as a .env request`)
    t.same(envNames(t, env.body), summary.names, `${summary.id}: the same names`)
    const json = await postSet(app, { items: detail.items })
    t.equal(json.statusCode, 200, `${summary.id}: its items, posted back as a JSON request`)
    const byRecipe = await postSet(app, { recipe: summary.id })
    t.same(json.json().items.map(({ name, type }: { name: string, type: string }) => [name, type]),
      byRecipe.json().items.map(({ name, type }: { name: string, type: string }) => [name, type]), `${summary.id}: the same items as {"recipe"}`)
    t.same(Object.keys(detail.notes).sort(), [...summary.names].sort(), `${summary.id}: a note for each name, and none else`)
    for (const [name, note] of Object.entries(detail.notes as Record<string, string>)) {
      t.match(note, /^\S.{10,}[.)]$/, `${summary.id} ${name}: a sentence`)
    }
  }
})

t.test('an unknown id is 404 NOT_FOUND, a problem document, however long', async (t) => {
  const app = await build(t)
  for (const id of ['nope', 'Supabase', 'supabase-', 'a'.repeat(100), 'x'.repeat(2000), '%C3%A9', 'supabase%20']) {
    const response = await app.inject({ method: 'GET', url: `/api/recipes/${id}` })
    t.equal(response.statusCode, 404, `${id.slice(0, 20)}: 404`)
    t.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8')
    t.equal(response.headers['cache-control'], 'no-store')
    t.match(response.json(), { status: 404, code: 'NOT_FOUND', title: String, detail: String })
  }
  const german = await app.inject({ method: 'GET', url: '/api/recipes/nope', headers: { 'x-language': 'de' } })
  t.equal(german.headers['content-language'], 'de')
  t.not(german.json().title, 'Not found', 'localized as every 404')
  // An id with a query string is that id: the query is no part of it
  t.equal((await app.inject({ method: 'GET', url: '/api/recipes/supabase?x=1' })).statusCode, 200)
})

t.test('HEAD answers as GET without a body; another method is 405 with Allow', async (t) => {
  const app = await build(t)
  for (const url of ['/api/recipes', '/api/recipes/supabase']) {
    const get = await app.inject({ method: 'GET', url })
    const head = await app.inject({ method: 'HEAD', url })
    t.equal(head.statusCode, 200, `HEAD ${url}`)
    t.equal(head.body, '')
    t.equal(head.headers['content-type'], get.headers['content-type'])
  }
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    const response = await app.inject({ method, url: '/api/recipes', headers: { 'content-type': 'application/json' }, payload: '{}' })
    t.equal(response.statusCode, 405, `${method} /api/recipes`)
    t.equal(response.headers.allow, 'GET, HEAD')
    t.match(response.json(), { status: 405, code: 'METHOD_NOT_ALLOWED' })
  }
})

t.test('with access keys on: both routes stay open, generating a recipe asks for the key', async (t) => {
  const key = 'rg_recipes-routes-test-key-0123456789'
  const app = await build(t, { API_KEY_HASHES: createHash('sha256').update(key).digest('hex') })
  for (const url of ['/api/recipes', '/api/recipes/supabase']) {
    t.equal((await app.inject({ method: 'GET', url })).statusCode, 200, `GET ${url} without a key`)
    t.equal((await app.inject({ method: 'HEAD', url })).statusCode, 200, `HEAD ${url} without a key`)
  }
  t.equal((await app.inject({ method: 'GET', url: '/api/recipes/nope' })).statusCode, 404, 'an unknown id: 404, not 401')
  for (const send of [
    (headers: Record<string, string>) => postSet(app, { recipe: 'supabase' }, headers),
    (headers: Record<string, string>) => app.inject({ method: 'GET', url: SET, headers: { 'x-data': xData({ recipe: 'supabase' }), ...headers } })
  ]) {
    const none = await send({})
    t.equal(none.statusCode, 401, 'no key: 401')
    t.equal(none.headers['www-authenticate'], 'Bearer realm="randgen"')
    t.match(none.json(), { code: 'UNAUTHORIZED' })
    t.equal((await send({ authorization: 'Bearer rg_not-the-key-0000000000000' })).statusCode, 401, 'another key: 401')
    t.equal((await send({ authorization: `Bearer ${key}` })).statusCode, 200, 'the key: 200')
  }
})
