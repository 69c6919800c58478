// Which body a generator answers with (CONTRACT §1.2): JSON, unless the request's Accept gives
// text/plain a higher q-value than application/json. Media ranges are parsed by jshttp's
// content-type (the parser negotiator uses). Negotiator itself is not enough here: it breaks a
// q-value tie by the order of the header's entries, and the contract sends every tie to JSON.
import { parse } from 'content-type'

export type ResultFormat = 'json' | 'text'

interface MediaRange { type: string, subtype: string, q: number }

/** The media ranges of an Accept header, in order; entries that are not `type/subtype` are skipped. */
function mediaRanges (accept: string): MediaRange[] {
  const ranges: MediaRange[] = []
  for (let start = 0; start < accept.length;) {
    const parsed = parse(accept, { comma: true, start })
    start = parsed.index + 1
    const [type, subtype, extra] = parsed.type.split('/')
    if (type === undefined || subtype === undefined || extra !== undefined || type === '' || subtype === '') continue
    const q = parsed.parameters.q === undefined ? 1 : Number(parsed.parameters.q)
    // A malformed q (`q=high`) accepts nothing rather than everything
    ranges.push({ type, subtype, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 })
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

// Only a header that names a text or JSON type can give text/plain the higher q-value (`*/*`
// alone is a tie), so the rest is answered without parsing
const MAY_PREFER_TEXT = /text\/|json/i

export function resultFormat (accept: string | undefined): ResultFormat {
  if (accept === undefined || !MAY_PREFER_TEXT.test(accept)) return 'json'
  const ranges = mediaRanges(accept)
  return quality(ranges, 'text', 'plain') > quality(ranges, 'application', 'json') ? 'text' : 'json'
}
