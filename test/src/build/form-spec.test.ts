// Issue 25 item 2: the page's controls come from the route schemas. Each generator's controls are
// held to openapi.json, the document clients and reviewers read (every parameter, same bounds,
// choices and defaults), so a new or changed parameter cannot be missed by the page.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { Type } from '@sinclair/typebox'
import { formSpec, paramSpec } from '../../../src/build/form-spec.js'
import { GENERATORS } from '../../helper.js'

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
      t.same(param.default, schema.default, `${name}: default`)
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

t.test('quantity goes up to 50 on every generator', async (t) => {
  for (const { type, params } of formSpec()) t.match(params.find((param) => param.name === 'quantity'), { kind: 'integer', minimum: 1, maximum: 50, default: 1 }, type)
})

t.test('a parameter the page has no control for stops the page\'s build', async (t) => {
  t.throws(() => paramSpec('when', Type.Null({ default: null })), /when: no page control for a schema of type "null"/)
})
