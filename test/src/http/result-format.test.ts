// Accept negotiation of a generator's answer (CONTRACT §1.2): text/plain only when Accept gives it
// a strictly higher q-value than application/json; every tie, and everything else, is JSON.
import t from 'tap'
import fc from 'fast-check'
import Negotiator from 'negotiator'
import { resultFormat } from '../../../src/http/result-format.js'

const cases: Array<[string | undefined, 'json' | 'text', string]> = [
  [undefined, 'json', 'no Accept'],
  ['', 'json', 'empty'],
  ['*/*', 'json', 'anything: a tie'],
  ['application/json', 'json', 'JSON asked for'],
  ['text/plain', 'text', 'text asked for'],
  ['text/*', 'text', 'any text'],
  ['text/plain;q=0.5, application/json', 'json', 'JSON preferred'],
  ['application/json;q=0.5, text/plain', 'text', 'text preferred'],
  ['text/plain, application/json', 'json', 'tie, text first'],
  ['application/json, text/plain', 'json', 'tie, JSON first'],
  ['text/plain;q=0.7, application/json;q=0.7', 'json', 'tie below 1, text first'],
  ['application/json;q=0.7, text/plain;q=0.7', 'json', 'tie below 1, JSON first'],
  ['text/plain, */*', 'json', '*/* gives JSON the same q'],
  ['*/*, text/plain', 'json', '*/* gives JSON the same q, other order'],
  ['*/*;q=0.1, text/plain', 'text', 'JSON only through a low */*'],
  ['application/*;q=0.2, text/plain;q=0.3', 'text', 'application/* lower than text/plain'],
  ['application/*;q=0.3, text/plain;q=0.2', 'json', 'application/* higher than text/plain'],
  ['application/*;q=0.5, */*', 'text', 'no text range named, but application/* lowers JSON below */*'],
  ['APPLICATION/*;Q=0.5, */*', 'text', 'the same, upper case'],
  ['text/*;q=0.9, application/json;q=0.8', 'text', 'text/* counts for text/plain'],
  ['text/*, text/plain;q=0.1, application/json;q=0.5', 'json', 'text/plain overrides text/*'],
  ['text/plain;q=0', 'json', 'text refused: JSON'],
  ['text/plain;q=0, application/json;q=0', 'json', 'both refused: JSON'],
  ['TEXT/PLAIN', 'text', 'media types are case-insensitive'],
  ['Text/Plain;Q=0.9, Application/JSON;Q=0.1', 'text', 'parameter names too'],
  ['text/plain; charset=utf-8', 'text', 'a charset parameter is still text/plain'],
  ['text/plain; charset=iso-8859-1', 'text', 'any charset: every answer is UTF-8'],
  ['text/plain;format=flowed;q=0.9, application/json;q=0.8', 'text', 'q after other parameters'],
  ['text/plain ; q=0.9 , application/json ; q=0.8', 'text', 'whitespace around separators'],
  ['text/plain;x="a,b;q=0";q=0.9, application/json;q=0.8', 'text', 'a quoted comma and semicolon do not split'],
  ['text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8', 'json', 'a browser: tie through */*'],
  ['image/png', 'json', 'something else entirely'],
  ['application/problem+json', 'json', 'problem+json is not application/json'],
  ['text/html', 'json', 'text/html is not text/plain'],
  ['text/plain;q=high, application/json;q=0.1', 'json', 'a malformed q accepts nothing'],
  ['text/plain;q=2, application/json;q=0.9', 'json', 'q above 1 is malformed'],
  ['text/plain;q=-1, application/json;q=0', 'json', 'q below 0 is malformed'],
  ['text/plain;q=0x1, application/json;q=0.9', 'json', 'hexadecimal is malformed'],
  ['text/plain;q=1e0, application/json;q=0.9', 'json', 'an exponent is malformed'],
  ['text/plain;q=0.1234, application/json;q=0.1', 'json', 'more than three decimals is malformed'],
  ['text/plain;q=, application/json;q=0.1', 'json', 'an empty q is malformed'],
  ['text/plain;q=1.000, application/json;q=0.999', 'text', 'three decimals are fine'],
  ['text/plain;q=0., application/json;q=0', 'json', '"0." is a valid zero'],
  ['application/json;q=oops, text/plain;q=0.1', 'text', 'a malformed q on JSON refuses JSON'],
  ['garbage', 'json', 'not a media range'],
  ['text, json, /, text/, /plain, text/plain/x', 'json', 'only malformed ranges'],
  ['garbage, text/plain', 'text', 'malformed ranges are skipped, the rest counts'],
  [',,,;;;===', 'json', 'separators only'],
  ['text/plain;q="0.5", application/json;q=0.4', 'text', 'a quoted q is read unquoted'],
  ['*/plain, application/json;q=0.5', 'json', '*/plain is no media range'],
  ['text/plain;x="unclosed, application/json', 'text', 'an unclosed quote runs to the end']
]

t.test('negotiation table', async (t) => {
  for (const [accept, expected, why] of cases) {
    t.equal(resultFormat(accept), expected, `${JSON.stringify(accept)}: ${why}`)
  }
})

t.test('a very long header is read to its end and answers as a short one', async (t) => {
  const filler = 'text/html;level=1;q=0.3, '.repeat(4000)
  t.ok(filler.length > 64 * 1024, 'longer than the whole header budget')
  t.equal(resultFormat(`${filler}text/plain`), 'text', 'the last range decides')
  t.equal(resultFormat(`${filler}text/plain, application/json`), 'json')
  t.equal(resultFormat(`text/plain;q=0.1, ${filler}application/json;q=0.2`), 'json')
  t.equal(resultFormat(`text/plain;x="${'a,'.repeat(40_000)}`), 'text', 'one long unclosed quote')
  t.equal(resultFormat(`${' '.repeat(100_000)}text/plain`), 'text', 'leading whitespace')
  t.equal(resultFormat(','.repeat(100_000)), 'json')
})

// Two oracles for generated headers: the RFC 9110 §12.5.1 rule written out for the few range
// forms used here (each range at most once, no parameter but q: negotiator would not match
// text/plain to `text/plain;charset=x`, and duplicates are unspecified), and negotiator, which
// orders what a header accepts by q-value first, wherever the two q-values differ.
const RANGES = ['text/plain', 'text/*', '*/*', 'application/json', 'application/*', 'text/html', 'image/png', 'application/xml']
const Q = [undefined, '0', '0.001', '0.1', '0.5', '0.999', '1']

/** The q of the most specific range matching `type/subtype`; 0 when none does. */
function expectedQ (ranges: Array<[string, number]>, type: string, subtype: string): number {
  const q = new Map(ranges)
  return q.get(`${type}/${subtype}`) ?? q.get(`${type}/*`) ?? q.get('*/*') ?? 0
}

t.test('generated headers: text exactly when text/plain gets the higher q-value; negotiator agrees', async (t) => {
  const header = fc.uniqueArray(fc.constantFrom(...RANGES), { minLength: 1, maxLength: RANGES.length })
    .chain((names) => fc.tuple(...names.map((name) => fc.constantFrom(...Q).map((q): [string, string | undefined] => [name, q]))))
  let preferText = 0
  let ties = 0
  fc.assert(fc.property(header, (entries) => {
    const accept = entries.map(([name, q]) => q === undefined ? name : `${name};q=${q}`).join(', ')
    const ranges = entries.map(([name, q]): [string, number] => [name, q === undefined ? 1 : Number(q)])
    const text = expectedQ(ranges, 'text', 'plain')
    const json = expectedQ(ranges, 'application', 'json')
    const format = resultFormat(accept)
    if (format !== (text > json ? 'text' : 'json')) throw new Error(`${accept}: ${format}`)
    if (text === json) {
      ties++
      return
    }
    if (text > json) preferText++
    const first = new Negotiator({ headers: { accept } }).mediaTypes(['application/json', 'text/plain'])[0]
    if (first !== (text > json ? 'text/plain' : 'application/json')) throw new Error(`${accept}: negotiator prefers ${first}`)
  }), { numRuns: 3000, seed: 20261124 })
  // The generated headers reach every outcome, not only ties
  t.ok(preferText > 300, `${preferText} headers prefer text`)
  t.ok(ties > 300, `${ties} ties`)
  t.ok(3000 - preferText - ties > 300, 'and the rest prefer JSON')
})

t.test('never throws, whatever the header', async (t) => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (accept) => {
    const format = resultFormat(accept)
    return format === 'json' || format === 'text'
  }), { numRuns: 5000, seed: 20261124 })
  t.pass('5,000 arbitrary headers')
})
