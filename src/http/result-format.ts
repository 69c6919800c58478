// Which body a generator answers with (CONTRACT §1.2): JSON, unless the request's Accept gives
// text/plain a higher q-value than application/json. Media ranges are parsed by jshttp's
// content-type (the parser negotiator uses). Negotiator itself is not enough here: it breaks a
// q-value tie by the order of the header's entries, and the contract sends every tie to JSON.
import { parse } from 'content-type'

export type ResultFormat = 'json' | 'text'

interface MediaRange { type: string, subtype: string, q: number }

/** RFC 9110 §12.4.2 qvalue: 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** The media ranges of an Accept header, in order; entries that are not `type/subtype` are skipped. */
function mediaRanges (accept: string): MediaRange[] {
  const ranges: MediaRange[] = []
  for (let start = 0; start < accept.length;) {
    const parsed = parse(accept, { comma: true, start })
    start = parsed.index + 1
    const [type, subtype, extra] = parsed.type.split('/')
    if (type === undefined || subtype === undefined || extra !== undefined || type === '' || subtype === '') continue
    const q = parsed.parameters.q
    // A malformed q (`q=high`, `q=2`, `q=0x1`) accepts nothing rather than everything
    ranges.push({ type, subtype, q: q === undefined ? 1 : QVALUE.test(q) ? Number(q) : 0 })
  }
  return ranges
}

/**
 * The q-value `ranges` give `type/subtype` (RFC 9110 §12.5.1): that of the most specific range
 * that matches it (`text/plain` over `text/*` over `*∕*`), 0 when none does. Parameters other
 * than q are not compared: every answer is UTF-8, so `text/plain; charset=utf-8` is text/plain.
 */
function quality (ranges: MediaRange[], type: string, subtype: string): number {
  let best = -1
  let q = 0
  for (const range of ranges) {
    const specificity = range.type === type ? (range.subtype === subtype ? 2 : range.subtype === '*' ? 1 : -1) : (range.type === '*' && range.subtype === '*' ? 0 : -1)
    if (specificity > best) {
      best = specificity
      q = range.q
    }
  }
  return q
}

// Without a text or JSON range, text/plain and application/json share the q-value of `*/*`
// unless `application/*` lowers JSON's (`application/*;q=0.5, */*` prefers text), so only
// headers naming one of these can prefer text; the rest is answered without parsing
const MAY_PREFER_TEXT = /text\/|json|application\/\*/i

export function resultFormat (accept: string | undefined): ResultFormat {
  if (accept === undefined || !MAY_PREFER_TEXT.test(accept)) return 'json'
  const ranges = mediaRanges(accept)
  return quality(ranges, 'text', 'plain') > quality(ranges, 'application', 'json') ? 'text' : 'json'
}

/**
 * Whether Accept prefers `mediaType` (an `application/…+json` form such as a JWK Set, CONTRACT
 * §13) to both JSON and plain text: a higher q-value than application/json (a tie goes to JSON)
 * and at least text/plain's.
 */
export function prefersMediaType (accept: string | undefined, mediaType: string): boolean {
  if (accept === undefined || !accept.toLowerCase().includes(mediaType)) return false
  const [type, subtype] = mediaType.split('/') as [string, string]
  const ranges = mediaRanges(accept.toLowerCase())
  const q = quality(ranges, type, subtype)
  return q > quality(ranges, 'application', 'json') && q >= quality(ranges, 'text', 'plain')
}
