// src/http/precheck.ts refuses some bodies before AJV runs. Where it answers with the unknown fields
// alone, that answer must be the one AJV (with production's options) and the cap would give:
// this pins the AJV behaviour it relies on (additionalProperties reported first, in for-in order).
import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import fc from 'fast-check'
import { Type } from '@sinclair/typebox'
import { AjvCompiler } from '@fastify/ajv-compiler'
import { loadConfig } from '../../../src/ops/config.js'
import { precheckOf } from '../../../src/http/precheck.js'
import { serverOptions } from '../../../src/server-options.js'
import { fieldErrorsFromAjv, MAX_FIELD_PROBLEMS, type AjvError } from '../../../src/http/validation-errors.js'
import { NumberParams } from '../../../schemas/number.js'
import { PassphraseParams } from '../../../schemas/passphrase.js'
import { PasswordParams } from '../../../schemas/password.js'
import { PhraseParams } from '../../../schemas/phrase.js'
import { SeqParams } from '../../../schemas/seq.js'
import { ShortIdParams } from '../../../schemas/short-id.js'
import { PinParams } from '../../../schemas/pin.js'
import { SshKeyParams } from '../../../schemas/ssh-key.js'
import { AgeKeyParams } from '../../../schemas/age-key.js'
import { TokenParams } from '../../../schemas/token.js'
import { TotpParams } from '../../../schemas/totp.js'
import { UuidParams } from '../../../schemas/uuid.js'
import { VpnParams } from '../../../schemas/vpn.js'
import { HASH_SCHEMAS } from '../../../schemas/hash.js'

const PARAMS = [NumberParams, PassphraseParams, PasswordParams, PhraseParams, SeqParams, ShortIdParams, TokenParams, TotpParams, UuidParams, VpnParams, PinParams, SshKeyParams, AgeKeyParams]

const ajvOptions = serverOptions(loadConfig({ LOG_LEVEL: 'silent' })).ajv as { customOptions: Record<string, unknown> }
// CONTRACT §12: password's and passphrase's `hash` refers to the named choice, shared as the app shares it
const buildValidator = AjvCompiler()(Object.fromEntries(HASH_SCHEMAS.map((schema) => [schema.$id as string, schema])), { customOptions: ajvOptions.customOptions })

t.test('array limits come from the schema', async (t) => {
  const schema = Type.Object({
    a: Type.Array(Type.String(), { maxItems: 2 }),
    'b/c': Type.Array(Type.String(), { maxItems: 1 }),
    free: Type.Array(Type.String())
  }, { additionalProperties: false })
  const precheck = precheckOf(schema)
  t.same(precheck({ a: ['1', '2', '3'], 'b/c': ['1', '2'], free: Array(5000).fill('x') }), [
    { pointer: '#/a', code: 'TOO_MANY_ITEMS', args: { max: 2 } },
    { pointer: '#/b~1c', code: 'TOO_MANY_ITEMS', args: { max: 1 } }
  ])
  t.equal(precheck({ a: ['1', '2'], 'b/c': [], free: Array(5000).fill('x') }), undefined, 'at the limit: AJV decides')
  t.equal(precheck({ a: 'abcdef' }), undefined, 'not an array: AJV says TYPE')
  t.same(precheckOf(NumberParams)({ exclusions: Array(1001).fill('1') }), [{ pointer: '#/exclusions', code: 'TOO_MANY_ITEMS', args: { max: 1000 } }])
  t.equal(precheckOf(NumberParams)({ exclusions: Array(1000).fill({}) }), undefined)
})

t.test('unknown fields: refused before AJV from the 20th on, fewer left to AJV', async (t) => {
  const open = Type.Object({ a: Type.Integer() })
  t.equal(precheckOf(open)(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x${i}`, 0]))), undefined, 'no additionalProperties: false, no unknown fields')
  const precheck = precheckOf(PasswordParams)
  const unknown = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`x${i}`, 0]))
  t.equal(precheck({ length: 'x', ...unknown(MAX_FIELD_PROBLEMS - 1) }), undefined)
  t.same(precheck(unknown(MAX_FIELD_PROBLEMS + 5))?.map((problem) => problem.pointer),
    Array.from({ length: MAX_FIELD_PROBLEMS }, (_, i) => `#/x${i}`))
  // Fewer unknown fields than the cap still come before an oversized array, as in AJV's order
  t.same(precheckOf(NumberParams)({ zz: 1, exclusions: Array(1001).fill('1') })?.map((problem) => problem.code), ['UNKNOWN_FIELD', 'TOO_MANY_ITEMS'])
})

t.test('a refusal for unknown fields is exactly what AJV and the cap answer', async (t) => {
  for (const params of PARAMS) {
    const validate = buildValidator({ schema: params, method: 'POST', url: '/', httpPart: 'body' }) as
      ((data: unknown) => boolean) & { errors?: AjvError[] | null }
    const precheck = precheckOf(params)
    const known = Object.keys(params.properties)
    const parameters = fc.tuple(
      fc.dictionary(fc.oneof(fc.string(), fc.string({ minLength: 30, maxLength: 40 }), fc.nat().map(String)), fc.jsonValue(), { minKeys: 15, maxKeys: 40 }),
      fc.dictionary(fc.constantFrom(...known), fc.jsonValue())
    ).map(([extra, own]) => {
      // Known and unknown keys interleaved, as a client may send them
      const entries = [...Object.entries(extra), ...Object.entries(own)].sort(([a], [b]) => a.length - b.length)
      return Object.fromEntries(entries) as Record<string, unknown>
    })
    let compared = 0
    fc.assert(fc.property(parameters, (data) => {
      const early = precheck(data)
      if (early === undefined || early.some((problem) => problem.code !== 'UNKNOWN_FIELD')) return true
      compared++
      validate(structuredClone(data))
      return early.length === MAX_FIELD_PROBLEMS && isDeepStrictEqual(early, fieldErrorsFromAjv(validate.errors ?? []))
    }), { numRuns: 200 })
    t.ok(compared > 50, `${params.$id}: ${compared} refusals compared with AJV`)
  }
})
