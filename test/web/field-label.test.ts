// Issue item 6c: beside a control, a field message names the control by its label, not by the
// API's path to it. The page finds that path in the API's message as the API writes it: held here
// to the API's own catalogs (src/i18n) and problem documents (src/http/errors.ts), every language.
import t from 'tap'
import { localizeFieldProblems } from '../../src/http/errors.js'
import { catalogs, LANGUAGES } from '../../src/i18n/index.js'
import { namedByLabel, pointerFieldName, QUOTES } from '../../web/field-label.js'
import { PAGE_LANGUAGES } from '../../web/messages.js'

t.test('the page quotes a name as each of the API\'s catalogs does', async (t) => {
  t.same([...PAGE_LANGUAGES].sort(), [...LANGUAGES].sort())
  for (const language of LANGUAGES) {
    const [open, close] = QUOTES[language]
    t.equal(`${open}x${close}`, catalogs[language].quote('x'), language)
  }
})

t.test('a pointer\'s field named as the API names it', async (t) => {
  t.equal(pointerFieldName('#/length'), 'length')
  t.equal(pointerFieldName('#/exclusions/3'), 'exclusions[3]')
  t.equal(pointerFieldName('#/hash/cost'), 'hash.cost')
  t.equal(pointerFieldName('#/items/0/name'), 'items[0].name')
  t.equal(pointerFieldName('#/items/2/params/hash/memoryKiB'), 'items[2].params.hash.memoryKiB')
  t.equal(pointerFieldName('#/a~1b~0c'), 'a/b~c')
})

const POINTERS = ['#/length', '#/hash/cost', '#/items/0/name', '#/items/1/params/hash/cost', '#/exclusions/3']

t.test('every language: the API\'s message beside a control names it by its label, in the page\'s quotes', async (t) => {
  for (const language of LANGUAGES) {
    const [open, close] = QUOTES[language]
    for (const pointer of POINTERS) {
      for (const [code, message] of [['REQUIRED'], ['TOO_LONG'], ['OUT_OF_RANGE'], ['NOT_ALLOWED_VALUE', 'SET_NAME_NOT_ALLOWED'], ['TOO_LONG_FOR_HASH']] as const) {
        const [problem] = localizeFieldProblems(language, [{ pointer, code, ...(message === undefined ? {} : { message }), args: { min: 4, max: 14 } }])
        const detail = (problem as { detail: string }).detail
        const shown = namedByLabel(detail, pointer, ' Cost $& ', language)
        t.ok(shown.includes(`${open}Cost $&${close}`), `${language} ${pointer} ${message ?? code}: "${shown}"`)
        t.notOk(shown.includes(catalogs[language].quote(pointerFieldName(pointer))), `${language} ${pointer} ${message ?? code}: the API's name is gone`)
      }
    }
  }
})

t.test('a message that does not quote the pointer\'s name, or a control without a label, is left as it is', async (t) => {
  const [problem] = localizeFieldProblems('en', [{ pointer: '#/items', code: 'TOO_MANY_VALUES', args: { total: 60, max: 50 } }])
  const detail = (problem as { detail: string }).detail
  t.equal(namedByLabel(detail, '#/items', 'Secrets', 'en'), detail)
  t.equal(namedByLabel('“length” must be between 6 and 128.', '#/length', '  ', 'en'), '“length” must be between 6 and 128.')
  t.equal(namedByLabel('„length“ muss zwischen 6 und 128 liegen.', '#/length', 'Length', 'en'), '“Length” muss zwischen 6 und 128 liegen.', 'found in any language\'s quotes, written in the page\'s')
})
