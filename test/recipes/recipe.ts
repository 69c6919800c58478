// What every recipe's test does first (CONTRACT §14.1): ask POST /api/generate for `{"recipe": id}`
// as JSON and as a .env, and read both as name → value in the .env's order, so a test checks the
// names and forms once and hands the values to the app's reader. The decoders here are Python's
// (Debian's /usr/bin/python3: base64 and bytes.fromhex), strict, never the service's own code.
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { spawnSync } from 'node:child_process'
import { envValues } from '../env-readers.js'
import { DEBIAN_PYTHON } from '../hash-readers.js'

export interface ItemAnswer {
  name: string
  type: string
  values: string[]
  entropyBits: number
  publicKeys?: string[]
  hashes?: string[]
}

/** POST /api/generate with `{"recipe": id}`; `accept` as given (JSON when absent). */
export function postRecipe (app: FastifyInstance, id: string, accept?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/generate',
    headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
    payload: JSON.stringify({ recipe: id })
  })
}

export interface RecipeAnswers {
  /** The `.env` answer's lines, name → value, in its order. */
  env: Map<string, string>
  /** The `.env` answer as written. */
  text: string
  /** The JSON answer's items. */
  items: ItemAnswer[]
  /** The JSON answer read as the .env would be: each value, then its public key, then its hash, named by the .env's names. */
  json: Map<string, string>
  /** The JSON answer's generatedAt. */
  generatedAt: string
}

/**
 * Both answers to `{"recipe": id}`, each checked: 200, the .env's content type, and the .env's
 * names exactly `names` in order; the JSON answer carries one value per item, and its values,
 * public keys and hashes line up with those names.
 */
export async function recipeAnswers (t: Test, app: FastifyInstance, id: string, names: readonly string[]): Promise<RecipeAnswers> {
  const [jsonResponse, envResponse] = [await postRecipe(app, id), await postRecipe(app, id, 'text/plain')]
  t.equal(jsonResponse.statusCode, 200, jsonResponse.statusCode === 200 ? 'JSON: answered' : jsonResponse.body)
  t.equal(envResponse.statusCode, 200, envResponse.statusCode === 200 ? '.env: answered' : envResponse.body)
  t.match(envResponse.headers['content-type'], /^text\/plain; charset=utf-8$/)
  const text = envResponse.body
  const env = envValues(text)
  t.same([...env.keys()], names, '.env: the names, in order')
  const { items, generatedAt } = jsonResponse.json() as { items: ItemAnswer[], generatedAt: string }
  const flat = items.flatMap((item) => {
    t.equal(item.values.length, 1, `JSON: ${item.name} has one value`)
    return [item.values[0], item.publicKeys?.[0], item.hashes?.[0]].filter((value): value is string => value !== undefined)
  })
  t.equal(flat.length, names.length, 'JSON: a value, public key or hash for each name')
  t.same(items.map((item) => item.name), names.filter((name) => items.some((item) => item.name === name)), 'JSON: the items in the .env\'s order')
  return { env, text, items, generatedAt, json: new Map(names.map((name, index) => [name, flat[index] as string])) }
}

/** Each of `answers`' values matches its name's form; every name has a form. */
export function checkForms (t: Test, answers: RecipeAnswers, forms: Readonly<Record<string, RegExp>>): void {
  t.same(Object.keys(forms).sort(), [...answers.env.keys()].sort(), 'a form for every name')
  for (const [label, values] of [['.env', answers.env], ['JSON', answers.json]] as const) {
    for (const [name, value] of values) t.match(value, forms[name] as RegExp, `${label}: ${name}'s form`)
  }
}

/** `env`'s value of `name`; fails the test when it is missing. */
export function valueOf (env: ReadonlyMap<string, string>, name: string): string {
  const value = env.get(name)
  if (value === undefined) throw new Error(`no ${name} line`)
  return value
}

/** `base64-unpadded`: the standard alphabet without `=` (Synapse's and signedjson's unpaddedbase64). */
export type Encoding = 'hex' | 'base64' | 'base64-unpadded' | 'base64url' | 'utf8'

const DECODE = String.raw`
import base64, binascii, json, sys
def decode(value, encoding):
    if encoding == 'hex':
        data = bytes.fromhex(value)
        again = data.hex()
    elif encoding == 'base64':
        data = base64.b64decode(value, validate=True)
        again = base64.b64encode(data).decode('ascii')
    elif encoding == 'base64-unpadded':
        if '=' in value:
            raise ValueError('padded')
        data = base64.b64decode(value + '=' * (-len(value) % 4), validate=True)
        again = base64.b64encode(data).decode('ascii').rstrip('=')
    elif encoding == 'base64url':
        # unpadded, as RFC 4648 section 5 allows: the padding put back before the strict decoder
        if '=' in value or '+' in value or '/' in value:
            raise ValueError('not unpadded Base64url')
        data = base64.b64decode(value.replace('-', '+').replace('_', '/') + '=' * (-len(value) % 4), validate=True)
        again = base64.urlsafe_b64encode(data).decode('ascii').rstrip('=')
    else:
        data = value.encode('utf-8')
        again = value
    return {'bytes': len(data), 'canonical': again == value}
out = {}
for name, (value, encoding) in json.load(sys.stdin).items():
    try:
        out[name] = decode(value, encoding)
    except (ValueError, binascii.Error) as refused:
        out[name] = {'error': f'{type(refused).__name__}: {refused}'}
print(json.dumps(out))
`

export interface Decoded {
  /** How many bytes Python decoded. */
  bytes?: number
  /** Python's encoder writes the same text back (no stray bits, the canonical padding). */
  canonical?: boolean
  /** Python's refusal. */
  error?: string
}

/** What Python's strict decoders make of each value: its byte count, or the refusal. */
export function pythonDecode (values: Readonly<Record<string, readonly [string, Encoding]>>): Record<string, Decoded> {
  const run = spawnSync(DEBIAN_PYTHON, ['-c', DECODE], { input: JSON.stringify(values), encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`)
  return JSON.parse(run.stdout) as Record<string, Decoded>
}

/** Checks each value decodes, canonically, to its number of bytes; and that the decoder refuses a broken copy of the first. */
export function checkDecoded (t: Test, values: Readonly<Record<string, readonly [string, Encoding, number]>>): void {
  const asked = Object.fromEntries(Object.entries(values).map(([name, [value, encoding]]) => [name, [value, encoding] as const]))
  const [first, [firstValue, firstEncoding]] = Object.entries(values)[0] as [string, readonly [string, Encoding, number]]
  // A character no encoding here has: the decoder must say no, or its yes would mean nothing
  const broken = firstEncoding === 'utf8' ? undefined : `${firstValue.slice(0, -1)}!`
  const decoded = pythonDecode(broken === undefined ? asked : { ...asked, BROKEN: [broken, firstEncoding] })
  for (const [name, [, encoding, bytes]] of Object.entries(values)) {
    t.same(decoded[name], { bytes, canonical: true }, `${name}: Python's ${encoding} decoder gives ${bytes} bytes`)
  }
  if (broken !== undefined) t.match(decoded.BROKEN?.error, /Error/, `Python's ${firstEncoding} decoder refuses ${first} with a character changed`)
}
