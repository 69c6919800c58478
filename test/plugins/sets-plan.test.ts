// plugins/sets.ts planSet on its own: what it does with a generator's check that fails otherwise
// than with a ParameterError (a bug: never a problem document that blames the client).
import t from 'tap'
import { Type } from '@sinclair/typebox'
import { planSet } from '../../plugins/sets.js'
import type { GeneratorDefinition } from '../../src/http/generator-route.js'

t.test('planSet: an unexpected error of a check is thrown as it is', async (t) => {
  const broken = {
    type: 'broken',
    name: 'Broken',
    summary: '',
    description: '',
    params: Type.Object({}),
    result: Type.Object({}),
    generate: () => ({ values: [], entropyBits: 0 }),
    check: () => { throw new TypeError('bug') }
  } as unknown as GeneratorDefinition<ReturnType<typeof Type.Object>>
  t.throws(() => planSet([{ name: 'A', type: 'broken', params: {} }], [], new Map([['broken', broken]]), false), TypeError)
})
