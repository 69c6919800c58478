// CONTRACT §14.1: {"recipe": "<id>"} on /api/generate in place of `items`, answered as the
// recipe's items would be (JSON and .env, POST and GET), its refusals, MCP's generate_set with a
// recipe, and the catalog's check (checkRecipes): a broken recipe stops the start.
import t from 'tap'
import { parseEnv } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { checkRecipes } from '../../plugins/sets.js'
import { RECIPES } from '../../recipes/index.js'
import type { Recipe } from '../../schemas/recipes.js'
import { generatorsOf, SET_URL } from '../../src/http/generator-route.js'
import type { Validator } from '../../src/http/validation-errors.js'
import { build, buildUnready, callTool, mcpRpc, xData } from '../helper.js'

type Headers = Record<string, string>
const TEXT = { accept: 'text/plain' }

function postSet (app: FastifyInstance, body: unknown, headers: Headers = {}) {
  return app.inject({ method: 'POST', url: SET_URL, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) })
}
function getSet (app: FastifyInstance, body: unknown, headers: Headers = {}) {
  return app.inject({ method: 'GET', url: SET_URL, headers: { 'x-data': xData(body), ...headers } })
}
const problems = (body: string) => (JSON.parse(body).errors as Array<{ pointer: string, code: string }>).map(({ pointer, code }) => [pointer, code])

/** What an answered item is, values aside: its fields, name, type, entropy and how many of each list. */
function shape (item: Record<string, unknown>) {
  const count = (field: string) => (item[field] as unknown[] | undefined)?.length
  return { fields: Object.keys(item), name: item.name, type: item.type, entropyBits: item.entropyBits, values: count('values'), publicKeys: count('publicKeys'), hashes: count('hashes') }
}

t.test('{"recipe"}: answered as its items would be, JSON and .env, POST and GET', async (t) => {
  const app = await build(t)
  const detail = (await app.inject({ method: 'GET', url: '/api/recipes/supabase' })).json()
  const names = (await app.inject({ method: 'GET', url: '/api/recipes' })).json().recipes.find(({ id }: { id: string }) => id === 'supabase').names
  const byHand = await postSet(app, { items: detail.items })
  t.equal(byHand.statusCode, 200, byHand.body)
  for (const send of [postSet, getSet]) {
    const json = await send(app, { recipe: 'supabase' })
    t.equal(json.statusCode, 200, `${send.name}: JSON answered`)
    t.equal(json.headers['content-type'], 'application/json; charset=utf-8')
    t.equal(json.headers['cache-control'], 'no-store')
    t.equal(json.headers.vary, 'Accept')
    t.same(Object.keys(json.json()), ['items', 'generatedAt'])
    t.same(json.json().items.map(shape), byHand.json().items.map(shape), `${send.name}: item by item, the answer to its items sent by hand`)
    const env = await send(app, { recipe: 'supabase' }, TEXT)
    t.equal(env.statusCode, 200, `${send.name}: .env answered`)
    t.equal(env.headers['content-type'], 'text/plain; charset=utf-8')
    t.equal(env.headers['cache-control'], 'no-store')
    t.same(env.body.split('\n').map((line) => line.split('=')[0]), [...names, ''], `${send.name}: a line for each of the recipe's names, in order, each ending in \\n`)
    // Node's own .env reader (its object is by name, not in the file's order): every line read, none empty
    const read = parseEnv(env.body)
    t.same(Object.keys(read).sort(), [...names].sort(), `${send.name}: every name read`)
    t.ok(Object.values(read).every((value) => value !== undefined && value.length > 0), 'no value empty')
  }
  // Each request draws anew
  const [a, b] = [await postSet(app, { recipe: 'supabase' }), await postSet(app, { recipe: 'supabase' })]
  t.not(a.json().items[0].values[0], b.json().items[0].values[0], 'drawn anew each time')
})

t.test('refusals: recipe with items, an unknown id, neither, a field beside recipe', async (t) => {
  const app = await build(t)
  const one = [{ name: 'A', type: 'uuid' }]
  const cases: Array<[unknown, Array<[string, string]>]> = [
    [{ recipe: 'supabase', items: one }, [['#/recipe', 'NOT_ALLOWED_VALUE']]],
    [{ recipe: 'nope', items: one }, [['#/recipe', 'NOT_ALLOWED_VALUE'], ['#/recipe', 'NOT_ALLOWED_VALUE']]],
    [{ recipe: 'nope' }, [['#/recipe', 'NOT_ALLOWED_VALUE']]],
    [{ recipe: 'Supabase' }, [['#/recipe', 'NOT_ALLOWED_VALUE']]],
    [{ recipe: '' }, [['#/recipe', 'NOT_ALLOWED_VALUE']]],
    [{ recipe: 'x'.repeat(5000) }, [['#/recipe', 'NOT_ALLOWED_VALUE']]],
    [{ recipe: 5 }, [['#/recipe', 'TYPE']]],
    [{ recipe: null }, [['#/recipe', 'TYPE']]],
    [{}, [['#/items', 'REQUIRED']]],
    [{ recipe: 'supabase', x: 1 }, [['#/x', 'UNKNOWN_FIELD']]],
    [{ recipe: 'supabase', generatedAt: 'now', quantity: 1 }, [['#/generatedAt', 'UNKNOWN_FIELD'], ['#/quantity', 'UNKNOWN_FIELD']]]
  ]
  for (const [body, expected] of cases) {
    for (const send of [postSet, getSet]) {
      for (const headers of [{}, TEXT]) {
        const response = await send(app, body, headers)
        t.equal(response.statusCode, 400, `${JSON.stringify(body).slice(0, 60)} ${send.name} ${JSON.stringify(headers)}`)
        t.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8')
        t.same(problems(response.body), expected, JSON.stringify(body).slice(0, 60))
      }
    }
  }
  // recipe beside an invalid items: the recipe's problem first, then AJV's of the items
  const both = await postSet(app, { recipe: 'supabase', items: [] })
  t.same(problems(both.body), [['#/recipe', 'NOT_ALLOWED_VALUE'], ['#/items', 'TOO_SHORT']])
  t.match(both.json().detail, /items/, 'the detail says what recipe stands in for')
  // An empty POST body means {}
  const empty = await app.inject({ method: 'POST', url: SET_URL })
  t.same(problems(empty.body), [['#/items', 'REQUIRED']], 'an empty body: items required')
})

t.test('MCP generate_set: {recipe} as the route answers it; recipe an enum of the ids, no top-level oneOf', async (t) => {
  const app = await build(t)
  const ids = (await app.inject({ method: 'GET', url: '/api/recipes' })).json().recipes.map(({ id }: { id: string }) => id)
  const { result: list } = (await mcpRpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).json()
  const schema = list.tools.find(({ name }: { name: string }) => name === 'generate_set').inputSchema
  t.equal(schema.type, 'object')
  t.equal(schema.additionalProperties, false)
  for (const keyword of ['oneOf', 'anyOf', 'allOf', 'not', 'if', 'required']) t.notOk(keyword in schema, `no top-level ${keyword}`)
  t.same(Object.keys(schema.properties).sort(), ['items', 'recipe'])
  t.equal(schema.properties.recipe.type, 'string')
  t.same(schema.properties.recipe.enum, ids, 'recipe lists the ids')
  t.equal(schema.properties.items.type, 'array', 'items as before')

  const called = (await callTool(app, 'generate_set', { recipe: 'supabase' })).json().result
  t.equal(called.isError, undefined)
  const rest = (await postSet(app, { recipe: 'supabase' })).json()
  t.same(Object.keys(called.structuredContent), Object.keys(rest))
  t.same(called.structuredContent.items.map(shape), rest.items.map(shape), 'each item as the route answers it')
  t.same(called.content, [{ type: 'text', text: JSON.stringify(called.structuredContent) }])

  for (const [args, expected] of [
    [{ recipe: 'supabase', items: [{ name: 'A', type: 'uuid' }] }, [['#/recipe', 'NOT_ALLOWED_VALUE']]],
    [{ recipe: 'nope' }, [['#/recipe', 'NOT_ALLOWED_VALUE']]],
    [{ recipe: 'supabase', x: 1 }, [['#/x', 'UNKNOWN_FIELD']]],
    [{}, [['#/items', 'REQUIRED']]]
  ] as const) {
    const refused = (await callTool(app, 'generate_set', args, { 'x-language': 'fr' })).json().result
    t.equal(refused.isError, true, JSON.stringify(args))
    t.equal(refused.structuredContent, undefined)
    const route = await postSet(app, args, { 'x-language': 'fr' })
    t.same(JSON.parse(refused.content[0].text), route.json(), `${JSON.stringify(args)}: the route's problem document, in French`)
    t.same(problems(refused.content[0].text), expected)
  }
})

t.test('checkRecipes: the catalog passes; a broken recipe throws, naming it and its problem', async (t) => {
  const app = await build(t)
  const validate = (app.validatorCompiler as NonNullable<FastifyInstance['validatorCompiler']>)({ schema: { $ref: 'SetRequest' }, method: 'POST', url: SET_URL, httpPart: 'body' }) as Validator
  const definitions = new Map(generatorsOf(app).map((definition) => [definition.type, definition]))
  const checked = checkRecipes(RECIPES, validate, definitions)
  t.same([...checked.keys()], RECIPES.map(({ id }) => id), 'every recipe, by id')
  t.same(checked.get('supabase')?.names, Object.keys(RECIPES.find(({ id }) => id === 'supabase')?.notes ?? {}))
  t.match(checked.get('supabase')?.items[0], { params: { length: 32, symbols: false, quantity: 1 } }, 'items with their defaults filled in')
  t.equal((RECIPES[0]?.items[0]?.params as Record<string, unknown>).quantity, undefined, 'the recipe itself left as it is')

  const good: Recipe = {
    id: 'good',
    title: 'Good',
    docs: 'https://example.com/',
    group: 'apps',
    items: [{ name: 'KEY', type: 'token' }, { name: 'WG', type: 'vpn', params: { protocol: 'wireguard' } }],
    notes: { KEY: 'A token.', KEY_HASH: 'Its hash.', WG: 'A key.', WG_PUBLIC_KEY: 'Its public key.' }
  }
  t.same(checkRecipes([good], validate, definitions).get('good')?.names, ['KEY', 'KEY_HASH', 'WG', 'WG_PUBLIC_KEY'], 'a hand-made recipe passes')
  const broken: Array<[string, Recipe[], RegExp]> = [
    ['a typo\'d param', [{ ...good, items: [{ name: 'KEY', type: 'token', params: { lenght: 40 } }, good.items[1] as Record<string, unknown>] }], /recipe good is not a valid set: UNKNOWN_FIELD at #\/items\/0\/params\/lenght/],
    ['an unknown type', [{ ...good, items: [{ name: 'KEY', type: 'tokens' }] }], /recipe good is not a valid set: .*NOT_ALLOWED_VALUE at #\/items\/0\/type/],
    ['no .env form (quantity 2)', [{ ...good, items: [{ name: 'KEY', type: 'token', params: { quantity: 2 } }, good.items[1] as Record<string, unknown>] }], /recipe good is not a valid set: NOT_REPRESENTABLE at #\/items\/0\/params\/quantity/],
    ['no .env form (a PEM)', [{ ...good, items: [{ name: 'KEY', type: 'signing-key', params: { format: 'pem' } }], notes: { KEY: 'A key.', KEY_PUBLIC_KEY: 'Its public key.' } }], /NOT_REPRESENTABLE at #\/items\/0\/params\/format/],
    ['a jwt signed with nothing', [{ ...good, items: [...good.items, { name: 'JWT', type: 'jwt', params: { signedWith: 'NOPE' } }], notes: { ...good.notes, JWT: 'A token.' } }], /NOT_ALLOWED_VALUE at #\/items\/2\/params\/signedWith/],
    ['a jwt of 17 claims', [{ ...good, items: [...good.items, { name: 'JWT', type: 'jwt', params: { signedWith: 'KEY', claims: Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`c${index}`, index])) } }], notes: { ...good.notes, JWT: 'A token.' } }], /TOO_MANY_ITEMS at #\/items\/2\/params\/claims/],
    ['a duplicate name', [{ ...good, items: [good.items[0] as Record<string, unknown>, { name: 'KEY_HASH', type: 'uuid' }] }], /DUPLICATE_NAME at #\/items\/1\/name/],
    ['notes missing a name', [{ ...good, notes: { KEY: 'A token.', KEY_HASH: 'Its hash.', WG: 'A key.' } }], /recipe good: its notes name KEY, KEY_HASH, WG, its \.env answer KEY, KEY_HASH, WG, WG_PUBLIC_KEY/],
    ['notes with an extra name', [{ ...good, notes: { ...good.notes, OTHER: 'Nothing.' } }], /recipe good: its notes name .*OTHER/],
    ['notes naming another name', [{ ...good, notes: { KEY: 'A token.', KEY_HASH: 'Its hash.', WG: 'A key.', WG_PUBLIC: 'Its public key.' } }], /recipe good: its notes name .*WG_PUBLIC,/],
    ['a duplicate id', [good, { ...good, title: 'Again' }], /recipe good twice in the catalog/]
  ]
  for (const [what, recipes, message] of broken) t.throws(() => checkRecipes(recipes, validate, definitions), message, what)
})

t.test('a broken recipe in the catalog stops the start', async (t) => {
  const app = await buildUnready(t)
  const recipes = RECIPES as Recipe[]
  const item = recipes[0]?.items[0] as Record<string, unknown>
  const params = item.params
  // The catalog is read when the app gets ready: a recipe broken before then stops it
  item.params = { ...(params as object), lenght: 1 }
  t.teardown(() => { item.params = params })
  await t.rejects(async () => { await app.ready() }, /is not a valid set: UNKNOWN_FIELD at #\/items\/0\/params\/lenght/)
})
