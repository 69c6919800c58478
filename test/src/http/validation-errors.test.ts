import t from 'tap'
import { expectedTypes, fieldErrorsFromAjv, KEYWORD_CODES } from '../../../src/http/validation-errors.js'

t.test('keyword codes', async (t) => {
  t.same(KEYWORD_CODES, {
    type: 'TYPE',
    minimum: 'OUT_OF_RANGE',
    maximum: 'OUT_OF_RANGE',
    enum: 'NOT_ALLOWED_VALUE',
    minLength: 'TOO_SHORT',
    maxLength: 'TOO_LONG',
    maxItems: 'TOO_MANY_ITEMS',
    additionalProperties: 'UNKNOWN_FIELD',
    required: 'REQUIRED',
    minItems: 'TOO_SHORT',
    pattern: 'NOT_AN_INTEGER'
  })
})

t.test('fieldErrorsFromAjv: a set\'s missing fields, empty items and item types (CONTRACT §10)', async (t) => {
  const item = { properties: { type: { enum: ['password', 'vpn'] } } }
  t.same(fieldErrorsFromAjv([
    { keyword: 'required', instancePath: '', params: { missingProperty: 'items' } },
    { keyword: 'minItems', instancePath: '/list', params: {}, parentSchema: { minItems: 1 } },
    { keyword: 'discriminator', instancePath: '/items/0', params: { error: 'tag', tag: 'type', tagValue: undefined }, parentSchema: item },
    { keyword: 'discriminator', instancePath: '/items/1', params: { error: 'tag', tag: 'type', tagValue: 7 }, parentSchema: item },
    { keyword: 'discriminator', instancePath: '/items/2', params: { error: 'mapping', tag: 'type', tagValue: 'nope' }, parentSchema: item },
    { keyword: 'discriminator', instancePath: '/items/3', params: { error: 'mapping', tag: 'type', tagValue: 'nope' } }
  ]), [
    { pointer: '#/items', code: 'REQUIRED', args: {} },
    { pointer: '#/list', code: 'TOO_SHORT', message: 'TOO_FEW_ITEMS', args: { min: 1 } },
    { pointer: '#/items/0/type', code: 'REQUIRED', args: {} },
    { pointer: '#/items/1/type', code: 'TYPE', args: { expected: 'string' } },
    { pointer: '#/items/2/type', code: 'NOT_ALLOWED_VALUE', args: { allowed: '"password", "vpn"' } },
    { pointer: '#/items/3/type', code: 'NOT_ALLOWED_VALUE', args: { allowed: '' } }
  ])
})

t.test('fieldErrorsFromAjv: pointers, codes, bounds', async (t) => {
  t.same(fieldErrorsFromAjv([
    { keyword: 'minimum', instancePath: '/length', params: {}, parentSchema: { minimum: 6, maximum: 128 } },
    { keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'a/b~c' } },
    { keyword: 'enum', instancePath: '/words', params: { allowedValues: [12, 15] } },
    { keyword: 'minLength', instancePath: '/separator', params: {}, parentSchema: { minLength: 1 } },
    { keyword: 'maxLength', instancePath: '/x', params: {}, parentSchema: { maxLength: 4 } },
    { keyword: 'maxItems', instancePath: '/exclusions', params: {}, parentSchema: { maxItems: 1000 } },
    { keyword: 'pattern', instancePath: '/exclusions/3', params: {} },
    { keyword: 'type', instancePath: '/exclusions/4', params: { type: ['string', 'integer'] } },
    { keyword: 'type', instancePath: '/quantity', params: { type: 'integer' } }
  ]), [
    { pointer: '#/length', code: 'OUT_OF_RANGE', args: { min: 6, max: 128 } },
    { pointer: '#/a~1b~0c', code: 'UNKNOWN_FIELD', args: {} },
    { pointer: '#/words', code: 'NOT_ALLOWED_VALUE', args: { allowed: '12, 15' } },
    { pointer: '#/separator', code: 'TOO_SHORT', args: { min: 1 } },
    { pointer: '#/x', code: 'TOO_LONG', args: { max: 4 } },
    { pointer: '#/exclusions', code: 'TOO_MANY_ITEMS', args: { max: 1000 } },
    { pointer: '#/exclusions/3', code: 'NOT_AN_INTEGER', args: {} },
    { pointer: '#/exclusions/4', code: 'TYPE', args: { expected: 'string|integer' } },
    { pointer: '#/quantity', code: 'TYPE', args: { expected: 'integer' } }
  ])
})

t.test('fieldErrorsFromAjv: the password minimums, whose lower bound is 0', async (t) => {
  const minimum = { type: 'integer', minimum: 0, maximum: 128 }
  t.same(fieldErrorsFromAjv([
    { keyword: 'minimum', instancePath: '/minUppercase', params: { limit: 0 }, parentSchema: minimum },
    { keyword: 'maximum', instancePath: '/minSymbols', params: { limit: 128 }, parentSchema: minimum },
    { keyword: 'type', instancePath: '/minNumbers', params: { type: 'integer' }, parentSchema: minimum },
    { keyword: 'type', instancePath: '/avoidAmbiguous', params: { type: 'boolean' } }
  ]), [
    // A bound of 0 is kept, not taken for a missing one
    { pointer: '#/minUppercase', code: 'OUT_OF_RANGE', args: { min: 0, max: 128 } },
    { pointer: '#/minSymbols', code: 'OUT_OF_RANGE', args: { min: 0, max: 128 } },
    { pointer: '#/minNumbers', code: 'TYPE', args: { expected: 'integer' } },
    { pointer: '#/avoidAmbiguous', code: 'TYPE', args: { expected: 'boolean' } }
  ])
})

t.test('fieldErrorsFromAjv: one problem per pointer, TYPE wins', async (t) => {
  t.same(fieldErrorsFromAjv([
    { keyword: 'enum', instancePath: '/words', params: { allowedValues: [12] } },
    { keyword: 'type', instancePath: '/words', params: { type: 'integer' } },
    { keyword: 'enum', instancePath: '/words', params: { allowedValues: [12] } }
  ]), [{ pointer: '#/words', code: 'TYPE', args: { expected: 'integer' } }])
  t.same(fieldErrorsFromAjv([
    { keyword: 'minimum', instancePath: '/n', params: {}, parentSchema: { minimum: 1, maximum: 2 } },
    { keyword: 'maximum', instancePath: '/n', params: {}, parentSchema: { minimum: 1, maximum: 2 } }
  ]), [{ pointer: '#/n', code: 'OUT_OF_RANGE', args: { min: 1, max: 2 } }], 'the first non-TYPE problem stays')
  // A keyword our schemas do not use still gets a stable code, never AJV's text
  t.same(fieldErrorsFromAjv([{ keyword: 'const', instancePath: '/x', params: {} }]),
    [{ pointer: '#/x', code: 'NOT_ALLOWED_VALUE', args: {} }])
  t.same(fieldErrorsFromAjv([{ keyword: 'minimum', instancePath: '', params: {} }]),
    [{ pointer: '#', code: 'OUT_OF_RANGE', args: { min: undefined, max: undefined } }], 'no parentSchema')
})

t.test('expectedTypes', async (t) => {
  t.same(expectedTypes('string|integer'), ['string', 'integer'])
  t.same(expectedTypes('boolean'), ['boolean'])
})
