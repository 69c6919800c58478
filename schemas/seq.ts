import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity, StringEnum, VALUE_MAX_LENGTH } from './common.js'

export const SEQ_ENCODINGS = ['hex', 'base64', 'base64url', 'base32'] as const
export type SeqEncoding = typeof SEQ_ENCODINGS[number]

/** CONTRACT §14.2: the longest `prefix` (Laravel's `base64:` is 7). */
export const SEQ_PREFIX_MAX_LENGTH = 16
/**
 * What `prefix` may hold: printable ASCII but space, `'`, `"`, `\` and `` ` `` (0x21..0x7e less
 * 0x22, 0x27, 0x5c, 0x60). So a prefixed value holds no space (it stays one field of a plain-text
 * line), nothing a single-quoted `.env` line cannot carry (CONTRACT §10) and nothing JSON escapes
 * (it is written without the escape scan, SeqResult). As a pattern AJV refuses it with
 * NOT_ALLOWED_VALUE (src/http/validation-errors.ts PATTERN_PROBLEMS), in sets and over MCP too.
 */
export const SEQ_PREFIX_PATTERN = '^[!#-&(-\\[\\]-_a-~]*$'
/** The characters SEQ_PREFIX_PATTERN takes, in code order (test/plugins/seq.test.ts holds the two together). */
export const SEQ_PREFIX_CHARACTERS = Array.from({ length: 0x7f - 0x21 }, (_, index) => String.fromCharCode(0x21 + index)).filter((character) => !'"\'\\`'.includes(character)).join('')

/**
 * CONTRACT §14.2: `padding` where it is left out, by encoding; hex has no padding (giving it:
 * NOT_ALLOWED_VALUE). Not a schema default, which cannot depend on `encoding`.
 */
export const PADDING_WHEN_LEFT_OUT: Readonly<Partial<Record<SeqEncoding, boolean>>> = { base64: true, base64url: false, base32: false }

export const SeqParams = Params('SeqParams', {
  byteLength: Type.Integer({ minimum: 2, maximum: 256, default: 32, description: 'Random bytes per value, before encoding (2..256).' }),
  encoding: StringEnum(SEQ_ENCODINGS, {
    default: 'hex',
    description: 'hex: lowercase; base64: standard alphabet, padded unless `padding` is false; base64url: RFC 4648 §5, unpadded unless `padding` is true; base32: RFC 4648 §6 (A-Z 2-7), upper case, unpadded unless `padding` is true (unpadded is what authenticator apps take as a TOTP secret).'
  }),
  prefix: Type.String({
    maxLength: SEQ_PREFIX_MAX_LENGTH,
    pattern: SEQ_PREFIX_PATTERN,
    default: '',
    description: `Written before each encoded value, such as Laravel's \`base64:\` (0..${SEQ_PREFIX_MAX_LENGTH} printable ASCII characters, none of space, \`'\`, \`"\`, \`\\\` or the backtick: another character is NOT_ALLOWED_VALUE). It adds no randomness.`,
    examples: ['base64:']
  }),
  // Optional with no default: the default depends on `encoding`, and "given with hex" must be told from "left out"
  padding: Type.Optional(Type.Boolean({
    description: '`=` padding to a whole quantum (4 characters for base64 and base64url, 8 for base32). When left out: true for base64, false for base64url and base32. ' +
      'Given with hex, which has no padding: NOT_ALLOWED_VALUE. A Fernet key is `{"byteLength": 32, "encoding": "base64url", "padding": true}`.'
  })),
  quantity: Quantity
}, {
  description: 'Random byte sequence parameters.',
  examples: [{ byteLength: 16, encoding: 'base64url' }, { byteLength: 20, encoding: 'base32' }, { byteLength: 32, encoding: 'base64', prefix: 'base64:' }, { byteLength: 32, encoding: 'base64url', padding: true }]
})

/** The longest value: 256 bytes as hex, after the longest prefix. */
export const SEQ_VALUE_MAX_LENGTH = VALUE_MAX_LENGTH + SEQ_PREFIX_MAX_LENGTH

export const SeqResult = GenerationResult('SeqResult', 'seq', { closedAlphabet: true, valueMaxLength: SEQ_VALUE_MAX_LENGTH })
