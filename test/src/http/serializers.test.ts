import t from 'tap'
import { sharedSerializerFactory } from '../../../src/http/serializers.js'
import { build, get, post } from '../../helper.js'

const external = {
  Result: { $id: 'Result', type: 'object', properties: { values: { type: 'array', items: { type: 'string' } } } }
}
const route = (method: string, schema: unknown) => ({ method, url: '/api/generate/x', httpStatus: '200', schema })

t.test('routes with the same response schema share one serializer', async (t) => {
  const factory = sharedSerializerFactory()
  // Fastify asks the factory again for each route once schemas were added
  const postSerializer = factory(external)(route('POST', { $ref: 'Result' }))
  t.equal(factory(external)(route('GET', { $ref: 'Result' })), postSerializer)
  t.equal(factory({ ...external })(route('HEAD', { $ref: 'Result' })), postSerializer)
  t.equal(postSerializer({ values: ['a"b'], extra: 1 }), '{"values":["a\\"b"]}', 'fast-json-stringify output: escaped, extra fields dropped')
})

t.test('another response schema, other shared schemas or options: another serializer', async (t) => {
  const factory = sharedSerializerFactory()
  const first = factory(external)(route('POST', { $ref: 'Result' }))
  t.not(factory(external)(route('POST', { type: 'object', properties: { n: { type: 'integer' } } })), first)
  const widened = { Result: { ...external.Result, properties: { ...external.Result.properties, count: { type: 'integer' } } } }
  const other = factory(widened)(route('POST', { $ref: 'Result' }))
  t.not(other, first)
  t.equal(other({ values: [], count: 2 }), '{"values":[],"count":2}')
  t.not(factory(external, { rounding: 'floor' })(route('POST', { $ref: 'Result' })), first)
})

t.test('separate factories (separate apps) share nothing', async (t) => {
  t.not(sharedSerializerFactory()(external)(route('GET', { $ref: 'Result' })), sharedSerializerFactory()(external)(route('GET', { $ref: 'Result' })))
})

t.test('the app serialises each generator\'s POST and GET answers alike through the shared serializer', async (t) => {
  const app = await build(t)
  for (const response of [await post(app, 'seq', { byteLength: 4 }), await get(app, 'seq', { byteLength: 4 })]) {
    t.equal(response.statusCode, 200)
    t.same(Object.keys(response.json()), ['type', 'values', 'entropyBits', 'generatedAt'], 'only the schema\'s fields, in its order')
    t.equal(response.json().entropyBits, 32, '4 bytes: 32 bits, serialised as a number')
  }
  // The text/plain schema of the 200 has a serializer too, but a text answer is sent as it is
  const text = await post(app, 'seq', { byteLength: 4 }, { accept: 'text/plain' })
  t.match(text.body, /^[0-9a-f]{8}\n$/, 'not quoted as a JSON string')
})
