import fp from 'fastify-plugin'
import { Type, type TObject } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PASSWORD_HASH_MAX_LENGTH, PUBLIC_KEY_MAX_LENGTH, QUANTITY_MAX } from '../schemas/common.js'
import { HASH_SUFFIX, PUBLIC_KEY_SUFFIX, publicKeyName, SET_ITEMS_MAX, SET_NAME_MAX_LENGTH, SetItemName, setResult, setResultItem, setSchemas } from '../schemas/sets.js'
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
interface Item { name?: unknown, type?: unknown, params?: unknown }

/** A valid item, ready to draw. */
interface Planned { name: string, definition: Definition, params: Params }

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

/** The names the `.env` form writes for an item: its own, then those it derives (CONTRACT §10). */
function namesOf (name: string, definition: Definition, params: Params): string[] {
  const names = [name]
  if (definition.keyPairs?.(params) === true) names.push(publicKeyName(name))
  if (makesHashes(definition, params)) names.push(name + HASH_SUFFIX)
  return names
}

/**
 * Every problem of a set AJV has validated (its errors in `ajvErrors`), in the order found: AJV's,
 * then for each valid item its generator's rules and, for the `.env` form, what it cannot carry,
 * then a name already taken, then the quantities added up. The items that pass come back planned.
 */
export function planSet (items: readonly unknown[], ajvErrors: readonly AjvError[], definitions: ReadonlyMap<string, Definition>, env: boolean): { problems: FieldProblem[], planned: Planned[] } {
  const problems = fieldErrorsFromAjv(ajvErrors as AjvError[])
  const invalid = invalidItems(ajvErrors)
  const badNames = new Set(problems.filter(({ pointer }) => pointer.endsWith('/name')).map(({ pointer }) => pointer))
  const taken = new Set<string>()
  const planned: Planned[] = []
  let total = 0
  let hashed = 0
  let pooled = 0
  items.forEach((raw, index) => {
    if (!isJsonObject(raw)) return
    const item = raw as Item
    total += quantityOf(item.params)
    const definition = typeof item.type === 'string' ? definitions.get(item.type) : undefined
    const valid = !invalid.has(index) && definition !== undefined && typeof item.name === 'string' && isJsonObject(item.params)
    const namePointer = `#/items/${index}/name`
    if (typeof item.name === 'string' && !badNames.has(namePointer)) {
      const names = valid ? namesOf(item.name, definition, item.params as Params) : [item.name]
      if (names.some((name) => taken.has(name))) problems.push({ pointer: namePointer, code: 'DUPLICATE_NAME' })
      for (const name of names) taken.add(name)
    }
    if (!valid) return
    const params = item.params as Params
    if (definition.hashOf?.(params) !== undefined) hashed += quantityOf(params)
    pooled += definition.pooled?.(params)?.bounded ?? 0
    let ok = true
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
    if (ok) planned.push({ name: item.name as string, definition, params })
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

/** An item as drawn: its name, its generator and what that made. */
interface Drawn { name: string, type: string, generated: Generated }

/** The JSON answer (CONTRACT §10): each item `name` first, then its generator's answer without `generatedAt`; one for the set. */
function jsonOf (drawn: readonly Drawn[]): { items: Array<Record<string, unknown>>, generatedAt: string } {
  return {
    items: drawn.map(({ name, type, generated }) => ({ name, type, values: generated.values, entropyBits: generated.entropyBits, ...pairedFields(generated) })),
    generatedAt: isoNow()
  }
}

/** The `.env` lines of drawn items: `NAME='value'`, then `NAME_PUBLIC_KEY` and `NAME_HASH` where the item has them. */
function envOf (drawn: readonly Drawn[]): string {
  const entries: Array<[string, string]> = []
  for (const { name, generated: { values, publicKeys, hashes } } of drawn) {
    // One value per item: the .env form refuses quantities over 1
    entries.push([name, values[0] as string])
    if (publicKeys !== undefined) entries.push([publicKeyName(name), publicKeys[0] as string])
    if (hashes !== undefined) entries.push([name + HASH_SUFFIX, hashes[0] as string])
  }
  return envFile(entries)
}

/** The longest `.env` answer: every value on three lines (value, public key, hash) at the longest name, value, key and hash. */
function envMaxLength (definitions: readonly Definition[]): number {
  const longestValue = Math.max(...definitions.map(({ result }) => (result.properties.values as unknown as { items: { maxLength: number } }).items.maxLength))
  const line = (suffix: string, value: number) => SET_NAME_MAX_LENGTH + suffix.length + "=''\n".length + value
  return QUANTITY_MAX * (line('', longestValue) + line(PUBLIC_KEY_SUFFIX, PUBLIC_KEY_MAX_LENGTH) + line(HASH_SUFFIX, PASSWORD_HASH_MAX_LENGTH))
}

/** CONTRACT §10: several generators in one request, as JSON or a `.env` file. */
export default fp(async function sets (app: FastifyInstance) {
  const definitions = generatorsOf(app)
  const byType = new Map(definitions.map((definition) => [definition.type, definition]))
  const counters = new Map(definitions.map(({ type }) => [type, app.metrics?.valuesCounter(type)]))

  app.addSchema(SetItemName)
  const { branches, item, request } = setSchemas(definitions)
  for (const branch of branches) app.addSchema(branch)
  app.addSchema(item)
  app.addSchema(request)
  const resultItems = definitions.map(setResultItem)
  for (const resultItem of resultItems) app.addSchema(resultItem)
  const result = setResult(resultItems)
  app.addSchema(result)

  /**
   * Every item drawn, or a ParameterError listing every problem: all or nothing. Items with `hash`
   * (CONTRACT §12) are admitted to the hashing pool together before anything is drawn (503 BUSY
   * otherwise), and the set answers once all their hashes are made: a promise then, undefined if
   * the client went away first.
   */
  const draw = (parameters: unknown, ajvErrors: readonly AjvError[], env: boolean, reply?: FastifyReply): Drawn[] | Promise<Drawn[] | undefined> => {
    const items = isJsonObject(parameters) && Array.isArray(parameters.items) ? parameters.items : []
    const { problems, planned } = planSet(items, ajvErrors, byType, env)
    // All or nothing: a single problem anywhere and nothing is drawn
    if (problems.length > 0) throw new ParameterError(problems)
    const settings = planned.map(({ definition, params }) => definition.hashOf?.(params))
    const works = planned.map(({ definition, params }) => definition.pooled?.(params))
    const hashed = planned.reduce((sum, { params }, index) => sum + (settings[index] === undefined ? 0 : params.quantity as number), 0)
    const poolJobs = hashed + works.reduce((sum, work) => sum + (work?.jobs.length ?? 0), 0)
    // One admission for the set's hashes and RSA keys together (CONTRACT §12.1), before anything is drawn
    const admission = poolJobs === 0 ? undefined : admitToPool(app, poolJobs, reply)
    let drawn: Drawn[]
    try {
      // Each item drawn by its own generator's code, exactly as its route draws it; an item made
      // on the pool gets its values when its jobs are done
      drawn = planned.map(({ name, definition, params }, index) => ({ name, type: definition.type, generated: works[index] === undefined ? definition.generate(params) : { values: [], entropyBits: 0 } }))
    } catch (error) {
      if (admission !== undefined) dropAdmission(admission)
      throw error
    }
    if (admission === undefined) {
      for (const { type, generated } of drawn) counters.get(type)?.(generated.values.length)
      return drawn
    }
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
      for (const { type, generated } of drawn) counters.get(type)?.(generated.values.length)
      return drawn
    })
  }

  const answer = (drawn: Drawn[], env: boolean, reply: FastifyReply) => {
    if (env) return reply.header('content-type', 'text/plain; charset=utf-8').send(envOf(drawn))
    // JSON.stringify escapes what every value needs (a password's `"`), in the order built here
    return reply.header('content-type', 'application/json; charset=utf-8').serializer(JSON.stringify).send(jsonOf(drawn))
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
          const drawn = draw(parameters, ajvErrors, false)
          return drawn instanceof Promise ? drawn.then((made) => jsonOf(made as Drawn[])) : jsonOf(drawn)
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
