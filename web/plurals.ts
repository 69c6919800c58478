// Messages that hold a count, one form per plural category of the language (CLDR's, as
// Intl.PluralRules selects them): "1 value", "2 values"; Russian "1 значение", "2 значения",
// "5 значений". test/web/messages.test.ts holds each language to every category
// Intl.PluralRules reports for it. `{n}` is the count.
import type { PageLanguage } from './messages.js'

type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }
export type PluralKey = 'generated' | 'setGenerated'
export type PluralMessages = Readonly<Record<PluralKey, Forms>>

export const PLURALS: Readonly<Record<PageLanguage, PluralMessages>> = {
  en: {
    generated: { one: '{n} value generated.', other: '{n} values generated.' },
    setGenerated: { one: '{n} line of .env written.', other: '{n} lines of .env written.' }
  },
  de: {
    generated: { one: '{n} Wert erzeugt.', other: '{n} Werte erzeugt.' },
    setGenerated: { one: '{n} Zeile der .env geschrieben.', other: '{n} Zeilen der .env geschrieben.' }
  },
  fr: {
    generated: { one: '{n} valeur générée.', many: '{n} de valeurs générées.', other: '{n} valeurs générées.' },
    setGenerated: { one: '{n} ligne de .env écrite.', many: '{n} de lignes de .env écrites.', other: '{n} lignes de .env écrites.' }
  },
  es: {
    generated: { one: '{n} valor generado.', many: '{n} de valores generados.', other: '{n} valores generados.' },
    setGenerated: { one: '{n} línea de .env escrita.', many: '{n} de líneas de .env escritas.', other: '{n} líneas de .env escritas.' }
  },
  ru: {
    generated: { one: 'Создано {n} значение.', few: 'Создано {n} значения.', many: 'Создано {n} значений.', other: 'Создано {n} значения.' },
    setGenerated: { one: 'Записана {n} строка .env.', few: 'Записаны {n} строки .env.', many: 'Записано {n} строк .env.', other: 'Записано {n} строки .env.' }
  }
}

/** The message for `n` in `language`: the form of n's plural category, with n written in. */
export function pluralMessage (language: PageLanguage, key: PluralKey, n: number): string {
  const forms = PLURALS[language][key]
  const category = new Intl.PluralRules(language).select(n)
  return (forms[category] ?? forms.other).replace('{n}', String(n))
}
