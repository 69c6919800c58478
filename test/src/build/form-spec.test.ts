// Issue 25 item 2: the page's controls come from the route schemas. Each generator's controls are
// held to openapi.json, the document clients and reviewers read (every parameter, same bounds,
// choices and defaults), so a new or changed parameter cannot be missed by the page.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { Type } from '@sinclair/typebox'
import { formSpec, paramSpec, setFormSpec } from '../../../src/build/form-spec.js'
import { DEFAULT_MODULUS_BITS, SIGNING_ALGORITHMS, SIGNING_KEY_FORMATS } from '../../../schemas/signing-key.js'
import { SEQ_ENCODINGS } from '../../../schemas/seq.js'
import { build, GENERATORS } from '../../helper.js'

/** Optional parameters without a schema default: the value their route takes when they are left out (said in their description). */
const LEFT_OUT: Record<string, Record<string, unknown>> = { 'signing-key': { modulusBits: DEFAULT_MODULUS_BITS } }

const openapi = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'))

/** A schema of openapi.json, its `$ref` (if any) followed. */
function resolved (schema: any): any {
  return typeof schema?.$ref === 'string' ? openapi.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema
}

function documentedParams (type: string): Record<string, any> {
  const ref: string = openapi.paths[`/api/generate/${type}`].post.requestBody.content['application/json'].schema.$ref
  return openapi.components.schemas[ref.replace('#/components/schemas/', '')].properties
}

t.test('the page lists every generator of CONTRACT §1, in its order', async (t) => {
  t.same(formSpec().map((generator) => generator.type), GENERATORS)
})

t.test('each generator\'s controls carry openapi.json\'s parameters, bounds, choices and defaults', async (t) => {
  for (const { type, params } of formSpec()) {
    const documented = documentedParams(type)
    t.same(params.map((param) => param.name), Object.keys(documented), `${type}: every parameter, in the document's order`)
    for (const param of params) {
      const schema = documented[param.name]
      const name = `${type}.${param.name}`
      const leftOut = LEFT_OUT[type]?.[param.name]
      if (schema.default === undefined && leftOut !== undefined) {
        t.ok(schema.description.includes(`${leftOut} when left out`), `${name}: no default in the schema; its description says ${leftOut} when left out`)
        t.same(param.default, leftOut, `${name}: shown at the value taken when left out`)
      } else t.same(param.default, schema.default, `${name}: default`)
      switch (param.kind) {
        case 'integer':
          t.equal(schema.type, 'integer', `${name}: an integer`)
          t.equal(param.minimum, schema.minimum, `${name}: minimum`)
          t.equal(param.maximum, schema.maximum, `${name}: maximum`)
          break
        case 'boolean':
          t.equal(schema.type, 'boolean', `${name}: a boolean`)
          break
        case 'choice':
          t.same(param.choices, schema.enum, `${name}: choices`)
          break
        case 'string':
          t.equal(schema.type, 'string', `${name}: a string`)
          t.equal(param.maxLength, schema.maxLength, `${name}: maxLength`)
          t.equal(param.minLength ?? 0, schema.minLength ?? 0, `${name}: minLength`)
          break
        case 'list':
          t.equal(schema.type, 'array', `${name}: a list`)
          t.equal(param.maxItems, schema.maxItems, `${name}: maxItems`)
          break
        case 'hash': {
          // CONTRACT §12: a choice by `algorithm` between named schemas, each with its fields
          const branches: any[] = resolved(schema).oneOf.map(resolved)
          const literal = (branch: any) => branch.properties.algorithm.const ?? branch.properties.algorithm.enum?.[0]
          t.same(param.algorithms.map(({ algorithm }) => algorithm), branches.map(literal), `${name}: the algorithms, in the document's order`)
          for (const { algorithm, fields } of param.algorithms) {
            const branch = branches.find((candidate) => literal(candidate) === algorithm)
            const documentedFields = Object.entries<any>(branch?.properties ?? {}).filter(([field]) => field !== 'algorithm')
            t.same(fields.map((field) => field.name), documentedFields.map(([field]) => field), `${name}.${algorithm}: its fields`)
            for (const [field, fieldSchema] of documentedFields) {
              t.match(fields.find((candidate) => candidate.name === field), { kind: 'integer', minimum: fieldSchema.minimum, maximum: fieldSchema.maximum, default: fieldSchema.default }, `${name}.${algorithm}.${field}: bounds and default`)
            }
          }
          break
        }
      }
    }
  }
})

t.test('each generator says whether its answer has hashes and public keys, as openapi.json\'s result says (the set row\'s hashName and publicKeyName)', async (t) => {
  for (const { type, hashes, publicKeys } of formSpec()) {
    const ref: string = openapi.paths[`/api/generate/${type}`].post.responses['200'].content['application/json'].schema.$ref
    const result = openapi.components.schemas[ref.replace('#/components/schemas/', '')].properties
    t.equal(hashes === true, result.hashes !== undefined, `${type}: hashes`)
    t.equal(publicKeys === true, result.publicKeys !== undefined, `${type}: publicKeys`)
  }
  t.ok(formSpec().find(({ type }) => type === 'token')?.hashes, 'a token has hashes')
  t.ok(formSpec().find(({ type }) => type === 'vpn')?.publicKeys, 'a vpn key pair has public keys')
})

t.test('a set\'s jwt row carries openapi.json\'s JwtParams: its parameters, bounds and choices; the names\' bound is SetItemName\'s', async (t) => {
  const { jwt, nameMaxLength, recipeGroups } = setFormSpec()
  t.equal(nameMaxLength, openapi.components.schemas.SetItemName.maxLength)
  t.same(recipeGroups, ['apps', 'vpn', 'keys'], 'the recipes\' groups, in the schema\'s order')
  t.same(recipeGroups, openapi.components.schemas.RecipeSummary.properties.group.anyOf.map((literal: any) => literal.const ?? literal.enum?.[0]))
  t.equal(jwt.type, 'jwt')
  const documented = openapi.components.schemas.JwtParams.properties
  t.same(jwt.params.map(({ name }) => name), Object.keys(documented), 'every parameter, in the document\'s order')
  const [signedWith, algorithm, claims, expiresInDays] = jwt.params
  t.match(signedWith, { kind: 'string', default: '', minLength: documented.signedWith.minLength, maxLength: documented.signedWith.maxLength }, 'signedWith: a text, empty at first (required: the API says so when it is not sent)')
  t.match(algorithm, { kind: 'choice', default: '', choices: ['', ...documented.algorithm.enum] }, 'algorithm: "the default" (not sent), then the enum')
  t.equal(documented.algorithm.default, undefined, 'the schema has no default algorithm: it depends on the key')
  t.match(claims, { kind: 'json', default: documented.claims.default }, 'claims: JSON text')
  t.match(expiresInDays, { kind: 'integer', minimum: documented.expiresInDays.minimum, maximum: documented.expiresInDays.maximum }, 'expiresInDays: the bounds')
  t.equal(expiresInDays?.default, undefined, 'no default: empty, no exp')
})

t.test('quantity goes up to 50 on every generator', async (t) => {
  for (const { type, params } of formSpec()) t.match(params.find((param) => param.name === 'quantity'), { kind: 'integer', minimum: 1, maximum: 50, default: 1 }, type)
})

t.test('a parameter the page has no control for stops the page\'s build', async (t) => {
  t.throws(() => paramSpec('when', Type.Null({ default: null })), /when: no page control for a schema of type "null"/)
})

t.test('signing-key: the page offers exactly what the route takes (CONTRACT §13), asked of the route itself', async (t) => {
  const app = await build(t)
  const spec = formSpec().find(({ type }) => type === 'signing-key')
  const modulusBits = spec?.params.find(({ name }) => name === 'modulusBits')
  const format = spec?.params.find(({ name }) => name === 'format')
  if (modulusBits?.kind !== 'choice' || format?.kind !== 'choice') return t.fail('modulusBits and format are choices')
  const answer = async (body: Record<string, unknown>) => await app.inject({ method: 'POST', url: '/api/generate/signing-key', payload: body })
  for (const algorithm of SIGNING_ALGORITHMS) {
    // 2048, the value taken when left out, so an RSA key costs what it costs anyway
    const withBits = await answer({ algorithm, modulusBits: 2048 })
    const rsa = modulusBits.appliesWith?.values.includes(algorithm) === true
    t.equal(modulusBits.appliesWith?.param, 'algorithm')
    t.equal(withBits.statusCode, rsa ? 200 : 400, `${algorithm}: modulusBits ${rsa ? 'shown and taken' : 'hidden, as the route refuses it'}`)
    if (!rsa) t.match(withBits.json().errors, [{ pointer: '#/modulusBits', code: 'NOT_ALLOWED_VALUE' }])
    const offered = format.choicesWith?.choices[algorithm] ?? []
    t.equal(format.choicesWith?.param, 'algorithm')
    for (const candidate of SIGNING_KEY_FORMATS) {
      const response = await answer({ algorithm, format: candidate })
      t.equal(response.statusCode, offered.includes(candidate) ? 200 : 400, `${algorithm}: format ${candidate} ${offered.includes(candidate) ? 'offered and taken' : 'not offered, as the route refuses it'}`)
    }
  }
  t.same(format.choicesWith?.choices.HS256, ['jwk'], 'an HMAC key: JWK only')
  t.same(format.choicesWith?.choices.ES256, ['jwk', 'pem', 'vapid'], 'ES256: JWK, PEM and VAPID')
  t.same(format.choicesWith?.choices.EdDSA, ['jwk', 'pem', 'synapse'], 'EdDSA: JWK, PEM and Synapse')
})

t.test('seq: padding is offered where the route takes it, at the default the route pads by when it is left out (CONTRACT §14.2)', async (t) => {
  const app = await build(t)
  const padding = formSpec().find(({ type }) => type === 'seq')?.params.find(({ name }) => name === 'padding')
  if (padding?.kind !== 'boolean') return t.fail('padding is a checkbox')
  t.equal(padding.default, undefined, 'no default of its own (the schema has none)')
  t.same([padding.appliesWith?.param, padding.defaultWith?.param], ['encoding', 'encoding'])
  const answer = async (body: Record<string, unknown>) => await app.inject({ method: 'POST', url: '/api/generate/seq', payload: { byteLength: 32, ...body } })
  for (const encoding of SEQ_ENCODINGS) {
    const shown = padding.appliesWith?.values.includes(encoding) === true
    for (const given of [true, false]) {
      t.equal((await answer({ encoding, padding: given })).statusCode, shown ? 200 : 400, `${encoding}: padding ${String(given)} ${shown ? 'shown and taken' : 'hidden, as the route refuses it'}`)
    }
    if (!shown) continue
    const leftOut = (await answer({ encoding })).json().values[0] as string
    const byDefault = padding.defaultWith?.defaults[encoding]
    t.equal(typeof byDefault, 'boolean', `${encoding}: a default to show`)
    t.equal(leftOut.endsWith('='), byDefault, `${encoding}: left out, the route pads exactly when the page shows the box ticked (${String(byDefault)})`)
  }
})
