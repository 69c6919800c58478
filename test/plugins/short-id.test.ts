import t from 'tap'
import fc from 'fast-check'
import { generateShortIds } from '../../plugins/short-id.js'
import { build, get, post } from '../helper.js'

t.test('generateShortIds: property: length lowercase hex characters, odd lengths included', async (t) => {
  fc.assert(fc.property(fc.integer({ min: 2, max: 256 }), fc.integer({ min: 1, max: 50 }), (length, quantity) => {
    const values = generateShortIds({ length, quantity })
    const shape = new RegExp(`^[0-9a-f]{${length}}$`)
    return values.length === quantity && values.every((value) => shape.test(value))
  }), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('HTTP', async (t) => {
  const app = await build(t)
  const response = await post(app, 'short-id', {})
  t.match(response.json().values[0], /^[0-9a-f]{8}$/, 'default length 8')
  for (const length of [2, 3, 255, 256]) {
    const values = (await get(app, 'short-id', { length, quantity: 10 })).json().values
    for (const value of values) t.match(value, new RegExp(`^[0-9a-f]{${length}}$`))
  }
})
