// The whole catalog (CONTRACT §14.1, §14.3): GET /api/recipes lists every recipe with the names
// its .env answer holds, in order; GET /api/recipes/{id} gives its items (which POST back as they
// are) and a note for every name; every recipe's .env is read back byte for byte by §10's readers
// (test/env-readers.ts). Each recipe's own test (test/recipes/<id>.test.ts) hands its values to
// the app's reader.
import t from 'tap'
import { RECIPES } from '../../recipes/index.js'
import { envValues, readBackByEveryReader } from '../env-readers.js'
import { build, callTool, xData } from '../helper.js'
import { postRecipe } from './recipe.js'

/** §14.3's table: at least these ids. */
const TABLE = ['supabase', 'mastodon', 'vaultwarden', 'authelia', 'gitea', 'outline', 'plausible', 'synapse', 'immich', 'paperless-ngx', 'django', 'rails', 'laravel', 'airflow', 'zitadel']
/** The page's starting sets, moved into the catalog (§14.1). */
const STARTING_SETS = ['wireguard', 'reality', 'vaultwarden', 'mosquitto', 'oidc', 'vapid']

interface Summary { id: string, title: string, docs: string, group: string, names: string[] }
interface Detail { id: string, title: string, docs: string, group: string, items: Array<{ name: string, type: string, params?: Record<string, unknown> }>, notes: Record<string, string> }

t.test('the catalog holds §14.3\'s table, the page\'s starting sets, and more', async (t) => {
  const ids = RECIPES.map(({ id }) => id)
  for (const id of [...TABLE, ...STARTING_SETS]) t.ok(ids.includes(id), id)
  t.ok(ids.length >= 20, `${ids.length} recipes`)
  t.same(ids, [...ids].sort(), 'by id')
  t.equal(new Set(ids).size, ids.length, 'each id once')
})

t.test('GET /api/recipes and /api/recipes/{id}; every .env read back by every reader', async (t) => {
  const app = await build(t)
  const list = await app.inject({ method: 'GET', url: '/api/recipes' })
  t.equal(list.statusCode, 200, 'GET /api/recipes')
  const summaries = (list.json() as { recipes: Summary[] }).recipes
  t.same(summaries.map(({ id }) => id), RECIPES.map(({ id }) => id), 'every recipe, by id')

  const texts: Array<{ label: string, text: string }> = []
  for (const recipe of RECIPES) {
    const summary = summaries.find(({ id }) => id === recipe.id) as Summary
    t.same([summary.title, summary.docs, summary.group], [recipe.title, recipe.docs, recipe.group], `${recipe.id}: title, docs, group`)
    t.match(summary.docs, /^https:\/\/[^\s]+$/, `${recipe.id}: docs is an https address`)
    t.ok(['apps', 'vpn', 'keys'].includes(summary.group), `${recipe.id}: a group the page knows`)

    const env = await postRecipe(app, recipe.id, 'text/plain')
    t.equal(env.statusCode, 200, `${recipe.id}: the .env answer${env.statusCode === 200 ? '' : `: ${env.body}`}`)
    if (env.statusCode !== 200) continue
    texts.push({ label: recipe.id, text: env.body })
    const names = [...envValues(env.body).keys()]
    t.same(summary.names, names, `${recipe.id}: names are the .env's, in order`)

    const detailResponse = await app.inject({ method: 'GET', url: `/api/recipes/${recipe.id}` })
    t.equal(detailResponse.statusCode, 200, `GET /api/recipes/${recipe.id}`)
    const detail = detailResponse.json() as Detail
    t.same(detail.items, recipe.items, `${recipe.id}: the items as the file holds them`)
    t.same(Object.keys(detail.notes).sort(), [...names].sort(), `${recipe.id}: a note for every name, derived ones too`)
    for (const [name, note] of Object.entries(detail.notes)) {
      // One English sentence: a word first (postgres-meta's is lower case), one full stop at the end
      t.match(note, /^[A-Za-z`][^\n]*[^.]\.$/, `${recipe.id}: ${name}'s note is a sentence`)
      t.notMatch(note, /\.\s+[A-Z]/, `${recipe.id}: ${name}'s note is one sentence`)
    }
    for (const item of recipe.items as Detail['items']) {
      if (item.params?.hash !== undefined) t.match(detail.notes[item.name], /password manager/, `${recipe.id}: ${item.name}, kept beside its hash, belongs in a password manager`)
    }

    // The items are a set body of their own: posted back, they make the same names
    const posted = await app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json', accept: 'text/plain' }, payload: JSON.stringify({ items: detail.items }) })
    t.equal(posted.statusCode, 200, `${recipe.id}: its items POST back`)
    if (posted.statusCode === 200) t.same([...envValues(posted.body).keys()], names, `${recipe.id}: the same names`)
  }

  t.equal((await app.inject({ method: 'GET', url: '/api/recipes/no-such-app' })).statusCode, 404, 'an unknown id: 404')
  await readBackByEveryReader(t, texts)
})

t.test('the other ways to ask: GET with X-Data, and MCP generate_set', async (t) => {
  const app = await build(t)
  const get = await app.inject({ method: 'GET', url: '/api/generate', headers: { 'x-data': xData({ recipe: 'laravel' }), accept: 'text/plain' } })
  t.equal(get.statusCode, 200, get.body)
  t.match(get.body, /^APP_KEY='base64:[A-Za-z0-9+/]{43}='\n$/, 'GET with X-Data: the .env')
  const mcp = await callTool(app, 'generate_set', { recipe: 'django' })
  t.equal(mcp.statusCode, 200)
  const items = mcp.json().result?.structuredContent?.items as Array<{ name: string, values: string[] }> | undefined
  t.same(items?.map(({ name }) => name), ['SECRET_KEY'], 'MCP generate_set with a recipe')
  t.match(items?.[0]?.values[0], /^[a-z0-9!@#$%^&*(\-_=+)]{50}$/)
})
