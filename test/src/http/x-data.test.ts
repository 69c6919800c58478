import t from 'tap'
import { decodeBase64Strict, decodeXData, isJsonObject, X_DATA_MAX_LENGTH } from '../../../src/http/x-data.js'
import { ProblemError } from '../../../src/http/errors.js'
import { build, xData } from '../../helper.js'

const b64 = (bytes: number[] | string) => Buffer.from(bytes as any).toString('base64')

function reason (fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    if (error instanceof ProblemError) return `${error.status} ${error.code} ${error.detailMessage}`
    throw error
  }
  return 'no error'
}

t.test('decodeBase64Strict: both alphabets, padding optional', async (t) => {
  // '???>' gives '/' and '+' in the standard alphabet
  const bytes = Buffer.from('???>>', 'latin1')
  const standard = bytes.toString('base64')
  t.equal(standard, 'Pz8/Pj4=')
  for (const text of [standard, standard.replace(/=+$/, ''), bytes.toString('base64url'), 'Pz8_Pj4=']) {
    t.same(decodeBase64Strict(text), bytes, text)
  }
  t.same(decodeBase64Strict(''), Buffer.alloc(0))
  t.same(decodeBase64Strict('QQ=='), Buffer.from('A'))
  t.same(decodeBase64Strict('QQ'), Buffer.from('A'))
  t.same(decodeBase64Strict('QUI='), Buffer.from('AB'))
  t.same(decodeBase64Strict('QUJD'), Buffer.from('ABC'))
})

t.test('decodeBase64Strict: anything else is X_DATA_NOT_BASE64', async (t) => {
  const notBase64 = '400 X_DATA_INVALID X_DATA_NOT_BASE64'
  for (const text of ['QUJD!', 'QU JD', 'QU.D', 'QUJDé', 'QQ=A', '=QQ', 'QQ===', 'Q', 'QUJDR', 'QQ=', 'QUI==', 'QUJD=', 'QUJD==', 'e30\n']) {
    t.equal(reason(() => decodeBase64Strict(text)), notBase64, JSON.stringify(text))
  }
})

t.test('decodeXData', async (t) => {
  const parse = JSON.parse as (text: string) => unknown
  t.same(decodeXData(xData({ length: 8 }), parse), { length: 8 })
  t.same(decodeXData(b64('{"separator":"😀"}'), parse), { separator: '😀' })
  t.equal(reason(() => decodeXData('***', parse)), '400 X_DATA_INVALID X_DATA_NOT_BASE64')
  // Invalid UTF-8: a lone continuation byte, 0xFF, an overlong '/', an encoded surrogate, a truncated sequence
  for (const bytes of [[0x7b, 0x80, 0x7d], [0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
    t.equal(reason(() => decodeXData(b64(bytes), parse)), '400 X_DATA_INVALID X_DATA_NOT_UTF8', JSON.stringify(bytes))
  }
  for (const text of ['', '{', 'length=8', "{'a':1}", '{"a":1}x']) {
    t.equal(reason(() => decodeXData(b64(text), parse)), '400 X_DATA_INVALID X_DATA_NOT_JSON', JSON.stringify(text))
  }
  for (const text of ['[]', '[{}]', '"{}"', 'null', '1', 'true']) {
    t.equal(reason(() => decodeXData(b64(text), parse)), '400 X_DATA_INVALID X_DATA_NOT_OBJECT', text)
  }
  t.equal(reason(() => decodeXData('A'.repeat(X_DATA_MAX_LENGTH + 1), parse)), '400 X_DATA_INVALID X_DATA_TOO_LONG')
})

t.test('isJsonObject', async (t) => {
  t.equal(isJsonObject({}), true)
  for (const value of [null, [], 'x', 1, undefined]) t.equal(isJsonObject(value), false, JSON.stringify(value))
})

t.test('HTTP: X-Data problems are 400 X_DATA_INVALID saying why', async (t) => {
  const app = await build(t)
  const send = (header: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/api/generate/password', headers: { 'x-data': header, ...headers } })
  const cases: Array<[string, string, string]> = [
    ['not Base64', 'eyJsZW5ndGgiOjh9!', 'The X-Data header is not valid Base64 (standard or URL-safe alphabet, padding optional).'],
    ['bad length', 'eyJsZW5ndGgiOjh9e', 'The X-Data header is not valid Base64 (standard or URL-safe alphabet, padding optional).'],
    ['bad padding', 'e30==', 'The X-Data header is not valid Base64 (standard or URL-safe alphabet, padding optional).'],
    ['invalid UTF-8', b64([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'The X-Data header does not decode to valid UTF-8 text.'],
    ['not JSON', b64('length=8'), 'The X-Data header does not decode to valid JSON.'],
    ['empty', '', 'The X-Data header does not decode to valid JSON.'],
    ['prototype poisoning', b64('{"__proto__":{"length":6}}'), 'The X-Data header does not decode to valid JSON.'],
    ['an array', b64('[{"length":8}]'), 'The X-Data header must decode to a JSON object, such as {"length": 32}.'],
    ['a string', b64('"x"'), 'The X-Data header must decode to a JSON object, such as {"length": 32}.'],
    ['null', b64('null'), 'The X-Data header must decode to a JSON object, such as {"length": 32}.'],
    ['too long', 'A'.repeat(X_DATA_MAX_LENGTH + 1), 'The X-Data header is longer than 49152 characters.']
  ]
  for (const [name, header, detail] of cases) {
    const response = await send(header)
    t.equal(response.statusCode, 400, name)
    t.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8')
    t.equal(response.headers['cache-control'], 'no-store')
    t.same(response.json(), { title: 'Invalid X-Data header', status: 400, code: 'X_DATA_INVALID', detail }, name)
  }
  const german = await send('!!!!', { 'x-language': 'de' })
  t.equal(german.json().title, 'Ungültiger X-Data-Header')
})

t.test('HTTP: X-Data of exactly 49,152 characters is accepted', async (t) => {
  const app = await build(t)
  // 36,864 bytes of JSON (spaces inside the object) are 49,152 Base64 characters
  const json = '{"length":8' + ' '.repeat(36_864 - 12) + '}'
  const header = b64(json)
  t.equal(header.length, X_DATA_MAX_LENGTH)
  const response = await app.inject({ method: 'GET', url: '/api/generate/password', headers: { 'x-data': header } })
  t.equal(response.statusCode, 200)
  t.equal(response.json().values[0].length, 8)
})

t.test('HTTP: URL-safe alphabet and missing padding', async (t) => {
  const app = await build(t)
  // Spaces make the length 1 mod 3, so the standard form ends in '=='
  let json = JSON.stringify({ separator: '???', words: 15 })
  while (json.length % 3 !== 1) json = json.replace('{', '{ ')
  const standard = b64(json)
  t.match(standard, /[+/]/, 'the standard form has + or /')
  t.match(standard, /==$/, 'and padding')
  const urlSafe = Buffer.from(json).toString('base64url')
  for (const header of [standard, standard.replace(/=+$/, ''), urlSafe, urlSafe + '==']) {
    const response = await app.inject({ method: 'GET', url: '/api/generate/phrase', headers: { 'x-data': header } })
    t.equal(response.statusCode, 200, header)
    t.equal(response.json().values[0].split('???').length, 15)
  }
})
