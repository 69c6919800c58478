// CONTRACT §10 .env form, the property behind its refusals: for every generator and many random
// valid parameter sets, either the item is refused (GeneratorDefinition.notRepresentable, decided
// from the parameters) or the values it draws never hold `'`, `\` or a control character (Cc),
// which a single-quoted line cannot carry. Parameters are drawn from alphabets full of exactly
// those characters, and validated (defaults filled in) by AJV with the routes' own schemas.
import t from 'tap'
import { HASH_SCHEMAS } from '../../schemas/hash.js'
import fc from 'fast-check'
import { Ajv } from 'ajv'
import type { TObject } from '@sinclair/typebox'
import { VPN_PROTOCOLS } from '../../schemas/vpn.js'
import { UUID_FORMATS } from '../../schemas/uuid.js'
import { SEQ_ENCODINGS } from '../../schemas/seq.js'
import { PHRASE_LANGUAGES, PHRASE_WORD_COUNTS } from '../../schemas/phrase.js'
import { PASSPHRASE_WORD_LISTS } from '../../schemas/passphrase.js'
import { TOTP_ALGORITHMS } from '../../schemas/totp.js'
import { PUNCTUATION } from '../../plugins/password.js'
import { generatorsOf, type GeneratorDefinition } from '../../src/http/generator-route.js'
import { ParameterError } from '../../src/http/parameter-error.js'
import { UNQUOTABLE } from '../../src/http/env-file.js'
import { build, GENERATORS } from '../helper.js'

/** What the client may type: the characters .env readers treat specially, quotes, controls, letters of other scripts. */
const TRICKY = [...'\'\\"`$#&= -_.:;!{}()|*?~^%@/+', '\n', '\r', '\t', '\u0000', '\u007f', '\u0085', '\u2028', '\u3000', 'é', 'ß', 'ж', '中', '😀', '\u0301', 'a', 'Z', '7']
const tricky = (maxLength: number) => fc.string({ unit: fc.constantFrom(...TRICKY), maxLength })
const printable = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength })
const quantity = fc.integer({ min: 1, max: 50 })

const ARBITRARIES: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  password: fc.record({
    length: fc.integer({ min: 6, max: 48 }),
    uppercase: fc.boolean(),
    lowercase: fc.boolean(),
    numbers: fc.boolean(),
    symbols: fc.boolean(),
    minSymbols: fc.integer({ min: 0, max: 3 }),
    avoidAmbiguous: fc.boolean(),
    symbolSet: fc.shuffledSubarray([...PUNCTUATION], { minLength: 1, maxLength: 32 }).map((characters) => characters.join('')),
    exclude: fc.string({ unit: fc.constantFrom(...PUNCTUATION, ...'AaZz09'), maxLength: 12 }),
    quantity
  }, { requiredKeys: [] }),
  passphrase: fc.record({ words: fc.integer({ min: 3, max: 8 }), wordList: fc.constantFrom(...PASSPHRASE_WORD_LISTS), separator: tricky(4), capitalize: fc.boolean(), includeNumber: fc.boolean(), quantity }, { requiredKeys: [] }),
  number: fc.record({ min: fc.integer({ min: -1e6, max: 0 }), max: fc.integer({ min: 0, max: 1e6 }), exclusions: fc.array(fc.integer({ min: -10, max: 10 }).map(String), { maxLength: 5 }), unique: fc.boolean(), quantity }, { requiredKeys: [] }),
  vpn: fc.record({ protocol: fc.constantFrom(...VPN_PROTOCOLS), length: fc.integer({ min: 2, max: 256 }), quantity: fc.integer({ min: 1, max: 20 }) }, { requiredKeys: [] }),
  uuid: fc.record({ format: fc.constantFrom(...UUID_FORMATS), length: fc.integer({ min: 2, max: 256 }), quantity }, { requiredKeys: [] }),
  phrase: fc.record({ words: fc.constantFrom(...PHRASE_WORD_COUNTS), language: fc.constantFrom(...PHRASE_LANGUAGES), separator: tricky(4), quantity }, { requiredKeys: [] }),
  // A prefix of any printable character, the refused ones included (CONTRACT §14.2), or tricky ones
  seq: fc.record({ byteLength: fc.integer({ min: 2, max: 256 }), encoding: fc.constantFrom(...SEQ_ENCODINGS), prefix: fc.oneof(printable(16), tricky(16)), padding: fc.boolean(), quantity }, { requiredKeys: [] }),
  'short-id': fc.record({ length: fc.integer({ min: 2, max: 256 }), quantity }, { requiredKeys: [] }),
  pin: fc.record({ length: fc.integer({ min: 4, max: 12 }), avoidWeak: fc.boolean(), quantity }, { requiredKeys: [] }),
  'ssh-key': fc.record({ comment: printable(64), quantity: fc.integer({ min: 1, max: 3 }) }, { requiredKeys: [] }),
  'age-key': fc.record({ quantity }, { requiredKeys: [] }),
  token: fc.record({ prefix: fc.string({ unit: fc.constantFrom(...'abcxyz019_\'\\'), minLength: 1, maxLength: 16 }), length: fc.integer({ min: 16, max: 128 }), quantity }, { requiredKeys: [] }),
  totp: fc.record({ issuer: tricky(20), account: tricky(20), algorithm: fc.constantFrom(...TOTP_ALGORITHMS), quantity }, { requiredKeys: [] }),
  // RSA keys are made on the pool, not by `generate`; their JWK and PEM are the same encodings as these
  'signing-key': fc.record({ algorithm: fc.constantFrom('EdDSA', 'ES256', 'ES384', 'HS256', 'HS384', 'HS512'), format: fc.constantFrom('jwk', 'jwk', 'pem', 'vapid', 'synapse'), quantity: fc.integer({ min: 1, max: 20 }) }, { requiredKeys: [] })
}

// The routes' AJV options that matter here: defaults filled in, no coercion, every error
const ajv = new Ajv({ useDefaults: true, coerceTypes: false, allowUnionTypes: true, strict: false, discriminator: true })
// CONTRACT §12: password's and passphrase's `hash` refers to the named choice
for (const schema of HASH_SCHEMAS) ajv.addSchema(schema)

t.test('every generator is covered', async (t) => {
  t.same(Object.keys(ARBITRARIES).sort(), [...GENERATORS].sort())
})

t.test('property: an item the .env form takes never draws a value with \', \\ or a control character', async (t) => {
  const app = await build(t)
  for (const definition of generatorsOf(app) as Array<GeneratorDefinition<TObject>>) {
    const validate = ajv.compile(definition.params)
    const tally = { invalid: 0, refused: 0, drawn: 0, values: 0 }
    fc.assert(fc.property(ARBITRARIES[definition.type] as fc.Arbitrary<Record<string, unknown>>, (sent) => {
      const params = structuredClone(sent)
      if (!validate(params)) { tally.invalid++; return true }
      try {
        definition.check?.(params)
      } catch (error) {
        if (error instanceof ParameterError) { tally.invalid++; return true }
        throw error
      }
      if ((definition.notRepresentable?.(params) ?? []).length > 0) { tally.refused++; return true }
      // Drawn whatever the quantity: the property is about what a value of these parameters can hold
      const { values, publicKeys = [], hashes = [] } = definition.generate(params)
      tally.drawn++
      tally.values += values.length
      return [...values, ...publicKeys, ...hashes].every((value) => !UNQUOTABLE.test(value))
    }), { numRuns: 300 })
    t.ok(tally.drawn + tally.refused > 0, `${definition.type}: ${JSON.stringify(tally)}`)
    // Every generator but ssh-key has parameters that are drawn; those with a refusal meet it too
    if (definition.type === 'ssh-key') t.equal(tally.drawn, 0, 'ssh-key: always refused')
    else t.ok(tally.values >= 1000, `${definition.type}: thousands of values drawn (${tally.values})`)
    if (['password', 'passphrase', 'phrase'].includes(definition.type)) t.ok(tally.refused > 0, `${definition.type}: some parameter sets refused (${tally.refused})`)
  }
})
