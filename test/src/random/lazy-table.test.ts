// src/random/lazy-table.ts: an entry is built on its first read, once, and a failed build keeps nothing.
import t from 'tap'
import { lazyTable } from '../../../src/random/lazy-table.js'

const KEYS = ['a', 'b', 'c'] as const

t.test('nothing is built until read; each entry once, whatever the number of reads', async (t) => {
  const calls: string[] = []
  const table = lazyTable(KEYS, (key) => { calls.push(key); return { key } })
  t.same(calls, [], 'nothing built by making the table')
  const first = table.b
  t.same(calls, ['b'], 'only the entry read')
  t.equal(table.b, first, 'the same value on a later read')
  t.same(calls, ['b'], 'not built again')
  t.same(Object.keys(table), ['a', 'b', 'c'], 'every key listed, in order')
  t.same(Object.fromEntries(Object.entries(table)), { a: { key: 'a' }, b: { key: 'b' }, c: { key: 'c' } })
  t.same(calls, ['b', 'a', 'c'], 'each built once in all')
})

t.test('frozen: entries can be neither replaced nor added', async (t) => {
  const table = lazyTable(KEYS, (key) => key.toUpperCase())
  t.ok(Object.isFrozen(table))
  t.throws(() => { (table as Record<string, string>).a = 'x' }, TypeError)
  t.throws(() => { (table as Record<string, string>).d = 'x' }, TypeError)
  t.equal(table.a, 'A')
})

t.test('a build that throws reaches the reader and keeps nothing: the next read builds again', async (t) => {
  let fail = true
  let calls = 0
  const table = lazyTable(KEYS, (key) => {
    calls++
    if (fail) throw new Error(`no ${key}`)
    return key
  })
  t.throws(() => table.a, { message: 'no a' })
  t.throws(() => table.a, { message: 'no a' }, 'tried again, not a remembered failure')
  fail = false
  t.equal(table.a, 'a')
  t.equal(table.a, 'a')
  t.equal(calls, 3, 'two failed builds, one that worked, then none')
})

t.test('an entry whose value is undefined is still built only once', async (t) => {
  let calls = 0
  const table = lazyTable(KEYS, () => { calls++ })
  t.equal(table.c, undefined)
  t.equal(table.c, undefined)
  t.equal(calls, 1)
})
