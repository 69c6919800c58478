// CONTRACT §8 Languages: the page's catalog in every language of the API, every key in each, none
// left in English, a label for every generator and parameter the schemas have.
import t from 'tap'
import { formSpec } from '../../src/build/form-spec.js'
import { LANGUAGES } from '../../src/i18n/index.js'
import { catalogs, en, LANGUAGE_NAMES, PAGE_LANGUAGES, type MessageKey } from '../../web/messages.js'
import { preferredLanguage, translator } from '../../web/i18n.js'

const KEYS = Object.keys(en) as MessageKey[]
/** Strings that are the same word in English and in that language (checked by a speaker, not a gap). */
const SAME_WORD: Record<string, readonly MessageKey[]> = {
  de: ['generator', 'param.format'],
  fr: ['param.format']
}
const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((match) => match[0]).sort()

t.test('the page speaks exactly the API\'s languages', async (t) => {
  t.same([...PAGE_LANGUAGES].sort(), [...LANGUAGES].sort())
  t.same(Object.keys(LANGUAGE_NAMES).sort(), [...LANGUAGES].sort())
})

t.test('every catalog has every key of English, and no other, each with its placeholders', async (t) => {
  for (const language of PAGE_LANGUAGES) {
    const catalog = catalogs[language]
    t.same(Object.keys(catalog).sort(), [...KEYS].sort(), `${language}: the same keys`)
    for (const key of KEYS) {
      t.ok(catalog[key].trim().length > 0, `${language}.${key} is not empty`)
      t.same(placeholders(catalog[key]), placeholders(en[key]), `${language}.${key}: placeholders`)
    }
  }
})

t.test('no English string left in another language', async (t) => {
  for (const language of PAGE_LANGUAGES.filter((code) => code !== 'en')) {
    for (const key of KEYS) {
      if (SAME_WORD[language]?.includes(key)) continue
      t.not(catalogs[language][key], en[key], `${language}.${key} is translated`)
    }
  }
})

t.test('a label for every generator and every parameter the schemas have', async (t) => {
  for (const { type, params } of formSpec()) {
    t.ok(Object.hasOwn(en, `gen.${type}`), `gen.${type}`)
    for (const { name } of params) t.ok(Object.hasOwn(en, `param.${name}`), `param.${name} (${type})`)
  }
})

t.test('the browser\'s first language the page speaks, by primary subtag, else English', async (t) => {
  t.equal(preferredLanguage(['de-AT', 'en']), 'de')
  t.equal(preferredLanguage(['it', 'pt-BR', 'RU_ru']), 'ru')
  t.equal(preferredLanguage(['ja']), 'en')
  t.equal(preferredLanguage([]), 'en')
})

t.test('messages with their number filled in', async (t) => {
  t.equal(translator('en')('copyValue', 2), 'Copy value 2')
  t.equal(translator('de')('rateLimited', 30), 'Zu viele Anfragen. Bitte in 30 Sekunden erneut versuchen.')
  t.equal(translator('fr')('generate'), 'Générer')
})
