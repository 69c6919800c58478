import t from 'tap'
import fc from 'fast-check'
import { COMPACT_ALPHABETS, generateUuids } from '../../plugins/uuid.js'
import { build, get, post } from '../helper.js'

// RFC 9562: version nibble 4, variant bits 10xx (8, 9, a or b), lowercase
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const COMPACT = { numeric: '0-9', alpha: 'A-Za-z', alphanumeric: 'A-Za-z0-9' } as const

t.test('compact alphabets', async (t) => {
  t.equal(COMPACT_ALPHABETS.numeric, '0123456789')
  t.equal(COMPACT_ALPHABETS.alpha, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
  t.equal(COMPACT_ALPHABETS.alphanumeric, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')
})

t.test('generateUuids: property: format, length, alphabet', async (t) => {
  fc.assert(fc.property(
    fc.constantFrom('standard', 'numeric', 'alpha', 'alphanumeric'),
    fc.integer({ min: 2, max: 256 }),
    fc.integer({ min: 1, max: 50 }),
    (format, length, quantity) => {
      const values = generateUuids({ format, length, quantity })
      const shape = format === 'standard' ? UUID_V4 : new RegExp(`^[${COMPACT[format]}]{${length}}$`)
      return values.length === quantity && values.every((value) => shape.test(value))
    }
  ), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: one UUID v4', async (t) => {
    const response = await post(app, 'uuid', {})
    t.match(response.json().values[0], UUID_V4)
  })

  t.test('standard ignores length', async (t) => {
    for (const length of [2, 256]) {
      const response = await get(app, 'uuid', { format: 'standard', length, quantity: 50 })
      const values = response.json().values
      for (const value of values) t.match(value, UUID_V4)
      t.equal(new Set(values).size, 50, 'distinct')
    }
  })

  t.test('compact formats: alphabet and length', async (t) => {
    for (const format of ['numeric', 'alpha', 'alphanumeric'] as const) {
      for (const length of [2, 32, 256]) {
        const response = await post(app, 'uuid', { format, length, quantity: 5 })
        for (const value of response.json().values) t.match(value, new RegExp(`^[${COMPACT[format]}]{${length}}$`), `${format} ${length}`)
      }
    }
    const response = await get(app, 'uuid', { format: 'alphanumeric' })
    t.equal(response.json().values[0].length, 32, 'default length 32')
  })
})
