import t from 'tap'
import { randomBelow, randomString } from '../../src/random.js'

t.test('randomString draws from the alphabet', async (t) => {
  t.match(randomString('ab', 10), /^[ab]{10}$/)
})
t.test('randomBelow', async (t) => {
  t.ok(randomBelow(10n) < 10n)
})
