// A field message of the API (CONTRACT §4) names its parameter by the path a client sends
// (“length”, “items[0].name”, “hash.cost”), quoted the way its language quotes. Beside a control
// the page already labels, the message names that control by its label instead (“Length”,
// “Variable name”), as the person reads the form; the alert keeps the API's words. Data and
// strings only: no DOM here.
import type { PageLanguage } from './messages.js'

/** How the API's catalogs (src/i18n/<language>.ts, `quote`) quote a name; test/web/field-label.test.ts holds them to it. */
export const QUOTES: Readonly<Record<PageLanguage, readonly [string, string]>> = {
  en: ['“', '”'],
  de: ['„', '“'],
  fr: ['«\u202F', '\u202F»'],
  es: ['«', '»'],
  ru: ['«', '»']
}

/** `#/items/0/name` → `items[0].name`, `#/hash/cost` → `hash.cost`: the name the API gives a pointer's field (src/http/errors.ts). */
export function pointerFieldName (pointer: string): string {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part, index) => (index === 0 ? part : /^[0-9]+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
}

/**
 * `detail` with the quoted name of `pointer`'s field, in whichever language's quotes it came,
 * replaced by `label` in `language`'s quotes; `detail` as it was when it does not quote that name.
 */
export function namedByLabel (detail: string, pointer: string, label: string, language: PageLanguage): string {
  const words = label.trim()
  if (words === '' || pointer === '') return detail
  const name = pointerFieldName(pointer)
  const [open, close] = QUOTES[language]
  for (const [before, after] of Object.values(QUOTES)) {
    const quoted = `${before}${name}${after}`
    // a function, so a `$` in a label is never read as a replacement pattern
    if (detail.includes(quoted)) return detail.replaceAll(quoted, () => `${open}${words}${close}`)
  }
  return detail
}
