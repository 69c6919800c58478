import fp from 'fastify-plugin'
import { Type, type TObject } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PASSWORD_HASH_MAX_LENGTH, PUBLIC_KEY_MAX_LENGTH, QUANTITY_MAX } from '../schemas/common.js'
import { HASH_SUFFIX, JWT_TYPE, JwtSetResultItem, PUBLIC_KEY_SUFFIX, publicKeyName, SET_ITEMS_MAX, SET_NAME_MAX_LENGTH, SetItemName, setResult, setResultItem, setSchemas } from '../schemas/sets.js'
import { JWT_MAX_LENGTH } from '../schemas/jwt.js'
import type { Recipe } from '../schemas/recipes.js'
import { RECIPES } from '../recipes/index.js'
import { jwtPrecheck, jwtProblems, jwtSigner, type JwtPlan } from '../src/http/set-jwt.js'
import { HASHED_VALUES_MAX } from '../schemas/hash.js'
import { isoNow } from '../src/http/clock.js'
import { envFile } from '../src/http/env-file.js'
import { generatorsOf, pairedFields, registerParameterRoutes, SET_URL, type Generated, type GeneratorDefinition } from '../src/http/generator-route.js'
import { ParameterError, type FieldProblem } from '../src/http/parameter-error.js'
import type { FieldMessage } from '../src/i18n/catalog.js'
import { RSA_KEYS_MAX } from '../schemas/signing-key.js'
import { precheckOf } from '../src/http/precheck.js'
import { resultFormat } from '../src/http/result-format.js'
import { fieldErrorsFromAjv, MAX_FIELD_PROBLEMS, type AjvError, type Validator } from '../src/http/validation-errors.js'
import { isJsonObject } from '../src/http/x-data.js'
import { toolName } from '../src/mcp/tools.js'
import { hashJobs } from '../src/http/hashed-values.js'
import { admitToPool, dropAdmission, runAdmitted } from '../src/http/pooled-work.js'

type Definition = GeneratorDefinition<TObject>
type Params = Record<string, unknown>

/** An item as AJV left it: its fields are what the client sent, with the defaults filled in. */
export interface Item { name?: unknown, type?: unknown, params?: unknown, hashName?: unknown, publicKeyName?: unknown }

/** A valid item, ready to draw: a generator's, or a token signed with an earlier item's key. */
type Planned =
  | { name: string, definition: Definition, params: Params, names: EnvNames, jwt?: undefined }
  | { name: string, definition?: undefined, params: Params, names: EnvNames, jwt: JwtPlan }

/** The `.env` names of an item's derived lines, where it has them (CONTRACT §10, §14.2). */
interface EnvNames { publicKey?: string, hash?: string }

/** `#/length` of an item's parameters as `#/items/2/params/length` (`#` alone: the parameters object). */
function intoItem (index: number, pointer: string): string {
  return `#/items/${index}/params${pointer.slice(1)}`
}

const ITEM_INDEX = /^\/items\/(\d+)(?:\/|$)/

/** The item a problem's pointer is in; -1 for the set itself (`#/items` missing or empty). */
function itemOf (pointer: string): number {
  const match = ITEM_INDEX.exec(pointer.slice(1))
  return match === null ? -1 : Number(match[1])
}

/** The items AJV found a problem in (their rules are not checked: their parameters are not known to be whole). */
function invalidItems (errors: readonly AjvError[]): Set<number> {
  const invalid = new Set<number>()
  // A missing `name` or `type` is reported at the item itself (`/items/2`), which the pattern takes too
  for (const { instancePath } of errors) {
    const match = ITEM_INDEX.exec(instancePath)
    if (match !== null) invalid.add(Number(match[1]))
  }
  return invalid
}

/** The quantity an item asks for, where it is one a generator takes (an invalid one is its own problem). */
function quantityOf (params: unknown): number {
  const quantity = isJsonObject(params) ? params.quantity : undefined
  return Number.isInteger(quantity) && (quantity as number) >= 1 && (quantity as number) <= QUANTITY_MAX ? quantity as number : 0
}

/** Why the .env form refuses what a pointer names, where the general message would not say it. */
const ENV_MESSAGES: Partial<Record<string, FieldMessage>> = { type: 'ENV_MULTILINE', 'params/format': 'ENV_PEM' }

/** Whether an item answers `hashes`: a token always, a password or passphrase when it asks (CONTRACT §12). */
function makesHashes (definition: Definition, params: Params): boolean {
  return definition.hashOf === undefined ? definition.result.properties.hashes !== undefined : definition.hashOf(params) !== undefined
}

/**
 * The names the `.env` form derives for an item (CONTRACT §10), or those its `hashName` and
 * `publicKeyName` give (§14.2), each with the field that names it; a field given where the item
 * has no such line is a problem at that field.
 */
function derivedNames (index: number, item: Item, definition: Definition | undefined, params: Params): { names: EnvNames, fields: Array<[string, string]>, problems: FieldProblem[] } {
  const name = item.name as string
  const names: EnvNames = {}
  const fields: Array<[string, string]> = []
  const problems: FieldProblem[] = []
  const derive = (field: 'publicKeyName' | 'hashName', has: boolean, derived: string): string | undefined => {
    const given = item[field]
    if (!has) {
      if (given !== undefined) problems.push({ pointer: `#/items/${index}/${field}`, code: 'NOT_ALLOWED_VALUE', message: field === 'hashName' ? 'NO_HASH_LINE' : 'NO_PUBLIC_KEY_LINE' })
      return undefined
    }
    const chosen = typeof given === 'string' ? given : derived
    fields.push([chosen, typeof given === 'string' ? `#/items/${index}/${field}` : `#/items/${index}/name`])
    return chosen
  }
  names.publicKey = derive('publicKeyName', definition?.keyPairs?.(params) === true, publicKeyName(name))
  names.hash = derive('hashName', definition !== undefined && makesHashes(definition, params), name + HASH_SUFFIX)
  return { names, fields, problems }
}

/**
 * Every problem of a set AJV has validated (its errors in `ajvErrors`), in the order found: AJV's,
 * then for each valid item its generator's rules and, for the `.env` form, what it cannot carry,
 * then a name already taken, then the quantities added up. The items that pass come back planned.
 */
export function planSet (items: readonly unknown[], ajvErrors: readonly AjvError[], definitions: ReadonlyMap<string, Definition>, env: boolean): { problems: FieldProblem[], planned: Planned[] } {
  const problems = fieldErrorsFromAjv(ajvErrors as AjvError[])
  const invalid = invalidItems(ajvErrors)
  const badNames = new Set(problems.filter(({ pointer }) => /\/(name|hashName|publicKeyName)$/.test(pointer)).map(({ pointer }) => pointer))
  const taken = new Set<string>()
  const planned: Planned[] = []
  let total = 0
  let hashed = 0
  let pooled = 0
  const take = (name: string, pointer: string): void => {
    if (badNames.has(pointer)) return
    if (taken.has(name)) problems.push({ pointer, code: 'DUPLICATE_NAME' })
    taken.add(name)
  }
  items.forEach((raw, index) => {
    if (!isJsonObject(raw)) return
    const item = raw as Item
    const namePointer = `#/items/${index}/name`
    if (item.type === JWT_TYPE) {
      // One token, whatever it is signed with: it counts as one value
      total += 1
      if (typeof item.name === 'string') take(item.name, namePointer)
      if (invalid.has(index) || typeof item.name !== 'string' || !isJsonObject(item.params)) return
      const params = item.params as Params
      const { problems: found, plan } = jwtProblems(index, params, items.slice(0, index) as Item[])
      problems.push(...found)
      if (plan !== undefined) planned.push({ name: item.name, params, names: {}, jwt: plan })
      return
    }
    total += quantityOf(item.params)
    const definition = typeof item.type === 'string' ? definitions.get(item.type) : undefined
    const valid = !invalid.has(index) && definition !== undefined && typeof item.name === 'string' && isJsonObject(item.params)
    if (typeof item.name === 'string') take(item.name, namePointer)
    if (!valid) return
    const params = item.params as Params
    const derived = derivedNames(index, item, definition, params)
    for (const [name, pointer] of derived.fields) take(name, pointer)
    problems.push(...derived.problems)
    if (definition.hashOf?.(params) !== undefined) hashed += quantityOf(params)
    pooled += definition.pooled?.(params)?.bounded ?? 0
    let ok = derived.problems.length === 0
    try {
      definition.check?.(params)
    } catch (error) {
      if (!(error instanceof ParameterError)) throw error
      for (const problem of error.problems) problems.push({ ...problem, pointer: intoItem(index, problem.pointer) })
      ok = false
    }
    if (env) {
      // Decided from the parameters alone, before anything is drawn: never a value refused by chance
      if ((params.quantity as number) > 1) {
        problems.push({ pointer: intoItem(index, '#/quantity'), code: 'NOT_REPRESENTABLE', message: 'ENV_ONE_VALUE' })
        ok = false
      }
      for (const where of definition.notRepresentable?.(params) ?? []) {
        problems.push({ pointer: `#/items/${index}/${where}`, code: 'NOT_REPRESENTABLE', ...(ENV_MESSAGES[where] === undefined ? {} : { message: ENV_MESSAGES[where] }) })
        ok = false
      }
    }
    if (ok) planned.push({ name: item.name as string, definition, params, names: derived.names })
  })
  // Item by item, in the request's order (AJV's problems first within an item, then the rules')
  problems.sort((a, b) => itemOf(a.pointer) - itemOf(b.pointer))
  if (total > QUANTITY_MAX) problems.push({ pointer: '#/items', code: 'TOO_MANY_VALUES', args: { total, max: QUANTITY_MAX } })
  // CONTRACT §12: the set hashes at most what one request may (each item's own bound is its rule)
  if (hashed > HASHED_VALUES_MAX) problems.push({ pointer: '#/items', code: 'TOO_MANY_VALUES', message: 'TOO_MANY_HASHES_IN_SET', args: { total: hashed, max: HASHED_VALUES_MAX } })
  // CONTRACT §13: likewise RSA keys, made on the same pool
  if (pooled > RSA_KEYS_MAX) problems.push({ pointer: '#/items', code: 'TOO_MANY_VALUES', message: 'TOO_MANY_RSA_KEYS_IN_SET', args: { total: pooled, max: RSA_KEYS_MAX } })
  return { problems, planned }
}

/**
 * The items a set's body asks for (CONTRACT §14.1): its `items`, or its recipe's (checked when the
 * catalog loaded, with their defaults filled in, so AJV has nothing to say of them: what it says
 * of the body, a field beside `recipe`, still stands); both or neither is a problem of its own.
 */
function itemsOf (parameters: unknown, recipes: ReadonlyMap<string, CheckedRecipe>): { items: readonly unknown[], problems: FieldProblem[] } {
  if (!isJsonObject(parameters)) return { items: [], problems: [] }
  const { items, recipe } = parameters
  if (recipe !== undefined && items !== undefined) return { items: [], problems: [{ pointer: '#/recipe', code: 'NOT_ALLOWED_VALUE', message: 'RECIPE_WITH_ITEMS' }] }
  if (typeof recipe === 'string') {
    const checked = recipes.get(recipe)
    // An unknown id is AJV's problem (the enum); nothing to add here
    return { items: checked?.items ?? [], problems: [] }
  }
  if (items === undefined && recipe === undefined) return { items: [], problems: [{ pointer: '#/items', code: 'REQUIRED' }] }
  return { items: Array.isArray(items) ? items : [], problems: [] }
}

/** A recipe as the catalog checked it: its items with their defaults, and the names of its `.env` answer. */
export interface CheckedRecipe { recipe: Recipe, items: readonly unknown[], names: string[] }

/** The `.env` names a planned set writes, in order. */
function envNamesOf (planned: readonly Planned[]): string[] {
  return planned.flatMap(({ name, names }) => [name, ...(names.publicKey === undefined ? [] : [names.publicKey]), ...(names.hash === undefined ? [] : [names.hash])])
}

/**
 * CONTRACT §14: every recipe checked as a request would be, in both forms (its `.env` answer
 * included), with the set's own validator: a broken recipe stops the start, never a request.
 */
export function checkRecipes (recipes: readonly Recipe[], validate: Validator, definitions: ReadonlyMap<string, Definition>): Map<string, CheckedRecipe> {
  const checked = new Map<string, CheckedRecipe>()
  for (const recipe of recipes) {
    const body = { items: structuredClone(recipe.items) }
    const valid = validate(body)
    const errors = valid ? [] : (validate.errors ?? []) as AjvError[]
    const json = planSet(body.items, errors, definitions, false)
    const env = planSet(body.items, errors, definitions, true)
    const problems = [...json.problems, ...env.problems]
    if (problems.length > 0) throw new Error(`recipe ${recipe.id} is not a valid set: ${problems.map(({ pointer, code }) => `${code} at ${pointer}`).join(', ')}`)
    const names = envNamesOf(env.planned)
    const noted = Object.keys(recipe.notes)
    if (noted.length !== names.length || names.some((name) => recipe.notes[name] === undefined)) {
      throw new Error(`recipe ${recipe.id}: its notes name ${noted.join(', ')}, its .env answer ${names.join(', ')}`)
    }
    if (checked.has(recipe.id)) throw new Error(`recipe ${recipe.id} twice in the catalog`)
    checked.set(recipe.id, { recipe, items: body.items, names })
  }
  return checked
}

/** A set as drawn, with the time it was made (a token's `iat`, CONTRACT §14.2). */
interface Made { drawn: Drawn[], generatedAt: string }

/** An item as drawn: its name, its type, what made it, and its `.env` names. */
interface Drawn { name: string, type: string, generated: Generated, names: EnvNames }

/** The JSON answer (CONTRACT §10): each item `name` first, then its generator's answer without `generatedAt`; one for the set. */
function jsonOf (drawn: readonly Drawn[], generatedAt: string): { items: Array<Record<string, unknown>>, generatedAt: string } {
  return {
    items: drawn.map(({ name, type, generated }) => ({ name, type, values: generated.values, entropyBits: generated.entropyBits, ...pairedFields(generated) })),
    generatedAt
  }
}

/** The `.env` lines of drawn items: `NAME='value'`, then the public key's and the hash's lines where the item has them. */
function envOf (drawn: readonly Drawn[]): string {
  const entries: Array<[string, string]> = []
  for (const { name, names, generated: { values, publicKeys, hashes } } of drawn) {
    // One value per item: the .env form refuses quantities over 1
    entries.push([name, values[0] as string])
    if (publicKeys !== undefined) entries.push([names.publicKey as string, publicKeys[0] as string])
    if (hashes !== undefined) entries.push([names.hash as string, hashes[0] as string])
  }
  return envFile(entries)
}

/** The longest `.env` answer: every value on three lines (value, public key, hash) at the longest name, value, key and hash. */
function envMaxLength (definitions: readonly Definition[]): number {
  const longestValue = Math.max(JWT_MAX_LENGTH, ...definitions.map(({ result }) => (result.properties.values as unknown as { items: { maxLength: number } }).items.maxLength))
  const line = (suffix: string, value: number) => SET_NAME_MAX_LENGTH + suffix.length + "=''\n".length + value
  return QUANTITY_MAX * (line('', longestValue) + line(PUBLIC_KEY_SUFFIX, PUBLIC_KEY_MAX_LENGTH) + line(HASH_SUFFIX, PASSWORD_HASH_MAX_LENGTH))
}

/** CONTRACT §10: several generators in one request, as JSON or a `.env` file. */
declare module 'fastify' {
  interface FastifyInstance {
    /** CONTRACT §14: the recipes as the catalog's check left them, by id (filled once the app is ready). */
    recipes: ReadonlyMap<string, CheckedRecipe>
  }
}

export default fp(async function sets (app: FastifyInstance) {
  const definitions = generatorsOf(app)
  const byType = new Map(definitions.map((definition) => [definition.type, definition]))
  const counters = new Map(definitions.map(({ type }) => [type, app.metrics?.valuesCounter(type)]))

  app.addSchema(SetItemName)
  const { schemas, item, request } = setSchemas(definitions, RECIPES.map(({ id }) => id))
  for (const schema of schemas) app.addSchema(schema)
  app.addSchema(item)
  app.addSchema(request)
  const resultItems = [...definitions.map(setResultItem), JwtSetResultItem]
  for (const resultItem of resultItems) app.addSchema(resultItem)
  const result = setResult(resultItems)
  app.addSchema(result)

  // CONTRACT §14: the catalog, checked with the set route's own validator once the app is ready
  // (from source AJV compiles it, in the build it is the one compiled ahead); a broken recipe stops the start
  const recipes = new Map<string, CheckedRecipe>()
  app.decorate('recipes', recipes)
  app.addHook('onReady', async () => {
    const validate = (app.validatorCompiler as NonNullable<FastifyInstance['validatorCompiler']>)({ schema: Type.Ref(request.$id as string), method: 'POST', url: SET_URL, httpPart: 'body' }) as Validator
    for (const [id, checked] of checkRecipes(RECIPES, validate, byType)) recipes.set(id, checked)
  })

  /**
   * Every item drawn, or a ParameterError listing every problem: all or nothing. Items with `hash`
   * (CONTRACT §12) are admitted to the work pool together before anything is drawn (503 BUSY
   * otherwise), and the set answers once all their hashes are made: a promise then, undefined if
   * the client went away first. Tokens (§14.2) are signed last, with their keys drawn.
   */
  const draw = (parameters: unknown, ajvErrors: readonly AjvError[], env: boolean, reply?: FastifyReply): Made | Promise<Made | undefined> => {
    const asked = itemsOf(parameters, recipes)
    const { problems, planned } = planSet(asked.items, ajvErrors, byType, env)
    // All or nothing: a single problem anywhere and nothing is drawn
    if (asked.problems.length + problems.length > 0) throw new ParameterError([...asked.problems, ...problems])
    const settings = planned.map(({ definition, params }) => definition?.hashOf?.(params))
    const works = planned.map(({ definition, params }) => definition?.pooled?.(params))
    const hashed = planned.reduce((sum, { params }, index) => sum + (settings[index] === undefined ? 0 : params.quantity as number), 0)
    const poolJobs = hashed + works.reduce((sum, work) => sum + (work?.jobs.length ?? 0), 0)
    // One admission for the set's hashes and RSA keys together (CONTRACT §12.1), before anything is drawn
    const admission = poolJobs === 0 ? undefined : admitToPool(app, poolJobs, reply)
    let drawn: Drawn[]
    try {
      // Each item drawn by its own generator's code, exactly as its route draws it; an item made
      // on the pool gets its values when its jobs are done, a token once its key is there
      drawn = planned.map(({ name, definition, params, names }, index) => ({
        name,
        type: definition?.type ?? JWT_TYPE,
        generated: definition === undefined || works[index] !== undefined ? { values: [], entropyBits: 0 } : definition.generate(params),
        names
      }))
    } catch (error) {
      if (admission !== undefined) dropAdmission(admission)
      throw error
    }
    const finish = (): Made => {
      const generatedAt = isoNow()
      const sign = jwtSigner(generatedAt)
      drawn.forEach((item, index) => {
        const { jwt } = planned[index] as Planned
        if (jwt !== undefined) item.generated = sign(jwt, (drawn[jwt.keyIndex] as Drawn).generated.values[0] as string)
      })
      for (const { type, generated } of drawn) counters.get(type)?.(generated.values.length)
      return { drawn, generatedAt }
    }
    if (admission === undefined) return finish()
    // One run for the set: its jobs in item order (each item's RSA keys, then its hashes), their
    // results handed back to each item
    const jobs = drawn.flatMap(({ generated }, index) => [...(works[index]?.jobs ?? []), ...(settings[index] === undefined ? [] : hashJobs(settings[index], generated.values))])
    return runAdmitted(app, admission, jobs, reply).then((results) => {
      if (results === undefined) return undefined
      let next = 0
      drawn.forEach((item, index) => {
        const work = works[index]
        if (work !== undefined) {
          item.generated = work.finish(results.slice(next, next + work.jobs.length))
          next += work.jobs.length
        }
        if (settings[index] !== undefined) {
          item.generated.hashes = results.slice(next, next + item.generated.values.length)
          next += item.generated.values.length
        }
      })
      return finish()
    })
  }

  const answer = ({ drawn, generatedAt }: Made, env: boolean, reply: FastifyReply) => {
    if (env) return reply.header('content-type', 'text/plain; charset=utf-8').send(envOf(drawn))
    // JSON.stringify escapes what every value needs (a password's `"`), in the order built here
    return reply.header('content-type', 'application/json; charset=utf-8').serializer(JSON.stringify).send(jsonOf(drawn, generatedAt))
  }

  const handler = (parameters: unknown, httpRequest: FastifyRequest, reply: FastifyReply) => {
    const env = resultFormat(httpRequest.headers.accept) === 'text'
    const ajvErrors = (httpRequest.validationError?.validation ?? []) as unknown as AjvError[]
    const drawn = draw(parameters, ajvErrors, env, reply)
    if (!(drawn instanceof Promise)) return answer(drawn, env, reply)
    // A client gone before its hashes started gets none made; 499 is for the log alone
    return drawn.then((made) => made === undefined ? reply.code(499).send() : answer(made, env, reply))
  }

  const precheck = setPrecheck(request, byType)
  // GET and HEAD read X-Data into the query string, POST the body: one validator either way, taken
  // only when a set's arrays are long enough to need it
  const routePrecheck = (parameters: Record<string, unknown>, httpRequest: FastifyRequest) =>
    precheck(parameters, () => httpRequest.getValidationFunction(httpRequest.method === 'POST' ? 'body' : 'querystring') as Validator)
  registerParameterRoutes(app, {
    url: SET_URL,
    name: 'Set',
    summary: 'Generate a set of secrets (several generators in one request)',
    description: `Up to ${SET_ITEMS_MAX} named items, each made by the generator \`type\` from its own \`params\` (what \`/api/generate/<type>\` takes, validated as there), ${QUANTITY_MAX} values at most in all; all or nothing. ` +
      'Answered as JSON (`items` in the request\'s order, each `name` then the fields of its generator\'s answer; one `generatedAt`), or, when `Accept` prefers text/plain, as a `.env` file: ' +
      `one \`NAME='value'\` line per value, then \`NAME${PUBLIC_KEY_SUFFIX}\` for a key pair (\`STEM${PUBLIC_KEY_SUFFIX}\` for a name \`STEM_PRIVATE_KEY\`) and \`NAME${HASH_SUFFIX}\` for a token or an item with \`hash\` (at most ${HASHED_VALUES_MAX} hashed values in a set), read back byte for byte by sh (set -a; . ./.env), Docker Compose, dotenv, Node's parseEnv, godotenv and python-dotenv (interpolate=False). ` +
      'The `.env` form refuses (NOT_REPRESENTABLE), before anything is drawn, an item with `quantity` over 1, an ssh-key (its private key spans lines), and parameters that let a value hold `\'`, `\\` or a control character (a `symbolSet` or `separator` holding `\'` or `\\`).',
    paramsId: request.$id as string,
    response: {
      200: {
        description: 'The set: JSON, or a `.env` file as text/plain when `Accept` prefers it.',
        content: {
          'application/json': { schema: Type.Ref(result.$id as string) },
          'text/plain': {
            schema: Type.String({
              maxLength: envMaxLength(definitions),
              description: `One line per value, each \`NAME='value'\` ending in a line feed: the item's value, then \`NAME${PUBLIC_KEY_SUFFIX}\` (key pairs; \`STEM${PUBLIC_KEY_SUFFIX}\` for \`STEM_PRIVATE_KEY\`) and \`NAME${HASH_SUFFIX}\` (tokens, items with \`hash\`). Nothing else.`
            }),
            example: "POSTGRES_PASSWORD='Qx7...'\nWG_SERVER='yAnz...='\nWG_SERVER_PUBLIC_KEY='xTIB...='\nAPP_TOKEN='rg_...'\nAPP_TOKEN_HASH='9f86...'\n"
          }
        }
      }
    },
    precheck: routePrecheck,
    handler,
    // CONTRACT §11: the set is also the MCP tool generate_set, answering the JSON form
    postConfig: {
      tool: {
        name: toolName('set'),
        precheck: (parameters, validate) => precheck(parameters, () => validate),
        answer: (parameters: unknown, ajvErrors: readonly AjvError[]) => {
          const made = draw(parameters, ajvErrors, false)
          return made instanceof Promise ? made.then((done) => jsonOf((done as Made).drawn, (done as Made).generatedAt)) : jsonOf(made.drawn, made.generatedAt)
        }
      }
    },
    // The set's own problems (names, rules, quantities) are listed beside AJV's, so the handler reads AJV's errors
    attachValidation: true
  })
}, {
  name: 'sets',
  dependencies: ['errors', 'metrics', 'work-pool', 'generator-signing-key', 'generator-password', 'generator-passphrase', 'generator-number', 'generator-vpn', 'generator-uuid', 'generator-phrase',
    'generator-seq', 'generator-short-id', 'generator-pin', 'generator-ssh-key', 'generator-age-key', 'generator-token', 'generator-totp']
})

/** The most array items one generator route takes (number's exclusions): what one item may cost AJV. */
const ARRAY_ITEMS_MAX = 1000

/** How many array items the items' parameters hold together. */
function arrayItems (items: readonly unknown[]): number {
  let count = 0
  for (const item of items) {
    if (!isJsonObject(item) || !isJsonObject(item.params)) continue
    for (const key in item.params) {
      const value = item.params[key]
      if (Array.isArray(value)) count += value.length
    }
  }
  return count
}

/**
 * What refuses a set before AJV reads it (src/http/precheck.ts, CONTRACT §5): too many items or
 * unknown fields at the top, and each item's parameters as its own route's precheck refuses them
 * (an array over its limit), with pointers into the item.
 *
 * A route's precheck lets AJV see at most 1,000 array items, and AJV's cost grows with the invalid
 * ones (an error object each, all errors being collected): 32 items of 650 invalid exclusions
 * cost ~45 ms of CPU where one route's 1,000 cost ~1.5. So where the items' arrays hold more than
 * one route takes, the items are validated one at a time by the set's own validator (the route's,
 * on a set of that one item), until 20 problems are found: the first found, at most one item's
 * worth of errors beyond them.
 */
export function setPrecheck (request: TObject, definitions: ReadonlyMap<string, Definition>): (parameters: Record<string, unknown>, validator: () => Validator) => FieldProblem[] | undefined {
  const top = precheckOf(request)
  const itemChecks = new Map([...definitions].map(([type, definition]) => [type, precheckOf(definition.params)]))
  itemChecks.set(JWT_TYPE, jwtPrecheck())
  return (parameters, validator) => {
    const refused = top(parameters)
    if (refused !== undefined) return refused
    const { items } = parameters
    if (!Array.isArray(items)) return undefined
    for (let index = 0; index < items.length; index++) {
      const item: unknown = items[index]
      if (!isJsonObject(item) || typeof item.type !== 'string' || !isJsonObject(item.params)) continue
      const problems = itemChecks.get(item.type)?.(item.params)
      if (problems !== undefined) return problems.map((problem) => ({ ...problem, pointer: intoItem(index, problem.pointer) }))
    }
    if (arrayItems(items) <= ARRAY_ITEMS_MAX) return undefined
    const validate = validator()
    const problems: FieldProblem[] = []
    for (let index = 0; index < items.length && problems.length < MAX_FIELD_PROBLEMS; index++) {
      if (validate({ items: [items[index]] })) continue
      const errors = (validate.errors ?? []).map((error) => ({ ...error, instancePath: error.instancePath.replace(/^\/items\/0/, `/items/${index}`) }))
      problems.push(...fieldErrorsFromAjv(errors, MAX_FIELD_PROBLEMS - problems.length))
    }
    return problems.length > 0 ? problems : undefined
  }
}
