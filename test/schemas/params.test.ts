// CONTRACT §2, row by row: every bound at min, max, min-1 and max+1, wrong types, null and
// unknown fields, for every generator. Each request is sent both as POST and as GET with X-Data,
// and the two answers must match (CONTRACT §1.1 item 4).
import t, { type Test } from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { build, get, post, ISO_MILLIS, GENERATORS, type Generator } from '../helper.js'

const app = await build(t)

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const MIN_SAFE = Number.MIN_SAFE_INTEGER

// vpn protocols that make key pairs, answered with publicKeys
const KEY_PAIRS = new Set(['wireguard', 'reality', 'mlkem768', 'mldsa65'])
// Generators that always make key pairs
const KEY_PAIR_GENERATORS = new Set<Generator>(['ssh-key', 'age-key'])

// Generators whose values have a length fixed by the parameters, so GET and POST values must match in length
const FIXED_LENGTH = new Set<Generator>(['password', 'vpn', 'uuid', 'seq', 'short-id', 'pin', 'ssh-key', 'age-key', 'token', 'totp'])

/** Sends `params` as POST and as GET, checks both answers alike, returns the parsed POST body. */
async function both (t: Test, type: Generator, params: unknown): Promise<{ status: number, body: any }> {
  const answers: LightMyRequestResponse[] = [await post(app, type, params), await get(app, type, params)]
  const [viaPost, viaGet] = answers as [LightMyRequestResponse, LightMyRequestResponse]
  t.equal(viaGet.statusCode, viaPost.statusCode, 'GET status = POST status')
  t.equal(viaGet.headers['content-type'], viaPost.headers['content-type'], 'same content type')
  for (const answer of answers) t.equal(answer.headers['cache-control'], 'no-store')
  const postBody = viaPost.json()
  const getBody = viaGet.json()
  if (viaPost.statusCode === 200) {
    t.equal(viaPost.headers['content-type'], 'application/json; charset=utf-8')
    // CONTRACT §1.2: four fields, publicKeys where the generator makes key pairs, hashes for tokens
    const keyPairs = KEY_PAIR_GENERATORS.has(type) || (type === 'vpn' && KEY_PAIRS.has((params as { protocol?: string }).protocol ?? '')) ||
      // CONTRACT §13: every signing key but an HMAC secret is a key pair
      (type === 'signing-key' && !((params as { algorithm?: string }).algorithm ?? 'EdDSA').startsWith('HS'))
    const hashes = type === 'token'
    const fields = ['entropyBits', 'generatedAt', 'type', 'values', ...(keyPairs ? ['publicKeys'] : []), ...(hashes ? ['hashes'] : [])].sort()
    for (const body of [postBody, getBody]) {
      t.same(Object.keys(body).sort(), fields, `exactly ${fields.join(', ')}`)
      t.type(body.entropyBits, 'number')
      if (keyPairs) t.equal(body.publicKeys?.length, body.values.length, 'a public key per value')
      if (hashes) t.equal(body.hashes?.length, body.values.length, 'a hash per value')
      t.equal(body.type, type)
      t.match(body.generatedAt, ISO_MILLIS)
      t.ok(body.values.every((value: unknown) => typeof value === 'string'), 'values are strings')
    }
    t.equal(getBody.values.length, postBody.values.length, 'same number of values')
    t.equal(getBody.entropyBits, postBody.entropyBits, 'same entropyBits')
    if (FIXED_LENGTH.has(type)) {
      t.same(getBody.values.map((v: string) => v.length), postBody.values.map((v: string) => v.length), 'same value lengths')
    }
  } else {
    t.equal(viaPost.headers['content-type'], 'application/problem+json; charset=utf-8')
    t.same(getBody, postBody, 'GET error body = POST error body')
  }
  return { status: viaPost.statusCode, body: postBody }
}

async function ok (t: Test, type: Generator, params: Record<string, unknown>, quantity = 1): Promise<string[]> {
  const { status, body } = await both(t, type, params)
  t.equal(status, 200, `200 for ${JSON.stringify(params).slice(0, 80)}`)
  t.equal(body.values?.length, quantity)
  return body.values
}

/** 400 VALIDATION_FAILED with exactly one field error, `code` at `pointer`; returns its detail. */
async function fails (t: Test, type: Generator, params: Record<string, unknown>, pointer: string, code: string): Promise<string> {
  const { status, body } = await both(t, type, params)
  t.equal(status, 400, `400 for ${JSON.stringify(params).slice(0, 80)}`)
  t.equal(body.code, 'VALIDATION_FAILED')
  t.equal(body.title, 'Invalid parameters')
  t.same(body.errors?.map((e: any) => [e.pointer, e.code]), [[pointer, code]])
  t.equal(body.detail, body.errors?.[0]?.detail, 'detail repeats the first error')
  return body.detail
}

interface IntegerParam { name: string, min: number, max: number, base?: (value: number) => Record<string, unknown> }
interface EnumParam { name: string, values: ReadonlyArray<string | number> }

const MINIMUMS = ['minUppercase', 'minLowercase', 'minNumbers', 'minSymbols'] as const
// A password minimum above 0 is tried up to 128, which fits only in 128 characters with the others at 0
const roomFor = (value: number) => value <= 0 ? {} : { length: 128, minUppercase: 0, minLowercase: 0, minNumbers: 0, minSymbols: 0 }

const integers: Record<Generator, IntegerParam[]> = {
  password: [
    { name: 'length', min: 6, max: 128 },
    ...MINIMUMS.map((name) => ({ name, min: 0, max: 128, base: roomFor }))
  ],
  passphrase: [{ name: 'words', min: 3, max: 20 }],
  number: [
    { name: 'min', min: MIN_SAFE, max: MAX_SAFE, base: () => ({ max: MAX_SAFE }) },
    { name: 'max', min: MIN_SAFE, max: MAX_SAFE, base: () => ({ min: MIN_SAFE }) }
  ],
  vpn: [{ name: 'length', min: 2, max: 256 }],
  uuid: [{ name: 'length', min: 2, max: 256, base: () => ({ format: 'alphanumeric' }) }],
  phrase: [],
  seq: [{ name: 'byteLength', min: 2, max: 256 }],
  'short-id': [{ name: 'length', min: 2, max: 256 }],
  pin: [{ name: 'length', min: 4, max: 12 }],
  'ssh-key': [],
  'age-key': [],
  token: [{ name: 'length', min: 16, max: 128 }],
  totp: [{ name: 'period', min: 15, max: 300 }, { name: 'byteLength', min: 16, max: 64 }],
  'signing-key': []
}
const booleans: Record<Generator, string[]> = {
  password: ['uppercase', 'lowercase', 'numbers', 'symbols', 'avoidAmbiguous'],
  passphrase: ['capitalize', 'includeNumber'],
  number: ['unique'],
  vpn: [],
  uuid: [],
  phrase: [],
  seq: [],
  'short-id': [],
  pin: ['avoidWeak'],
  'ssh-key': [],
  'age-key': [],
  token: [],
  totp: [],
  'signing-key': []
}
const enums: Record<Generator, EnumParam[]> = {
  password: [],
  passphrase: [{
    name: 'wordList',
    values: ['eff-large', 'bip39-english', 'bip39-chinese_simplified', 'bip39-chinese_traditional', 'bip39-czech', 'bip39-french', 'bip39-italian', 'bip39-japanese', 'bip39-korean', 'bip39-portuguese', 'bip39-spanish']
  }],
  number: [],
  vpn: [{
    name: 'protocol',
    values: ['shadowsocks', '2022-blake3-aes-128-gcm', '2022-blake3-aes-256-gcm', '2022-blake3-chacha20-poly1305', 'wireguard', 'wireguard-psk', 'reality', 'mlkem768', 'mldsa65', 'hex']
  }],
  uuid: [{ name: 'format', values: ['standard', 'v7', 'ulid', 'numeric', 'alpha', 'alphanumeric', 'urlsafe'] }],
  phrase: [
    { name: 'words', values: [12, 15, 18, 21, 24] },
    { name: 'language', values: ['english', 'chinese_simplified', 'chinese_traditional', 'czech', 'french', 'italian', 'japanese', 'korean', 'portuguese', 'spanish'] }
  ],
  seq: [{ name: 'encoding', values: ['hex', 'base64', 'base64url', 'base32'] }],
  'short-id': [],
  pin: [],
  'ssh-key': [],
  'age-key': [],
  token: [],
  totp: [{ name: 'algorithm', values: ['SHA1', 'SHA256', 'SHA512'] }, { name: 'digits', values: [6, 8] }],
  // format and modulusBits hang on the algorithm (vapid is ES256's, modulusBits RSA's): test/plugins/signing-key.test.ts
  'signing-key': [{ name: 'algorithm', values: ['EdDSA', 'ES256', 'ES384', 'RS256', 'PS256', 'HS256', 'HS384', 'HS512'] }]
}

for (const type of GENERATORS) {
  t.test(type, async (t) => {
    t.test('defaults: {} gives one value', async (t) => {
      await ok(t, type, {})
    })

    t.test('quantity 1..50', async (t) => {
      await ok(t, type, { quantity: 1 }, 1)
      await ok(t, type, { quantity: 50 }, 50)
      t.equal(await fails(t, type, { quantity: 0 }, '#/quantity', 'OUT_OF_RANGE'), '“quantity” must be between 1 and 50.')
      await fails(t, type, { quantity: 51 }, '#/quantity', 'OUT_OF_RANGE')
      for (const wrong of ['1', 1.5, 'true', true, null, [1], {}]) await fails(t, type, { quantity: wrong }, '#/quantity', 'TYPE')
    })

    for (const { name, min, max, base = () => ({}) } of integers[type]) {
      t.test(`${name}: integer ${min}..${max}`, async (t) => {
        await ok(t, type, { ...base(min), [name]: min })
        await ok(t, type, { ...base(max), [name]: max })
        const below = await fails(t, type, { ...base(min), [name]: min - 1 }, `#/${name}`, 'OUT_OF_RANGE')
        t.equal(below, `“${name}” must be between ${min} and ${max}.`)
        await fails(t, type, { ...base(max), [name]: max + 1 }, `#/${name}`, 'OUT_OF_RANGE')
        const typeDetail = await fails(t, type, { [name]: String(min) }, `#/${name}`, 'TYPE')
        t.equal(typeDetail, `“${name}” must be an integer.`)
        for (const wrong of [2.5, 'true', true, null, [min]]) await fails(t, type, { [name]: wrong }, `#/${name}`, 'TYPE')
      })
    }

    for (const name of booleans[type]) {
      t.test(`${name}: boolean`, async (t) => {
        await ok(t, type, { [name]: true })
        await ok(t, type, { [name]: false })
        t.equal(await fails(t, type, { [name]: 'true' }, `#/${name}`, 'TYPE'), `“${name}” must be a boolean (true or false).`)
        for (const wrong of [1, 0, 'false', null, {}]) await fails(t, type, { [name]: wrong }, `#/${name}`, 'TYPE')
      })
    }

    for (const { name, values } of enums[type]) {
      t.test(`${name}: one of ${values.join(', ')}`, async (t) => {
        for (const value of values) await ok(t, type, { [name]: value })
        const numeric = typeof values[0] === 'number'
        // The first value in the other case (`WIREGUARD`, `sha1`): enums are case-sensitive
        const first = String(values[0])
        const outside = numeric ? [13, 0, 25] : ['bogus', first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase(), '']
        for (const value of outside) {
          const detail = await fails(t, type, { [name]: value }, `#/${name}`, 'NOT_ALLOWED_VALUE')
          t.equal(detail, `“${name}” must be one of: ${values.map((v) => JSON.stringify(v)).join(', ')}.`)
        }
        // A wrong type is one TYPE error, not also NOT_ALLOWED_VALUE
        const wrongTypes = numeric ? [String(values[0]), 12.5, true, null] : [1, true, null, [values[0]]]
        for (const value of wrongTypes) await fails(t, type, { [name]: value }, `#/${name}`, 'TYPE')
      })
    }

    t.test('unknown field', async (t) => {
      const detail = await fails(t, type, { lenght: 32 }, '#/lenght', 'UNKNOWN_FIELD')
      t.equal(detail, '“lenght” is not a known parameter.')
      // JSON pointer escaping of the field name (RFC 6901)
      await fails(t, type, { 'a/b~c': 1 }, '#/a~1b~0c', 'UNKNOWN_FIELD')
    })
  })
}

t.test('phrase separator: 1..4 code points', async (t) => {
  for (const separator of ['-', ' ', '    ', '😀', '😀😀😀😀', '—', 'ÄÖÜ', 'A']) await ok(t, 'phrase', { separator })
  t.equal(await fails(t, 'phrase', { separator: '' }, '#/separator', 'TOO_SHORT'), '“separator” must have at least 1 character(s).')
  t.equal(await fails(t, 'phrase', { separator: '-----' }, '#/separator', 'TOO_LONG'), '“separator” must have at most 4 character(s).')
  await fails(t, 'phrase', { separator: '😀😀😀😀😀' }, '#/separator', 'TOO_LONG')
  for (const wrong of [1, true, null, ['-']]) await fails(t, 'phrase', { separator: wrong }, '#/separator', 'TYPE')
})

t.test('ssh-key comment: 0..64 printable ASCII characters, space to ~', async (t) => {
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('')
  for (const comment of ['', ' ', '~', 'a'.repeat(64), printable.slice(0, 64), printable.slice(31, 95), '"\\ quoted']) await ok(t, 'ssh-key', { comment })
  t.equal(await fails(t, 'ssh-key', { comment: 'a'.repeat(65) }, '#/comment', 'TOO_LONG'), '“comment” must have at most 64 character(s).')
  for (const comment of ['\n', 'tab\there', '\u007f', 'é', 'ключ', '🙂', '\u0000', 'a\r']) {
    const detail = await fails(t, 'ssh-key', { comment }, '#/comment', 'NOT_ALLOWED_VALUE')
    t.equal(detail, '“comment” may hold only printable ASCII characters, from space to ~.')
  }
  for (const wrong of [1, true, null, ['a'], {}]) await fails(t, 'ssh-key', { comment: wrong }, '#/comment', 'TYPE')
})

t.test('password minimums: 0..128, integers only, each counted for its own set', async (t) => {
  const setOf = { minUppercase: 'uppercase', minLowercase: 'lowercase', minNumbers: 'numbers', minSymbols: 'symbols' } as const
  const none = { uppercase: false, lowercase: false, numbers: false, symbols: false }
  for (const name of MINIMUMS) {
    // 128 with its set alone, and with every set enabled and the other minimums at 0
    await ok(t, 'password', { ...none, [setOf[name]]: true, length: 128, [name]: 128 })
    await ok(t, 'password', { ...roomFor(128), [name]: 128 })
    await ok(t, 'password', { length: 6, [name]: 0 })
    const range = `“${name}” must be between 0 and 128.`
    t.equal(await fails(t, 'password', { [name]: -1 }, `#/${name}`, 'OUT_OF_RANGE'), range)
    t.equal(await fails(t, 'password', { ...roomFor(128), [name]: 129 }, `#/${name}`, 'OUT_OF_RANGE'), range)
    // Out of range is reported alone, not also as more than the length
    t.equal(await fails(t, 'password', { length: 6, [name]: 129 }, `#/${name}`, 'OUT_OF_RANGE'), range)
    t.equal(await fails(t, 'password', { [name]: '1' }, `#/${name}`, 'TYPE'), `“${name}” must be an integer.`)
    for (const wrong of [1.5, -0.5, true, null, '128', [1]]) await fails(t, 'password', { [name]: wrong }, `#/${name}`, 'TYPE')
  }
})

t.test('password: MINIMUMS_EXCEED_LENGTH at #/length, from the enabled sets only', async (t) => {
  const exceeds = (total: number, length: number) =>
    `The minimums of the enabled character sets add up to ${total}, more than “length” (${length}).`
  const over = (params: Record<string, unknown>) => fails(t, 'password', params, '#/length', 'MINIMUMS_EXCEED_LENGTH')
  t.equal(await over({ length: 10, minNumbers: 5, minSymbols: 4 }), exceeds(11, 10))
  // The defaults' minimums of 1 count too
  t.equal(await over({ length: 6, minSymbols: 4 }), exceeds(7, 6))
  t.equal(await over({ minUppercase: 128 }), exceeds(131, 20))
  t.equal(await over({ length: 128, minUppercase: 128, minLowercase: 128, minNumbers: 128, minSymbols: 128 }), exceeds(512, 128))
  t.equal(await over({ ...roomFor(128), minSymbols: 128, minNumbers: 1 }), exceeds(129, 128))
  t.equal(await over({ length: 6, uppercase: false, lowercase: false, minNumbers: 4, minSymbols: 3 }), exceeds(7, 6))
  // An exact fit is valid
  await ok(t, 'password', { length: 6, minUppercase: 3, minLowercase: 3, minNumbers: 0, minSymbols: 0 })
  await ok(t, 'password', { length: 128, minUppercase: 32, minLowercase: 32, minNumbers: 32, minSymbols: 32, avoidAmbiguous: true })
  // A disabled set's minimum is ignored: it neither raises the error nor adds to the total
  await ok(t, 'password', { length: 6, symbols: false, minSymbols: 128 })
  await ok(t, 'password', { length: 6, uppercase: false, lowercase: false, minUppercase: 128, minLowercase: 128, minNumbers: 3, minSymbols: 3 })
  t.equal(await over({ length: 6, symbols: false, minSymbols: 128, minNumbers: 5 }), exceeds(7, 6))
  // No set enabled: NO_CHARACTER_SET alone, whatever the minimums
  const none = { uppercase: false, lowercase: false, numbers: false, symbols: false }
  t.equal(await fails(t, 'password', { ...none, length: 6, minUppercase: 128, minSymbols: 128 }, '#', 'NO_CHARACTER_SET'),
    'Enable at least one character set: uppercase, lowercase, numbers or symbols.')
  // The rules are checked on valid parameters only: a schema error is reported alone
  await fails(t, 'password', { length: 5, minSymbols: 6 }, '#/length', 'OUT_OF_RANGE')
  await fails(t, 'password', { length: 6, minSymbols: 6, quantity: 0 }, '#/quantity', 'OUT_OF_RANGE')
})

t.test('password symbolSet: 1..32 distinct ASCII punctuation characters', async (t) => {
  const punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
  const refused = '“symbolSet” must hold 1 to 32 distinct ASCII punctuation characters, from !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~, each once.'
  // min and max; every one of the 32 alone; checked (and unused) with symbols off
  for (const symbolSet of ['!', punctuation, ...punctuation, '!@#$%^&*']) await ok(t, 'password', { symbolSet })
  await ok(t, 'password', { symbolSet: '~', symbols: false })
  t.equal(await fails(t, 'password', { symbolSet: '' }, '#/symbolSet', 'TOO_SHORT'), '“symbolSet” must have at least 1 character(s).')
  t.equal(await fails(t, 'password', { symbolSet: punctuation + '!' }, '#/symbolSet', 'TOO_LONG'), '“symbolSet” must have at most 32 character(s).')
  await fails(t, 'password', { symbolSet: 'a'.repeat(33) }, '#/symbolSet', 'TOO_LONG')
  // Every class of character that is not one of the 32, and a repeat
  for (const symbolSet of ['!!', '!@!', 'a', 'Z', '0', '9', ' ', '! ', '\t', '\n', '\u0000', '\u007f', 'é', '€', '😀', '！', '\u00a0', '\ud800', '!a', '@A', '#5']) {
    t.equal(await fails(t, 'password', { symbolSet }, '#/symbolSet', 'NOT_ALLOWED_VALUE'), refused, JSON.stringify(symbolSet))
    await fails(t, 'password', { symbolSet, symbols: false }, '#/symbolSet', 'NOT_ALLOWED_VALUE')
  }
  t.equal(await fails(t, 'password', { symbolSet: 1 }, '#/symbolSet', 'TYPE'), '“symbolSet” must be a string.')
  for (const wrong of [true, null, ['!'], {}, 33]) await fails(t, 'password', { symbolSet: wrong }, '#/symbolSet', 'TYPE')
})

t.test('password exclude: 0..128 printable ASCII characters', async (t) => {
  const printable = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('')
  const refused = '“exclude” must hold printable ASCII characters only, from ! to ~ (no space).'
  await ok(t, 'password', { exclude: '' })
  await ok(t, 'password', { exclude: 'x'.repeat(128) }, 1)
  await ok(t, 'password', { exclude: '!~' })
  t.equal(await fails(t, 'password', { exclude: 'x'.repeat(129) }, '#/exclude', 'TOO_LONG'), '“exclude” must have at most 128 character(s).')
  // Every printable character alone is allowed; everything outside ! to ~ is refused
  for (const character of printable) {
    const { status } = await both(t, 'password', { exclude: character })
    t.equal(status, 200, `exclude ${character}`)
  }
  for (const exclude of [' ', 'a b', '\t', '\n', '\u0000', '\u007f', 'é', '€', '😀', '！', '\u00a0', '\ud800', 'aé']) {
    t.equal(await fails(t, 'password', { exclude }, '#/exclude', 'NOT_ALLOWED_VALUE'), refused, JSON.stringify(exclude))
  }
  t.equal(await fails(t, 'password', { exclude: 1 }, '#/exclude', 'TYPE'), '“exclude” must be a string.')
  for (const wrong of [true, null, ['a'], {}]) await fails(t, 'password', { exclude: wrong }, '#/exclude', 'TYPE')
  // EMPTY_SET: an enabled set left empty, at its flag
  t.equal(await fails(t, 'password', { exclude: '0123456789' }, '#/numbers', 'EMPTY_SET'), '“numbers” is enabled, but “exclude” and “avoidAmbiguous” leave its set with no character.')
  await ok(t, 'password', { exclude: '0123456789', numbers: false })
})

t.test('number exclusions: at most 1000 items, each a base-10 integer', async (t) => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1000))
  await ok(t, 'number', { exclusions: many(1000) })
  t.equal(await fails(t, 'number', { exclusions: many(1001) }, '#/exclusions', 'TOO_MANY_ITEMS'), '“exclusions” must have at most 1000 items.')
  for (const wrong of ['1.5', 'abc', '', '+1', '1e3', ' 1', '0x10', '１']) {
    const detail = await fails(t, 'number', { exclusions: ['5', wrong] }, '#/exclusions/1', 'NOT_AN_INTEGER')
    t.equal(detail, '“exclusions[1]” must be a base-10 integer, such as "7" or "-12".')
  }
  for (const wrong of [1.5, true, null, {}, ['1']]) {
    const detail = await fails(t, 'number', { exclusions: [wrong] }, '#/exclusions/0', 'TYPE')
    t.equal(detail, '“exclusions[0]” must be a string or an integer.')
  }
  for (const wrong of ['5', 5, null, {}]) await fails(t, 'number', { exclusions: wrong }, '#/exclusions', 'TYPE')
})

t.test('every problem is listed, in one response', async (t) => {
  const { status, body } = await both(t, 'password', { length: 5, quantity: 51, lenght: 1, symbols: 'no' })
  t.equal(status, 400)
  t.same(body.errors.map((e: any) => e.pointer).sort(), ['#/lenght', '#/length', '#/quantity', '#/symbols'])
  t.equal(body.detail, body.errors[0].detail)
  const many = await both(t, 'number', { exclusions: ['x', 'y', 3, 'z'] })
  t.same(many.body.errors.map((e: any) => e.pointer), ['#/exclusions/0', '#/exclusions/1', '#/exclusions/3'])
})

t.test('token prefix: 1..16 characters a-z 0-9, a letter first; anything else NOT_ALLOWED_VALUE', async (t) => {
  for (const prefix of ['a', 'ghp', 'myapp', 'a0', 'abcdefghijklmnop', 'z9z9z9z9z9z9z9z9']) await ok(t, 'token', { prefix })
  const rule = '“prefix” must be lowercase letters a–z and digits 0–9, starting with a letter.'
  for (const wrong of ['0ab', '9', 'Ghp', 'gH', 'gh_p', 'gh-p', 'ghp ', ' ghp', 'é', 'ghp\n', '_', 'a.b', 'ａ', 'ı']) {
    t.equal(await fails(t, 'token', { prefix: wrong }, '#/prefix', 'NOT_ALLOWED_VALUE'), rule, JSON.stringify(wrong))
  }
  t.equal(await fails(t, 'token', { prefix: '' }, '#/prefix', 'TOO_SHORT'), '“prefix” must have at least 1 character(s).')
  t.equal(await fails(t, 'token', { prefix: 'a'.repeat(17) }, '#/prefix', 'TOO_LONG'), '“prefix” must have at most 16 character(s).')
  for (const wrong of [1, true, null, ['a']]) await fails(t, 'token', { prefix: wrong }, '#/prefix', 'TYPE')
})

t.test('totp issuer 0..64 and account 1..64 code points, no control character, no colon, no lone surrogate', async (t) => {
  const longest = '😀'.repeat(64)
  for (const name of ['issuer', 'account']) {
    for (const value of ['a', 'Example Co', 'a@b.example', ' %/?#&+=;,!\'()*[]', 'Zürich ☃', longest, 'x'.repeat(64), '\u00a0\u200b\u2060']) {
      await ok(t, 'totp', { [name]: value })
    }
    const rule = `“${name}” must not contain a colon (:), control characters or unpaired surrogates.`
    for (const wrong of [':', 'a:b', '\u0000', 'a\nb', '\t', '\u007f', '\u0085', '\u009f', '\ud800', 'a\udc00b', '\ude00\ud83d']) {
      t.equal(await fails(t, 'totp', { [name]: wrong }, `#/${name}`, 'NOT_ALLOWED_VALUE'), rule, JSON.stringify(wrong))
    }
    t.equal(await fails(t, 'totp', { [name]: longest + 'a' }, `#/${name}`, 'TOO_LONG'), `“${name}” must have at most 64 character(s).`)
    for (const wrong of [1, true, null, ['a'], {}]) await fails(t, 'totp', { [name]: wrong }, `#/${name}`, 'TYPE')
  }
  await ok(t, 'totp', { issuer: '' })
  t.equal(await fails(t, 'totp', { account: '' }, '#/account', 'TOO_SHORT'), '“account” must have at least 1 character(s).')
})
