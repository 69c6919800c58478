import t from 'tap'
import { Type } from '@sinclair/typebox'
import { GenerationResult, IntegerEnum, Params, Quantity, StringEnum } from '../../schemas/common.js'

t.test('Quantity: 1..50, default 1', async (t) => {
  t.match(Quantity, { type: 'integer', minimum: 1, maximum: 50, default: 1 })
})

t.test('Params: closed objects whose every field has a default', async (t) => {
  const params = Params('XParams', { a: Type.Integer({ default: 1 }) })
  t.match(params, { $id: 'XParams', type: 'object', additionalProperties: false })
  t.throws(() => Params('YParams', { a: Type.Integer({ default: 1 }), b: Type.Integer() }), { message: 'YParams.b needs a default or Optional: every parameter is optional' })
})

t.test('enums and result', async (t) => {
  t.same(JSON.parse(JSON.stringify(StringEnum(['a', 'b'], { default: 'a' }))), { default: 'a', type: 'string', enum: ['a', 'b'] })
  t.same(JSON.parse(JSON.stringify(IntegerEnum([1, 2]))), { type: 'integer', enum: [1, 2] })
  const result = GenerationResult('ZResult', 'z')
  t.same(result.required, ['type', 'values', 'entropyBits', 'generatedAt'])
  t.match(result, { $id: 'ZResult', additionalProperties: false })
  t.notOk('publicKeys' in result.properties, 'no publicKeys unless the generator makes key pairs')
  const keyPairs = GenerationResult('KResult', 'k', { keyPairs: true })
  t.same(keyPairs.required, ['type', 'values', 'entropyBits', 'generatedAt'], 'publicKeys is optional')
  t.match(keyPairs.properties.publicKeys, { type: 'array', items: { type: 'string' } })
})
