// CONTRACT §4/§5 and issue 13's "amplification" findings: whatever a body or X-Data holds within
// the limits, the answer has at most 20 entries (the first found) and at most 16 KiB, and no
// work is done for entries that are not sent. CPU time is measured by the bench ('abuse' rows),
// never here.
import { Ajv } from 'ajv'
import fc from 'fast-check'
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { catalogs, LANGUAGES } from '../../../src/i18n/index.js'
import { validationProblem } from '../../../src/http/errors.js'
import { type FieldProblem } from '../../../src/http/parameter-error.js'
import { fieldErrorsFromAjv, MAX_ECHOED_NAME, MAX_FIELD_PROBLEMS, type AjvError } from '../../../src/http/validation-errors.js'
import { X_DATA_MAX_LENGTH } from '../../../src/http/x-data.js'
import { build } from '../../helper.js'
import { loadConfig } from '../../../src/ops/config.js'
import { serverOptions } from '../../../src/server-options.js'

const ANSWER_LIMIT = 16_384

/** `{"exclusions":[{},{},…]}`: the 64 KiB body, 21,826 items each a TYPE error. */
function emptyItems (count: number): string {
  return '{"exclusions":[' + Array(count).fill('{}').join(',') + ']}'
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/**
 * The i-th of the shortest field names: 62 of one character, 3,844 of two, then three (the first
 * 62² of those begin with `0`, so none is a parameter's name).
 */
function shortName (i: number): string {
  let width = 1
  let first = 0
  while (i - first >= DIGITS.length ** width) first += DIGITS.length ** width++
  let name = ''
  for (let rest = i - first, k = 0; k < width; k++, rest = Math.floor(rest / DIGITS.length)) name = (DIGITS[rest % DIGITS.length] as string) + name
  return name
}

/** A body of `count` unknown fields with the shortest names, so 5,000 fit in X-Data too. */
function unknownFields (count: number): string {
  return '{' + Array.from({ length: count }, (_, i) => `"${shortName(i)}":0`).join(',') + '}'
}

function xDataOf (json: string): string {
  return Buffer.from(json, 'utf8').toString('base64')
}

/** The largest `make(n)` whose X-Data fits the header limit. */
function largestXData (make: (count: number) => string, high: number): { count: number, header: string } {
  let low = 0
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (xDataOf(make(mid)).length <= X_DATA_MAX_LENGTH) low = mid
    else high = mid - 1
  }
  return { count: low, header: xDataOf(make(low)) }
}

function send (app: FastifyInstance, type: string, json: string, form: 'POST' | 'X-Data', headers: Record<string, string> = {}) {
  return form === 'POST'
    ? app.inject({ method: 'POST', url: `/api/generate/${type}`, headers: { 'content-type': 'application/json', ...headers }, payload: json })
    : app.inject({ method: 'GET', url: `/api/generate/${type}`, headers: { 'x-data': xDataOf(json), ...headers } })
}

interface Answer { statusCode: number, body: string, headers: Record<string, unknown> }

/** 400 VALIDATION_FAILED, at most 20 entries, `detail` the first's, at most 16 KiB; the entries as pointer and code. */
function checkBounded (t: Test, response: Answer): Array<[string, string]> {
  t.equal(response.statusCode, 400)
  t.ok(Buffer.byteLength(response.body) <= ANSWER_LIMIT, `answer of ${Buffer.byteLength(response.body)} bytes`)
  const body = JSON.parse(response.body)
  t.equal(body.code, 'VALIDATION_FAILED')
  t.ok(body.errors.length >= 1 && body.errors.length <= MAX_FIELD_PROBLEMS, `${body.errors.length} entries`)
  t.equal(body.detail, body.errors[0].detail, 'detail repeats the first entry')
  return body.errors.map((error: { pointer: string, code: string }) => [error.pointer, error.code])
}

t.test('amplification: 21,826 items {} in exclusions answer one TOO_MANY_ITEMS, not 21,826 translated errors', async (t) => {
  const app = await build(t)
  const body = emptyItems(21_826)
  t.ok(body.length <= 65_536, `a ${body.length}-byte body, within the body limit`)
  t.same(checkBounded(t, await send(app, 'number', body, 'POST')), [['#/exclusions', 'TOO_MANY_ITEMS']])
  const { count, header } = largestXData(emptyItems, 30_000)
  t.ok(count > 12_000, `${count} items in the largest X-Data`)
  const viaHeader = await app.inject({ method: 'GET', url: '/api/generate/number', headers: { 'x-data': header } })
  t.same(checkBounded(t, viaHeader), [['#/exclusions', 'TOO_MANY_ITEMS']])
  t.equal(JSON.parse(viaHeader.body).errors[0].detail, '“exclusions” must have at most 1000 items.')
})

t.test('amplification: 5,000 unknown fields answer the first 20, POST and X-Data, number and password', async (t) => {
  const app = await build(t)
  const body = unknownFields(5000)
  t.ok(xDataOf(body).length <= X_DATA_MAX_LENGTH, 'all 5,000 fit in X-Data')
  // The first found is the first in the object's key order (integer-like names come first)
  const first = Object.keys(JSON.parse(body)).slice(0, MAX_FIELD_PROBLEMS).map((name) => [`#/${name}`, 'UNKNOWN_FIELD'])
  for (const type of ['number', 'password']) {
    for (const form of ['POST', 'X-Data'] as const) {
      t.same(checkBounded(t, await send(app, type, body, form)), first, `${type} ${form}`)
    }
  }
})

t.test('amplification: long unknown field names are cut short in every language', async (t) => {
  const app = await build(t)
  // 20 names that fill the body (64 KiB) or X-Data (36 KiB of JSON): whole, each name was echoed
  // three times (a 64 KiB body answered 130 KB)
  const names = (filler: string, repeat: number) =>
    JSON.stringify(Object.fromEntries(Array.from({ length: MAX_FIELD_PROBLEMS }, (_, i) => [String.fromCharCode(97 + i) + filler.repeat(repeat), 0])))
  const bodies = {
    POST: [names('x', 3200), names('\u0001\ud800', 270)],
    'X-Data': [names('x', 1800), names('\u0001\ud800', 150)]
  }
  for (const language of LANGUAGES) {
    for (const form of ['POST', 'X-Data'] as const) {
      // The second: control characters and lone surrogates take 6 bytes each once JSON-escaped
      for (const body of bodies[form]) {
        const entries = checkBounded(t, await send(app, 'password', body, form, { 'x-language': language }))
        t.equal(entries.length, MAX_FIELD_PROBLEMS)
      }
    }
  }
  t.ok(bodies.POST.every((body) => body.length <= 65_536) && bodies['X-Data'].every((body) => xDataOf(body).length <= X_DATA_MAX_LENGTH), 'every body within its limit')
  const entries = checkBounded(t, await send(app, 'password', bodies.POST[0] as string, 'POST'))
  t.same(entries[0], [`#/a${'x'.repeat(MAX_ECHOED_NAME - 1)}…`, 'UNKNOWN_FIELD'])
  // Fewer than 20 go through AJV: cut the same way, and two names alike in their first 32
  // characters stay two problems
  const twins = JSON.stringify({ ['y'.repeat(40) + '1']: 0, ['y'.repeat(40) + '2']: 0 })
  t.same(checkBounded(t, await send(app, 'password', twins, 'POST')), [[`#/${'y'.repeat(MAX_ECHOED_NAME)}…`, 'UNKNOWN_FIELD'], [`#/${'y'.repeat(MAX_ECHOED_NAME)}…`, 'UNKNOWN_FIELD']])
  // A surrogate pair is never cut in half
  const pair = JSON.stringify({ ['z'.repeat(MAX_ECHOED_NAME - 1) + '😀x']: 0 })
  t.same(checkBounded(t, await send(app, 'password', pair, 'POST')), [[`#/${'z'.repeat(MAX_ECHOED_NAME - 1)}…`, 'UNKNOWN_FIELD']])
})

t.test('exactly 20 problems are all answered; of 21, the first 20', async (t) => {
  const app = await build(t)
  const unknown = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`x${i}`, 0]))
  const pointers = (count: number) => Array.from({ length: count }, (_, i) => [`#/x${i}`, 'UNKNOWN_FIELD'])
  for (const form of ['POST', 'X-Data'] as const) {
    // Through AJV: unknown fields first, then the parameters in schema order
    t.same(checkBounded(t, await send(app, 'number', JSON.stringify({ quantity: 0, min: 'x', ...unknown(18) }), form)),
      [...pointers(18), ['#/min', 'TYPE'], ['#/quantity', 'OUT_OF_RANGE']], `20 problems (${form})`)
    t.same(checkBounded(t, await send(app, 'number', JSON.stringify({ quantity: 0, min: 'x', ...unknown(19) }), form)),
      [...pointers(19), ['#/min', 'TYPE']], `21 problems (${form})`)
    // Before AJV: 20 unknown fields are the first 20 whatever follows
    t.same(checkBounded(t, await send(app, 'number', JSON.stringify({ min: 'x', ...unknown(20) }), form)), pointers(20), `20 unknown and more (${form})`)
    t.same(checkBounded(t, await send(app, 'number', JSON.stringify(unknown(21)), form)), pointers(20), `21 unknown (${form})`)
    // Array items, within the limit: each bad one is a problem
    const items = (count: number) => JSON.stringify({ exclusions: Array(count).fill({}) })
    const itemPointers = (count: number) => Array.from({ length: count }, (_, i) => [`#/exclusions/${i}`, 'TYPE'])
    t.same(checkBounded(t, await send(app, 'number', items(20), form)), itemPointers(20), `20 bad items (${form})`)
    t.same(checkBounded(t, await send(app, 'number', items(21), form)), itemPointers(20), `21 bad items (${form})`)
    t.same(checkBounded(t, await send(app, 'number', items(1000), form)), itemPointers(20), `1000 bad items (${form})`)
  }
})

t.test('no work for entries not reported: only 20 are localized', async (t) => {
  const fields = catalogs.en.fields as Record<string, (...args: any[]) => string>
  const original = fields.OUT_OF_RANGE as (...args: any[]) => string
  let calls = 0
  fields.OUT_OF_RANGE = (...args) => {
    calls++
    return original(...args)
  }
  t.teardown(() => { fields.OUT_OF_RANGE = original })
  const problems: FieldProblem[] = Array.from({ length: 500 }, (_, i) => ({ pointer: `#/p${i}`, code: 'OUT_OF_RANGE', args: { min: 0, max: 1 } }))
  const document = validationProblem('en', problems)
  t.equal(calls, MAX_FIELD_PROBLEMS)
  t.same(document.errors?.map((error) => error.pointer), problems.slice(0, MAX_FIELD_PROBLEMS).map((problem) => problem.pointer))
  t.equal(document.detail, document.errors?.[0]?.detail)
})

/** An AJV error whose location may be read, but whose params and schema must not be (past the cap). */
function untouchable (keyword: string, instancePath: string): AjvError {
  return {
    keyword,
    instancePath,
    get params (): Record<string, unknown> { throw new Error(`params of ${keyword} at ${instancePath} read`) },
    get parentSchema (): Record<string, unknown> { throw new Error(`parentSchema of ${keyword} at ${instancePath} read`) }
  }
}

t.test('fieldErrorsFromAjv: 20 parameters kept, the rest only scanned for a TYPE of a kept one', async (t) => {
  const kept: AjvError[] = Array.from({ length: MAX_FIELD_PROBLEMS }, (_, i) => ({ keyword: 'enum', instancePath: `/p${i}`, params: { allowedValues: [1] } }))
  const rest = [...Array.from({ length: 5000 }, (_, i) => untouchable(i % 2 === 0 ? 'minimum' : 'additionalProperties', `/q${i}`)), untouchable('type', '/q1')]
  const problems = fieldErrorsFromAjv([...kept, ...rest])
  t.same(problems.map((problem) => problem.pointer), kept.map((error) => `#${error.instancePath}`))
  // AJV reports enum before the type of the same value: a TYPE found past the cap still wins
  const late = fieldErrorsFromAjv([...kept, ...rest, { keyword: 'type', instancePath: '/p19', params: { type: 'integer' } }])
  t.same(late[MAX_FIELD_PROBLEMS - 1], { pointer: '#/p19', code: 'TYPE', args: { expected: 'integer' } })
  t.same(late.slice(0, -1), problems.slice(0, -1))
})

t.test('fieldErrorsFromAjv: a TYPE AJV reports after the 20th parameter still wins', async (t) => {
  // A string enum with a string keyword: AJV runs enum (untyped) before the type check, so
  // `"w": 7` is reported enum first. As the 20th parameter, its TYPE comes past the cap
  const ajvOptions = serverOptions(loadConfig({ LOG_LEVEL: 'silent' })).ajv as { customOptions: Record<string, unknown> }
  const validate = new Ajv({ ...ajvOptions.customOptions, strict: false }).compile({
    type: 'object',
    properties: {
      ...Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`p${i}`, { type: 'integer' }])),
      w: { type: 'string', enum: ['ab'], maxLength: 4 },
      z: { type: 'integer' }
    }
  })
  validate({ ...Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`p${i}`, 'x'])), w: 7, z: 'x' })
  const errors = validate.errors as AjvError[]
  t.same(errors.slice(19, 21).map((error) => error.keyword), ['enum', 'type'], 'AJV: enum, then type')
  const problems = fieldErrorsFromAjv(errors)
  t.equal(problems.length, MAX_FIELD_PROBLEMS)
  t.same(problems[MAX_FIELD_PROBLEMS - 1], { pointer: '#/w', code: 'TYPE', args: { expected: 'string' } })
})

t.test('fieldErrorsFromAjv: the capped answer is the first 20 of the uncapped one', async (t) => {
  const error = fc.record({
    keyword: fc.constantFrom('type', 'enum', 'minimum', 'maxLength', 'additionalProperties', 'pattern'),
    instancePath: fc.constantFrom('', ...Array.from({ length: 30 }, (_, i) => `/p${i}`)),
    params: fc.record({ type: fc.constant('integer'), allowedValues: fc.constant([1]), additionalProperty: fc.constantFrom('a', 'b', 'p3', 'x'.repeat(40)) }),
    parentSchema: fc.constant({ minimum: 1, maximum: 2, maxLength: 3 })
  })
  fc.assert(fc.property(fc.array(error, { maxLength: 200 }), (errors) => {
    const capped = fieldErrorsFromAjv(errors)
    return capped.length <= MAX_FIELD_PROBLEMS && JSON.stringify(capped) === JSON.stringify(fieldErrorsFromAjv(errors, Infinity).slice(0, MAX_FIELD_PROBLEMS))
  }), { numRuns: 2000 })
  t.pass('2,000 error lists')
})
