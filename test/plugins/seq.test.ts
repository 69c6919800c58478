import t from 'tap'
import fc from 'fast-check'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateSequences, SEQ_ALPHABET } from '../../plugins/seq.js'
import { SEQ_PREFIX_CHARACTERS, SEQ_PREFIX_MAX_LENGTH, SEQ_PREFIX_PATTERN, SEQ_VALUE_MAX_LENGTH } from '../../schemas/seq.js'
import { build, callTool, get, post } from '../helper.js'

const SHAPES = {
  hex: (n: number) => new RegExp(`^[0-9a-f]{${2 * n}}$`),
  // Standard alphabet, padded to a multiple of 4
  base64: (n: number) => new RegExp(`^[A-Za-z0-9+/]{${4 * Math.floor(n / 3)}}([A-Za-z0-9+/]{${n % 3 === 0 ? 0 : n % 3 + 1}})${'='.repeat((3 - n % 3) % 3)}$`),
  // RFC 4648 §5 alphabet, no padding
  base64url: (n: number) => new RegExp(`^[A-Za-z0-9_-]{${Math.ceil(4 * n / 3)}}$`)
} as const

function decodesTo (value: string, encoding: keyof typeof SHAPES, byteLength: number): boolean {
  const bytes = Buffer.from(value, encoding)
  return bytes.length === byteLength && bytes.toString(encoding) === value && SHAPES[encoding](byteLength).test(value)
}

t.test('generateSequences: property: each encoding decodes back to byteLength bytes', async (t) => {
  fc.assert(fc.property(
    fc.constantFrom('hex', 'base64', 'base64url'),
    fc.integer({ min: 2, max: 256 }),
    fc.integer({ min: 1, max: 50 }),
    (encoding, byteLength, quantity) => {
      const values = generateSequences({ encoding, byteLength, quantity })
      return values.length === quantity && values.every((value) => decodesTo(value, encoding, byteLength))
    }
  ), { numRuns: 300 })
  t.pass('300 runs')
})

t.test('HTTP', async (t) => {
  const app = await build(t)

  t.test('defaults: 32 bytes as 64 lowercase hex characters', async (t) => {
    const response = await post(app, 'seq', {})
    t.match(response.json().values[0], /^[0-9a-f]{64}$/)
  })

  t.test('every encoding at 2, 3, 4, 5 and 256 bytes', async (t) => {
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      for (const byteLength of [2, 3, 4, 5, 256]) {
        const response = await get(app, 'seq', { encoding, byteLength, quantity: 3 })
        for (const value of response.json().values) t.ok(decodesTo(value, encoding, byteLength), `${encoding} ${byteLength}: ${value.length} chars`)
      }
    }
    // Padding and alphabet by example
    const padded = (await post(app, 'seq', { encoding: 'base64', byteLength: 2 })).json().values[0]
    t.match(padded, /^[A-Za-z0-9+/]{3}=$/)
    const unpadded = (await post(app, 'seq', { encoding: 'base64url', byteLength: 2 })).json().values[0]
    t.match(unpadded, /^[A-Za-z0-9_-]{3}$/)
  })
})

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/**
 * An RFC 4648 §6 decoder written here, independent of @scure/base: 5 bits per character,
 * most significant first; the bits left over at the end must be zero (canonical encoding).
 */
function decodeBase32 (text: string): Buffer | undefined {
  const bytes: number[] = []
  let buffer = 0
  let bits = 0
  for (const character of text) {
    const value = BASE32_ALPHABET.indexOf(character)
    if (value < 0) return undefined
    buffer = (buffer << 5 | value) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push(buffer >> bits & 0xff)
    }
  }
  if (bits >= 5 || (buffer & ((1 << bits) - 1)) !== 0) return undefined
  return Buffer.from(bytes)
}

t.test('base32: unpadded upper-case RFC 4648 §6, decoding back to exactly byteLength bytes', async (t) => {
  // RFC 4648 §10's test vectors, unpadded, through the decoder above (so the decoder is right too)
  for (const [text, encoded] of [['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'], ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']]) {
    t.equal(decodeBase32(encoded as string)?.toString(), text)
  }
  fc.assert(fc.property(fc.integer({ min: 2, max: 256 }), fc.integer({ min: 1, max: 50 }), (byteLength, quantity) => {
    const values = generateSequences({ encoding: 'base32', byteLength, quantity })
    return values.length === quantity && values.every((value) =>
      /^[A-Z2-7]+$/.test(value) && value.length === Math.ceil(byteLength * 8 / 5) && decodeBase32(value)?.length === byteLength)
  }), { numRuns: 300 })
  const app = await build(t)
  for (const send of [post, get]) {
    const response = await send(app, 'seq', { encoding: 'base32', byteLength: 20, quantity: 5 })
    t.equal(response.json().entropyBits, 160)
    for (const value of response.json().values) t.equal(decodeBase32(value)?.length, 20, `${value}: 20 bytes`)
  }
})

// CONTRACT §14.2: prefix and padding. Each value is decoded by readers no one here wrote:
// Debian's /usr/bin/python3 base64 module, and cryptography's Fernet for Fernet keys.

const PYTHON = '/usr/bin/python3'
const ENCODINGS = ['hex', 'base64', 'base64url', 'base32'] as const
type Encoding = typeof ENCODINGS[number]

/** `=` padding CONTRACT §14.2 gives each encoding when `padding` is left out. */
const PADDED_WHEN_LEFT_OUT: Record<Encoding, boolean> = { hex: false, base64: true, base64url: false, base32: false }

interface Decoded { bytes: number, reencoded: string, error?: string }

/**
 * Python's base64 module decodes each value (after its prefix): strictly (`validate=True` for
 * Base64, base32 as RFC 4648 has it, hex by bytes.fromhex), the padding added first where the value
 * is unpadded, as Python's decoders want it; then re-encodes the bytes, padded. Any refusal is its
 * error message.
 */
function pythonDecode (cases: ReadonlyArray<{ encoding: Encoding, text: string }>): Decoded[] {
  const script = String.raw`
import base64, binascii, json, sys
out = []
for case in json.load(sys.stdin):
    enc, text = case['encoding'], case['text']
    try:
        if enc == 'hex':
            raw = bytes.fromhex(text)
            again = raw.hex()
        elif enc == 'base32':
            raw = base64.b32decode(text + '=' * (-len(text) % 8))
            again = base64.b32encode(raw).decode()
        else:
            std = text.translate(str.maketrans('-_', '+/')) if enc == 'base64url' else text
            if enc == 'base64url' and ('+' in text or '/' in text):
                raise ValueError('standard alphabet in base64url')
            raw = base64.b64decode(std + '=' * (-len(std) % 4), validate=True)
            again = (base64.urlsafe_b64encode if enc == 'base64url' else base64.b64encode)(raw).decode()
        out.append({'bytes': len(raw), 'reencoded': again})
    except (ValueError, binascii.Error) as error:
        out.append({'bytes': -1, 'reencoded': '', 'error': str(error)})
json.dump(out, sys.stdout)
`
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(cases), maxBuffer: 64 << 20 }).toString()) as Decoded[]
}

/** The text with the `=` padding its encoding's quantum takes (none for hex). */
const withPadding = (encoding: Encoding, text: string): string =>
  encoding === 'hex' ? text : text + '='.repeat((encoding === 'base32' ? -text.length & 7 : -text.length & 3))

t.test('python\'s decoder reads what it should and refuses what it should (so it can fail)', async (t) => {
  const [good, bad, mixed, odd] = pythonDecode([
    { encoding: 'base64', text: 'Zm9vYg==' }, { encoding: 'base64', text: 'Zm9v*g==' },
    { encoding: 'base64url', text: 'ab+/' }, { encoding: 'base32', text: 'MZXW6Y' }
  ])
  t.same(good, { bytes: 4, reencoded: 'Zm9vYg==' })
  t.ok(bad?.error, 'a character outside the alphabet is refused')
  t.ok(mixed?.error, 'the standard alphabet in base64url is refused')
  t.ok(odd?.error, 'a base32 length no byte count has is refused')
})

t.test('property: after its prefix each value decodes (python) to byteLength bytes and re-encodes to itself, padded as asked', async (t) => {
  const prefixes = fc.string({ unit: fc.constantFrom(...SEQ_PREFIX_CHARACTERS), maxLength: SEQ_PREFIX_MAX_LENGTH })
  const draws = fc.sample(fc.record({
    encoding: fc.constantFrom(...ENCODINGS),
    byteLength: fc.integer({ min: 2, max: 256 }),
    prefix: prefixes,
    padding: fc.option(fc.boolean(), { nil: undefined }),
    quantity: fc.integer({ min: 1, max: 5 })
  }), 400).map((params) => params.encoding === 'hex' ? { ...params, padding: undefined } : params)
  // And every encoding and padding at the edges: each length modulo a quantum, the longest prefixes
  for (const encoding of ENCODINGS) {
    for (const padding of encoding === 'hex' ? [undefined] : [undefined, true, false]) {
      for (const byteLength of [2, 3, 4, 5, 6, 7, 255, 256]) {
        const start = (byteLength * 7) % (SEQ_PREFIX_CHARACTERS.length - SEQ_PREFIX_MAX_LENGTH)
        draws.push({ encoding, padding, byteLength, prefix: SEQ_PREFIX_CHARACTERS.slice(start, start + SEQ_PREFIX_MAX_LENGTH), quantity: 2 })
      }
    }
  }
  const made = draws.flatMap((params) => generateSequences(params).map((value) => ({ params, value })))
  for (const { params, value } of made) if (!value.startsWith(params.prefix)) t.fail(`${value} does not start with ${params.prefix}`)
  const decoded = pythonDecode(made.map(({ params, value }) => ({ encoding: params.encoding, text: value.slice(params.prefix.length) })))
  let checked = 0
  for (const [index, { params, value }] of made.entries()) {
    const text = value.slice(params.prefix.length)
    const padded = params.padding ?? PADDED_WHEN_LEFT_OUT[params.encoding]
    const { bytes, reencoded, error } = decoded[index] as Decoded
    const fine = error === undefined && bytes === params.byteLength &&
      // Python writes padding: an unpadded value is that without its `=`, a padded one that exactly
      (padded ? reencoded === text && text === withPadding(params.encoding, text.replace(/=+$/, '')) : reencoded === withPadding(params.encoding, text) && !text.includes('='))
    if (!fine) t.fail(`${JSON.stringify(params)}: ${value} -> ${JSON.stringify(decoded[index])}`)
    else checked++
  }
  t.equal(checked, made.length, `${made.length} values of ${draws.length} parameter sets decoded and re-encoded`)
  t.ok(made.some(({ value }) => value.endsWith('=')) && made.some(({ params }) => params.prefix.length === SEQ_PREFIX_MAX_LENGTH), 'padded values and full-length prefixes among them')
})

t.test('the prefix\'s characters: the schema\'s pattern, its list, and the route\'s alphabet agree', async (t) => {
  const pattern = new RegExp(SEQ_PREFIX_PATTERN, 'u')
  const taken: string[] = []
  for (let code = 0; code <= 0xffff; code++) if (pattern.test(String.fromCharCode(code))) taken.push(String.fromCharCode(code))
  t.equal(taken.join(''), SEQ_PREFIX_CHARACTERS, 'the pattern takes exactly the listed characters')
  t.equal(SEQ_PREFIX_CHARACTERS.length, 90, 'printable ASCII (94) but \' " \\ and the backtick')
  t.notOk(/[\s'"\\`]/.test(SEQ_PREFIX_CHARACTERS), 'no space, quote, backslash or backtick')
  t.notOk(pattern.test('😀'), 'nor a character outside the BMP')
  for (const character of SEQ_PREFIX_CHARACTERS + '=') t.ok(SEQ_ALPHABET.includes(character), `${character}: in the alphabet values are written with`)
})

t.test('contract rows: defaults, padding by encoding, prefix before each value, entropyBits unchanged', async (t) => {
  const app = await build(t)
  const answer = async (params: Record<string, unknown>, send = post) => {
    const response = await send(app, 'seq', params)
    t.equal(response.statusCode, 200, `${JSON.stringify(params)}: ${response.body.slice(0, 200)}`)
    return response.json() as { values: string[], entropyBits: number }
  }
  t.match((await answer({})).values[0], /^[0-9a-f]{64}$/, 'defaults: no prefix, hex')
  // 32 bytes: Base64 pads one `=`, base32 four
  const shapes: Array<[Record<string, unknown>, RegExp]> = [
    [{ encoding: 'base64' }, /^[A-Za-z0-9+/]{43}=$/],
    [{ encoding: 'base64', padding: false }, /^[A-Za-z0-9+/]{43}$/],
    [{ encoding: 'base64url' }, /^[A-Za-z0-9_-]{43}$/],
    [{ encoding: 'base64url', padding: true }, /^[A-Za-z0-9_-]{43}=$/],
    [{ encoding: 'base32' }, /^[A-Z2-7]{52}$/],
    [{ encoding: 'base32', padding: true }, /^[A-Z2-7]{52}====$/],
    [{ encoding: 'base32', padding: false, byteLength: 20 }, /^[A-Z2-7]{32}$/],
    [{ encoding: 'base64', prefix: 'base64:' }, /^base64:[A-Za-z0-9+/]{43}=$/],
    [{ encoding: 'hex', prefix: '!#$%&()*+,-./:;<' }, /^!#\$%&\(\)\*\+,-\.\/:;<[0-9a-f]{64}$/]
  ]
  for (const [params, shape] of shapes) {
    for (const send of [post, get]) {
      const { values, entropyBits } = await answer({ ...params, quantity: 3 }, send)
      t.ok(values.every((value) => shape.test(value)), `${JSON.stringify(params)}: ${values[0] as string}`)
      t.equal(entropyBits, 8 * Number(params.byteLength ?? 32), 'entropyBits: 8 × byteLength, whatever prefix and padding')
    }
  }
  // A Fernet key's form, and Laravel's reader is left to take or refuse what it gets: 31 bytes are a value like any other
  t.match((await answer({ byteLength: 32, encoding: 'base64url', padding: true })).values[0], /^[A-Za-z0-9_-]{43}=$/)
  const short = (await answer({ byteLength: 31, encoding: 'base64', prefix: 'base64:' })).values[0] as string
  t.match(short, /^base64:[A-Za-z0-9+/]{42}==$/, '31 bytes with the base64: prefix: just a value')
  t.equal(Buffer.from(short.slice(7), 'base64').length, 31)
  // The longest value fills the result's bound
  const longest = (await answer({ byteLength: 256, prefix: 'p'.repeat(SEQ_PREFIX_MAX_LENGTH) })).values[0] as string
  t.equal(longest.length, SEQ_VALUE_MAX_LENGTH, 'a 16-character prefix before 256 hex bytes fills SEQ_VALUE_MAX_LENGTH')
})

t.test('refusals, each with its pointer and code, on the route (POST, GET), in a set and over MCP', async (t) => {
  const app = await build(t)
  const cases: Array<[Record<string, unknown>, string, string]> = [
    ...[' ', '\'', '"', '\\', '`', '\n', '\u007f', 'é', '😀'].map((bad): [Record<string, unknown>, string, string] => [{ prefix: `base64${bad}` }, 'prefix', 'NOT_ALLOWED_VALUE']),
    [{ prefix: 'a'.repeat(SEQ_PREFIX_MAX_LENGTH + 1) }, 'prefix', 'TOO_LONG'],
    [{ prefix: 7 }, 'prefix', 'TYPE'],
    [{ prefix: null }, 'prefix', 'TYPE'],
    [{ padding: true }, 'padding', 'NOT_ALLOWED_VALUE'],
    [{ encoding: 'hex', padding: false }, 'padding', 'NOT_ALLOWED_VALUE'],
    [{ encoding: 'base64', padding: 'true' }, 'padding', 'TYPE'],
    [{ encoding: 'base32', padding: null }, 'padding', 'TYPE']
  ]
  for (const [params, field, code] of cases) {
    for (const send of [post, get]) {
      const response = await send(app, 'seq', params)
      t.same([response.statusCode, response.json().errors?.map((error: { pointer: string, code: string }) => [error.pointer, error.code])], [400, [[`#/${field}`, code]]], `${send === post ? 'POST' : 'GET'} ${JSON.stringify(params)}`)
    }
    const set = await app.inject({ method: 'POST', url: '/api/generate', headers: { 'content-type': 'application/json' }, payload: { items: [{ name: 'FINE', type: 'seq' }, { name: 'BAD', type: 'seq', params }] } })
    t.same([set.statusCode, set.json().errors?.map((error: { pointer: string, code: string }) => [error.pointer, error.code])], [400, [[`#/items/1/params/${field}`, code]]], `set: ${JSON.stringify(params)}`)
    const tool = (await callTool(app, 'generate_seq', params)).json().result
    t.same([tool.isError, JSON.parse(tool.content[0].text).errors?.[0]?.pointer], [true, `#/${field}`], `MCP: ${JSON.stringify(params)}`)
  }
  // Each message in every language names the rule, not a list of allowed values
  for (const language of ['en', 'ru', 'de', 'fr', 'es']) {
    const prefix = (await post(app, 'seq', { prefix: 'a b' }, { 'x-language': language })).json()
    const padding = (await post(app, 'seq', { padding: true }, { 'x-language': language })).json()
    t.match(prefix.errors[0].detail, /~/, `${language}: the prefix's characters named`)
    t.match(padding.errors[0].detail, /base32/, `${language}: where padding applies`)
    t.equal(prefix.errors[0].detail, prefix.detail)
  }
})

t.test('.env form: a prefixed and a padded value, one line each, read back by sh', async (t) => {
  const app = await build(t)
  const response = await app.inject({
    method: 'POST',
    url: '/api/generate',
    headers: { 'content-type': 'application/json', accept: 'text/plain' },
    payload: { items: [{ name: 'APP_KEY', type: 'seq', params: { encoding: 'base64', prefix: 'base64:' } }, { name: 'FERNET_KEY', type: 'seq', params: { encoding: 'base64url', padding: true } }, { name: 'ODD', type: 'seq', params: { encoding: 'base32', padding: true, prefix: '$(id)&|;<>{}~!#' } }] }
  })
  t.equal(response.statusCode, 200, response.body)
  const lines = response.body.split('\n')
  t.equal(lines.length, 4)
  t.match(lines[0], /^APP_KEY='base64:[A-Za-z0-9+/]{43}='$/)
  t.match(lines[1], /^FERNET_KEY='[A-Za-z0-9_-]{43}='$/)
  t.match(lines[2], /^ODD='\$\(id\)&\|;<>\{\}~!#[A-Z2-7]{52}===='$/)
  t.equal(lines[3], '')
  const directory = mkdtempSync(join(tmpdir(), 'randgen-seq-'))
  t.teardown(() => rmSync(directory, { recursive: true, force: true }))
  writeFileSync(join(directory, '.env'), response.body)
  for (const shell of ['/bin/sh', '/bin/bash']) {
    const read = execFileSync(shell, ['-c', 'set -a; . ./.env; printf "%s\\n" "$APP_KEY" "$FERNET_KEY" "$ODD"'], { cwd: directory, env: {}, stdio: ['ignore', 'pipe', 'pipe'] }).toString()
    t.equal(read, lines.slice(0, 3).map((line) => line.slice(line.indexOf('=') + 2, -1) + '\n').join(''), `${shell}: every value byte for byte`)
  }
})

t.test('Fernet keys: cryptography\'s Fernet takes them, and refuses the unpadded and 31-byte forms', async (t) => {
  const app = await build(t)
  const keys = async (params: Record<string, unknown>) => (await post(app, 'seq', { ...params, quantity: 20 })).json().values as string[]
  const script = String.raw`
import json, sys
from cryptography.fernet import Fernet
out = []
for key in json.load(sys.stdin):
    try:
        f = Fernet(key)
        out.append(f.decrypt(f.encrypt(b'randgen')).decode())
    except ValueError as error:
        out.append('refused: ' + str(error))
json.dump(out, sys.stdout)
`
  const fernet = (values: string[]) => JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(values) }).toString()) as string[]
  t.same(fernet(await keys({ byteLength: 32, encoding: 'base64url', padding: true })), new Array(20).fill('randgen'), '20 Fernet keys encrypt and decrypt')
  const unpadded = fernet(await keys({ byteLength: 32, encoding: 'base64url' }))
  t.ok(unpadded.every((answer) => answer.startsWith('refused: ')), `unpadded base64url refused: ${unpadded[0] as string}`)
  const short = fernet(await keys({ byteLength: 31, encoding: 'base64url', padding: true }))
  t.ok(short.every((answer) => answer.startsWith('refused: ')), `31 bytes refused: ${short[0] as string}`)
})
