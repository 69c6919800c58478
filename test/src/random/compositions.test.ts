// src/random/compositions.ts against brute force: every string over small sets, counted directly.
import t from 'tap'
import fc from 'fast-check'
import { Compositions, type SetRule } from '../../../src/random/compositions.js'

/** Valid strings of `length` over sets of `sizes` with `minimums`, by walking every string of set labels. */
function bruteForce (length: number, sets: SetRule[]): bigint {
  let total = 0n
  const labels = new Array<number>(length).fill(0)
  for (let code = 0; code < sets.length ** length; code++) {
    let rest = code
    for (let i = 0; i < length; i++) {
      labels[i] = rest % sets.length
      rest = Math.floor(rest / sets.length)
    }
    const counts = sets.map((_, set) => labels.filter((label) => label === set).length)
    if (counts.every((count, set) => count >= (sets[set] as SetRule).minimum)) {
      total += counts.reduce((product, count, set) => product * BigInt((sets[set] as SetRule).size) ** BigInt(count), 1n)
    }
  }
  return total
}

t.test('count: equal to brute force for small lengths and sets', async (t) => {
  fc.assert(fc.property(
    fc.integer({ min: 1, max: 7 }),
    fc.array(fc.record({ size: fc.integer({ min: 1, max: 5 }), minimum: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 4 }),
    (length, sets) => {
      if (sets.reduce((sum, set) => sum + set.minimum, 0) > length) return true
      return new Compositions(length, sets).count === bruteForce(length, sets)
    }
  ), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('draw: every composition meets the minimums and fills the length', async (t) => {
  const sets = [{ size: 26, minimum: 2 }, { size: 10, minimum: 0 }, { size: 28, minimum: 5 }]
  const compositions = new Compositions(12, sets)
  for (let i = 0; i < 500; i++) {
    const drawn = compositions.draw()
    t.equal(drawn.reduce((sum, k) => sum + k, 0), 12)
    if (!drawn.every((k, set) => k >= (sets[set] as SetRule).minimum)) t.fail(`below a minimum: ${drawn.join(',')}`)
  }
  // A single set takes every character
  t.same(new Compositions(9, [{ size: 3, minimum: 9 }]).draw(), [9])
})

t.test('limits', async (t) => {
  t.throws(() => new Compositions(257, [{ size: 2, minimum: 0 }]), RangeError)
  t.throws(() => new Compositions(10, []), RangeError)
  t.equal(new Compositions(256, [{ size: 2, minimum: 0 }]).count, 2n ** 256n)
})
