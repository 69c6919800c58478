// CONTRACT §8 Languages: the page's catalog in every language of the API, every key in each, none
// left in English, a label for every generator and parameter the schemas have.
import t from 'tap'
import { formSpec, setFormSpec } from '../../src/build/form-spec.js'
import { LANGUAGES } from '../../src/i18n/index.js'
import { RecipeSummary } from '../../schemas/recipes.js'
import { catalogs, en, ENV_DOWNLOAD_NAME, LANGUAGE_NAMES, PAGE_LANGUAGES, type MessageKey } from '../../web/messages.js'
import { preferredLanguage, translator } from '../../web/i18n.js'
import { PLURALS, type PluralKey } from '../../web/plurals.js'
import { choiceLabel } from '../../web/choice-labels.js'

const KEYS = Object.keys(en) as MessageKey[]
/** Strings that are the same word in English and in that language (checked by a speaker, not a gap). */
const SAME_WORD: Record<string, readonly MessageKey[]> = {
  de: ['generator', 'param.format', 'group.vpn'],
  fr: ['param.format', 'group.vpn'],
  es: ['group.vpn'],
  ru: ['group.vpn']
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

t.test('a label for every generator and every parameter the schemas have (a set\'s jwt row\'s too)', async (t) => {
  for (const { type, params } of [...formSpec(), setFormSpec().jwt]) {
    t.ok(Object.hasOwn(en, `gen.${type}`), `gen.${type}`)
    for (const param of params) {
      if (param.kind !== 'hash') {
        t.ok(Object.hasOwn(en, `param.${param.name}`), `param.${param.name} (${type})`)
        continue
      }
      // CONTRACT §12: hash's chooser and each algorithm's fields are controls `hash.<field>`
      t.ok(Object.hasOwn(en, 'param.hash.algorithm'), `param.hash.algorithm (${type})`)
      for (const { algorithm, fields } of param.algorithms) {
        for (const field of fields) t.ok(Object.hasOwn(en, `param.hash.${field.name}`), `param.hash.${field.name} (${type}, ${algorithm})`)
      }
    }
  }
})

t.test('words for every group of the recipes (schemas/recipes.ts), which the set\'s chooser groups them by', async (t) => {
  const groups: string[] = RecipeSummary.properties.group.anyOf.map((literal: { const: string }) => literal.const)
  t.ok(groups.length > 0)
  for (const group of groups) t.ok(Object.hasOwn(en, `group.${group}`), `group.${group}`)
  t.same(Object.keys(en).filter((key) => key.startsWith('group.')).sort(), groups.map((group) => `group.${group}`).sort(), 'and for no other')
})

t.test('the saved .env file: its name in Save, and beside the button why it has that name, in every language', async (t) => {
  for (const language of PAGE_LANGUAGES) {
    const words = translator(language)
    t.ok(words('saveEnv').includes(ENV_DOWNLOAD_NAME), `${language}: "${words('saveEnv')}" names ${ENV_DOWNLOAD_NAME}`)
    // the page writes `mv randgen.env .env` after the hint, as code (web/render.ts)
    t.ok(words('saveEnvHint').includes(ENV_DOWNLOAD_NAME), `${language}: the hint names ${ENV_DOWNLOAD_NAME}`)
    t.match(words('saveEnvHint'), /:$/, `${language}: the hint leads to the command`)
  }
  t.notMatch(ENV_DOWNLOAD_NAME, /^\./, 'no leading dot for a browser to drop')
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

t.test('every count message has each plural form its language has (Intl.PluralRules), each holding {n}', async (t) => {
  const keys = Object.keys(PLURALS.en) as PluralKey[]
  for (const language of PAGE_LANGUAGES) {
    t.same(Object.keys(PLURALS[language]).sort(), [...keys].sort(), `${language}: the same count messages`)
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories
    for (const key of keys) {
      t.same(Object.keys(PLURALS[language][key]).sort(), [...categories].sort(), `${language}.${key}: ${categories.join(', ')}`)
      for (const form of Object.values(PLURALS[language][key])) t.same(placeholders(form), ['{n}'], `${language}.${key}: {n} in "${form}"`)
    }
  }
})

t.test('a count in its language\'s grammar: "1 value", "2 values"; Russian one, few and many', async (t) => {
  const en = translator('en')
  t.equal(en.plural('generated', 1), '1 value generated.')
  t.equal(en.plural('generated', 50), '50 values generated.')
  const ru = translator('ru')
  t.equal(ru.plural('generated', 1), 'Создано 1 значение.')
  t.equal(ru.plural('generated', 3), 'Создано 3 значения.')
  t.equal(ru.plural('generated', 5), 'Создано 5 значений.')
  t.equal(ru.plural('generated', 21), 'Создано 21 значение.')
  t.equal(ru.plural('setGenerated', 12), 'Записано 12 строк .env.')
  t.equal(translator('fr').plural('generated', 0), '0 valeur générée.', 'French counts 0 as one')
  t.equal(translator('de').plural('generated', 1), '1 Wert erzeugt.')
})

t.test('words for every string choice the schemas have, in every language, distinct within a parameter', async (t) => {
  for (const { type, params } of [...formSpec(), setFormSpec().jwt]) {
    for (const param of params) {
      if (param.kind === 'hash') {
        for (const language of PAGE_LANGUAGES) {
          const labels = param.algorithms.map(({ algorithm }) => choiceLabel(language, 'hash.algorithm', algorithm))
          t.same(labels.filter((label) => label === undefined || label.trim() === ''), [], `${language}: ${type}.hash.algorithm has words for every algorithm`)
          t.equal(new Set([...labels, translator(language)('hashNone')]).size, labels.length + 1, `${language}: ${type}.hash.algorithm's words tell its choices and "none" apart`)
        }
        continue
      }
      if (param.kind !== 'choice') continue
      for (const language of PAGE_LANGUAGES) {
        // `''`: the parameter left out (a jwt row's algorithm), in words of its own
        const labels = param.choices.map((choice) => (choice === '' ? catalogs[language][`leftOut.${param.name}` as MessageKey] : choiceLabel(language, param.name, choice)))
        if (typeof param.choices[0] === 'number') {
          t.same(labels.filter((label) => label !== undefined), [], `${type}.${param.name}: numbers are their own label`)
          continue
        }
        t.same(labels.filter((label) => label === undefined || label.trim() === ''), [], `${language}: ${type}.${param.name} has words for every choice`)
        t.equal(new Set(labels).size, labels.length, `${language}: ${type}.${param.name}'s words tell its choices apart`)
      }
    }
  }
  t.equal(choiceLabel('de', 'wordList', 'bip39-czech'), 'BIP-39, Tschechisch (2.048 Wörter)')
  t.equal(choiceLabel('en', 'wordList', 'bip39-klingon'), undefined, 'a list the page does not know has no words')
  t.equal(choiceLabel('en', 'protocol', 'wireguard'), 'WireGuard key pair')
})
