import { catalogs, PAGE_LANGUAGES, type MessageKey, type PageLanguage } from './messages.js'

export type Translate = (key: MessageKey, n?: number) => string

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
  return (key, n) => (n === undefined ? messages[key] : messages[key].replace('{n}', String(n)))
}
