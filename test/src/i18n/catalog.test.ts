// CONTRACT §4 Languages: complete catalogs, no English left in the others, negotiation, real responses.
import t from 'tap'
import { FIELD_MESSAGES, JSON_TYPES, PROBLEM_CODES, PROBLEM_MESSAGES, type Catalog, type MessageArgs } from '../../../src/i18n/catalog.js'
import { catalogs, LANGUAGES, negotiateLanguage } from '../../../src/i18n/index.js'
import { build, get, post } from '../../helper.js'

const SAMPLE: MessageArgs = {
  field: '«length»',
  min: 6,
  max: 128,
  allowed: '"a", "b"',
  expected: 'X',
  limit: 65536,
  method: 'PUT',
  path: '/x',
  available: '3',
  quantity: 5,
  language: 'czech',
  total: 131,
  length: 20
}
// Words of the English catalog that never belong in another language's message
const ENGLISH = /\b(must|between|the|is|not|known|least|most|items|request|body|valid|allowed|such|characters?|value|values|left|fewer|requested|enable|enabled|sets?|add|up|more|contain|digits?|list|into|back|unexpected|occurred|try|again|later|too|larger|longer|than|there|here|distinct|only|letters|split|words|could|sent|took|parsed|or|and|of|an|integer|string|boolean|number|object)\b/i

function messages (catalog: Catalog, args = SAMPLE): Map<string, string> {
  const all = new Map<string, string>()
  for (const code of PROBLEM_CODES) all.set(`titles.${code}`, catalog.titles[code])
  for (const key of PROBLEM_MESSAGES) all.set(`problems.${key}`, catalog.problems[key](args))
  for (const key of FIELD_MESSAGES) all.set(`fields.${key}`, catalog.fields[key](args))
  for (const type of JSON_TYPES) all.set(`types.${type}`, catalog.types[type])
  all.set('or', catalog.or(['X', 'Y']))
  return all
}

t.test('en, ru, de, fr, es are supported', async (t) => {
  t.same([...LANGUAGES].sort(), ['de', 'en', 'es', 'fr', 'ru'])
})

t.test('every catalog has every key, and every message is a non-empty string', async (t) => {
  for (const language of LANGUAGES) {
    const catalog = catalogs[language]
    t.same(Object.keys(catalog.titles).sort(), [...PROBLEM_CODES].sort(), `${language}: titles`)
    t.same(Object.keys(catalog.problems).sort(), [...PROBLEM_MESSAGES].sort(), `${language}: problems`)
    t.same(Object.keys(catalog.fields).sort(), [...FIELD_MESSAGES].sort(), `${language}: fields`)
    t.same(Object.keys(catalog.types).sort(), [...JSON_TYPES].sort(), `${language}: types`)
    for (const [key, text] of messages(catalog)) {
      t.ok(typeof text === 'string' && text.trim() !== '' && !text.includes('undefined'), `${language} ${key}`)
    }
    t.match(catalog.quote('length'), /length/)
    t.not(catalog.quote('length'), 'length', `${language} quotes field names`)
  }
})

t.test('messages use their arguments', async (t) => {
  for (const language of LANGUAGES) {
    const { fields, problems } = catalogs[language]
    const hasAll = (text: string, ...parts: Array<string | number>) => parts.every((part) => text.includes(String(part)))
    t.ok(hasAll(fields.OUT_OF_RANGE(SAMPLE), '«length»', 6, 128), `${language} OUT_OF_RANGE`)
    t.ok(hasAll(fields.TOO_SHORT(SAMPLE), '«length»', 6), `${language} TOO_SHORT`)
    t.ok(hasAll(fields.TOO_LONG(SAMPLE), '«length»', 128), `${language} TOO_LONG`)
    t.ok(hasAll(fields.TOO_MANY_ITEMS(SAMPLE), '«length»', 128), `${language} TOO_MANY_ITEMS`)
    t.ok(hasAll(fields.NOT_ALLOWED_VALUE(SAMPLE), '«length»', '"a", "b"'), `${language} NOT_ALLOWED_VALUE`)
    t.ok(hasAll(fields.TYPE(SAMPLE), '«length»', 'X'), `${language} TYPE`)
    t.ok(hasAll(fields.MIN_GREATER_THAN_MAX(SAMPLE), 6, 128), `${language} MIN_GREATER_THAN_MAX`)
    t.ok(hasAll(fields.NO_VALUES_LEFT(SAMPLE), 6, 128), `${language} NO_VALUES_LEFT`)
    t.ok(hasAll(fields.NOT_ENOUGH_UNIQUE_VALUES(SAMPLE), 3, 5), `${language} NOT_ENOUGH_UNIQUE_VALUES`)
    t.ok(hasAll(problems.NOT_FOUND(SAMPLE), 'PUT', '/x'), `${language} NOT_FOUND`)
    t.ok(hasAll(problems.METHOD_NOT_ALLOWED({ ...SAMPLE, allowed: 'GET, HEAD' }), 'PUT', 'GET, HEAD'), `${language} METHOD_NOT_ALLOWED`)
    t.ok(hasAll(problems.PAYLOAD_TOO_LARGE(SAMPLE), 65536), `${language} PAYLOAD_TOO_LARGE`)
    t.ok(hasAll(problems.X_DATA_TOO_LONG(SAMPLE), 65536), `${language} X_DATA_TOO_LONG`)
    t.ok(hasAll(fields.MINIMUMS_EXCEED_LENGTH(SAMPLE), '«length»', 131, 20), `${language} MINIMUMS_EXCEED_LENGTH`)
    t.ok(hasAll(fields.SEPARATOR_HAS_LETTER_OR_DIGIT(SAMPLE), '«length»'), `${language} SEPARATOR_HAS_LETTER_OR_DIGIT`)
    t.ok(hasAll(fields.SEPARATOR_HAS_LETTER(SAMPLE), '«length»'), `${language} SEPARATOR_HAS_LETTER`)
    t.ok(hasAll(fields.SEPARATOR_HAS_WORD_CHARACTER(SAMPLE), '«length»', 'czech'), `${language} SEPARATOR_HAS_WORD_CHARACTER`)
    t.ok(hasAll(fields.NOT_PRINTABLE_ASCII(SAMPLE), '«length»', '~'), `${language} NOT_PRINTABLE_ASCII`)
  }
})

t.test('every message of every language uses each argument its English message uses', async (t) => {
  // Arguments no message text could hold by chance, so that finding one proves it was used
  const marked: MessageArgs = {
    field: '«F1»',
    min: 1101,
    max: 2202,
    allowed: '"A3", "B3"',
    expected: 'E4',
    limit: 5505,
    method: 'M6',
    path: '/p7',
    available: '8808',
    quantity: 9909,
    language: 'L10',
    total: 1111,
    length: 1212
  }
  const english = messages(catalogs.en, marked)
  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    for (const [key, text] of messages(catalogs[language], marked)) {
      const used = Object.values(marked).map(String).filter((value) => english.get(key)?.includes(value))
      t.same(used.filter((value) => !text.includes(value)), [], `${language} ${key} uses ${used.join(', ') || 'no argument'}`)
    }
  }
})

t.test('no English left in the other catalogs', async (t) => {
  const english = messages(catalogs.en)
  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    for (const [key, text] of messages(catalogs[language])) {
      // `null` is the JSON literal in every language
      if (key === 'types.null') continue
      t.not(text, english.get(key), `${language} ${key} differs from English`)
      // Only the JSON examples and the literals true/false may stay as they are
      const prose = text.replace(/\{[^}]*\}|"[^"]*"|\btrue\b|\bfalse\b|X-Data|application\/json|Base64|UTF-8|JWK Set|JSON/g, '')
      t.notMatch(prose, ENGLISH, `${language} ${key}: ${text}`)
    }
  }
})

t.test('negotiateLanguage: X-Language, then Accept-Language with q-values, then en', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{}, 'en'],
    [{ 'x-language': 'de' }, 'de'],
    [{ 'x-language': 'ru-RU' }, 'ru'],
    [{ 'x-language': 'FR-ca' }, 'fr'],
    [{ 'x-language': 'es_MX' }, 'es'],
    [{ 'x-language': ' de-AT ' }, 'de'],
    [{ 'x-language': 'de', 'accept-language': 'fr' }, 'de'],
    [{ 'x-language': 'ja', 'accept-language': 'fr' }, 'fr'],
    [{ 'x-language': 'ja' }, 'en'],
    [{ 'x-language': '' }, 'en'],
    [{ 'x-language': 'deu' }, 'en'],
    [{ 'accept-language': 'en;q=0.1, de;q=0.9' }, 'de'],
    [{ 'accept-language': 'ja, ru;q=0.5, es;q=0.4' }, 'ru'],
    [{ 'accept-language': 'de-DE,fr;q=0.5' }, 'de'],
    [{ 'accept-language': 'ja, zh' }, 'en'],
    [{ 'accept-language': '*' }, 'en'],
    [{ 'accept-language': '' }, 'en']
  ]
  for (const [headers, language] of cases) t.equal(negotiateLanguage(headers), language, JSON.stringify(headers))
})

t.test('real error responses in every language', async (t) => {
  const app = await build(t)
  const tags = { en: 'en-GB', ru: 'ru-RU', de: 'de-AT', fr: 'fr-CA', es: 'es-MX' } as const
  for (const language of LANGUAGES) {
    const catalog = catalogs[language]
    const headers = { 'x-language': tags[language] }

    const range = await post(app, 'password', { length: 5 }, headers)
    t.equal(range.statusCode, 400)
    t.equal(range.headers['content-language'], language, `${language}: Content-Language`)
    const detail = catalog.fields.OUT_OF_RANGE({ field: catalog.quote('length'), min: 6, max: 128 })
    t.same(range.json(), {
      title: catalog.titles.VALIDATION_FAILED,
      status: 400,
      code: 'VALIDATION_FAILED',
      detail,
      errors: [{ pointer: '#/length', code: 'OUT_OF_RANGE', detail }]
    }, `${language}: validation`)

    const type = await get(app, 'number', { exclusions: [true] }, headers)
    const expected = catalog.or([catalog.types.string, catalog.types.integer])
    t.equal(type.json().detail, catalog.fields.TYPE({ field: catalog.quote('exclusions[0]'), expected }), `${language}: TYPE`)

    const missing = await app.inject({ method: 'GET', url: '/api/generate/nothing', headers })
    t.equal(missing.headers['content-language'], language)
    t.same(missing.json(), {
      title: catalog.titles.NOT_FOUND, status: 404, code: 'NOT_FOUND', detail: catalog.problems.NOT_FOUND({ method: 'GET', path: '/api/generate/nothing' })
    }, `${language}: 404`)

    // A rule of the password generator, after the schema: the same document shape, at #/length
    const minimums = await post(app, 'password', { length: 10, minNumbers: 5, minSymbols: 4 }, headers)
    const exceeds = catalog.fields.MINIMUMS_EXCEED_LENGTH({ field: catalog.quote('length'), total: 11, length: 10 })
    t.ok(exceeds.includes('11') && exceeds.includes('10') && exceeds.includes(catalog.quote('length')), `${language}: ${exceeds}`)
    t.same(minimums.json(), {
      title: catalog.titles.VALIDATION_FAILED,
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: exceeds,
      errors: [{ pointer: '#/length', code: 'MINIMUMS_EXCEED_LENGTH', detail: exceeds }]
    }, `${language}: MINIMUMS_EXCEED_LENGTH`)
    t.equal(minimums.headers['content-language'], language)
    t.same((await get(app, 'password', { length: 10, minNumbers: 5, minSymbols: 4 }, headers)).json(), minimums.json(), `${language}: GET = POST`)

    const method = await app.inject({ method: 'DELETE', url: '/api/health', headers })
    t.equal(method.json().title, catalog.titles.METHOD_NOT_ALLOWED, `${language}: 405`)
    t.equal(method.headers['content-language'], language)
  }
})

t.test('the contract example, word for word', async (t) => {
  const app = await build(t)
  const response = await post(app, 'password', { length: 200 }, { 'x-language': 'de' })
  t.same(response.json(), {
    title: 'Ungültige Anfrage',
    status: 400,
    code: 'VALIDATION_FAILED',
    detail: '„length“ muss zwischen 6 und 128 liegen.',
    errors: [{ pointer: '#/length', code: 'OUT_OF_RANGE', detail: '„length“ muss zwischen 6 und 128 liegen.' }]
  })
})

t.test('HTTP negotiation: Accept-Language q-values, fallbacks', async (t) => {
  const app = await build(t)
  const language = async (headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: '/nope', headers })).headers['content-language']
  t.equal(await language({ 'accept-language': 'en;q=0.1, de;q=0.9' }), 'de')
  t.equal(await language({ 'accept-language': 'fr-FR, fr;q=0.9, en;q=0.8' }), 'fr')
  t.equal(await language({ 'x-language': 'ja-JP', 'accept-language': 'es;q=0.5, xx' }), 'es')
  t.equal(await language({ 'x-language': 'ja-JP' }), 'en')
  t.equal(await language({ 'x-language': 'ru', 'accept-language': 'de' }), 'ru')
  t.equal(await language({}), 'en')
})
