import { choiceLabel } from './choice-labels.js'
import { catalogs, PAGE_LANGUAGES, type MessageKey, type PageLanguage } from './messages.js'
import { pluralMessage, type PluralKey } from './plurals.js'

/** The page's words in one language: a message (`{n}` filled in), a count's message, a choice's words. */
export interface Translate {
  (key: MessageKey, n?: number): string
  language: PageLanguage
  plural: (key: PluralKey, n: number) => string
  choice: (name: string, value: string | number) => string | undefined
}

/** The first of the browser's languages the page speaks (by primary subtag: `de-AT` is `de`), else English. */
export function preferredLanguage (languages: readonly string[]): PageLanguage {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split(/[-_]/)[0] as PageLanguage
    if (PAGE_LANGUAGES.includes(primary)) return primary
  }
  return 'en'
}

export function translator (language: PageLanguage): Translate {
  const messages = catalogs[language]
  const message = (key: MessageKey, n?: number): string => (n === undefined ? messages[key] : messages[key].replace('{n}', String(n)))
  return Object.assign(message, {
    language,
    plural: (key: PluralKey, n: number) => pluralMessage(language, key, n),
    choice: (name: string, value: string | number) => choiceLabel(language, name, value)
  })
}
