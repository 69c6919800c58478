// Generator parameters are optional for clients because each has a default (CONTRACT §2).
import t from 'tap'
import { Type } from '@sinclair/typebox'
import { Params, Quantity } from '../../schemas/common.js'

t.test('a parameters schema lists no required fields and rejects unknown ones', async (t) => {
  const schema = Params('ExampleParams', { quantity: Quantity })
  t.equal(schema.required, undefined)
  t.equal(schema.additionalProperties, false)
  t.equal(schema.$id, 'ExampleParams')
})

t.test('a parameter without a default is a programming error', async (t) => {
  t.throws(() => Params('BrokenParams', { length: Type.Integer() }), /BrokenParams\.length needs a default/)
})
