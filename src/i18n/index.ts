import Negotiator from 'negotiator'
import type { IncomingHttpHeaders } from 'node:http'
import type { Catalog } from './catalog.js'
import { en } from './en.js'
import { ru } from './ru.js'
import { de } from './de.js'
import { fr } from './fr.js'
import { es } from './es.js'

export const catalogs = { en, ru, de, fr, es } satisfies Record<string, Catalog>
export type Language = keyof typeof catalogs
export const LANGUAGES = Object.keys(catalogs) as Language[]

function isLanguage (tag: string): tag is Language {
  return Object.hasOwn(catalogs, tag)
}

/**
 * CONTRACT §4: a longer X-Language or Accept-Language is ignored, as if absent, before it is
 * parsed, so a header up to the server's 80 KiB header limit costs no more than a short one.
 */
export const LANGUAGE_HEADER_MAX_LENGTH = 256

/**
 * The language of a response: `X-Language` (a BCP 47 tag whose primary subtag we support),
 * else `Accept-Language` negotiated with q-values, else English.
 */
export function negotiateLanguage (headers: IncomingHttpHeaders): Language {
  const explicit = headers['x-language']
  if (typeof explicit === 'string' && explicit.length <= LANGUAGE_HEADER_MAX_LENGTH) {
    // The primary subtag: everything before the first '-' (or '_', as in ru_RU)
    const primary = explicit.trim().replace(/[-_][\s\S]*$/, '').toLowerCase()
    if (isLanguage(primary)) return primary
  }
  const accepted = headers['accept-language']
  if (accepted === undefined || accepted.length > LANGUAGE_HEADER_MAX_LENGTH) return 'en'
  const negotiated = new Negotiator({ headers }).language(LANGUAGES)
  return negotiated !== undefined && isLanguage(negotiated) ? negotiated : 'en'
}
