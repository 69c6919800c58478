import t from 'tap'
import { isoNow } from '../../../src/http/clock.js'
import { ISO_MILLIS } from '../../helper.js'

t.test('isoNow is the current millisecond in ISO 8601 UTC', async (t) => {
  const before = Date.now()
  const now = isoNow()
  const after = Date.now()
  t.match(now, ISO_MILLIS)
  t.ok(Date.parse(now) >= before && Date.parse(now) <= after, `${now} within [${before}, ${after}]`)
})

t.test('one string per millisecond, a new one when the millisecond changes', async (t) => {
  const realNow = Date.now
  t.teardown(() => { Date.now = realNow })
  let clock = Date.UTC(2026, 10, 23, 10, 15, 30, 123)
  Date.now = () => clock
  t.equal(isoNow(), '2026-11-23T10:15:30.123Z')
  t.equal(isoNow(), '2026-11-23T10:15:30.123Z')
  clock += 1
  t.equal(isoNow(), '2026-11-23T10:15:30.124Z')
  clock += 86_400_000
  t.equal(isoNow(), '2026-11-24T10:15:30.124Z')
})
