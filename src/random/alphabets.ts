// The characters of the encodings generators write values in (Node's Buffer for hex and Base64,
// @scure/base for the base32 variants): what a value can hold, declared for the serialisation
// without escape scan (GeneratorDefinition.alphabet), and checked against real values by
// test/src/http/unescaped-values.test.ts.
export const DIGITS = '0123456789'
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** Lowercase hexadecimal. */
export const HEX = '0123456789abcdef'
/** RFC 4648 §4, with its padding character. */
export const BASE64 = LETTERS + DIGITS + '+/='
/** RFC 4648 §5, unpadded. */
export const BASE64URL = LETTERS + DIGITS + '-_'
/** RFC 4648 §6, upper case, unpadded. */
export const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
/** Crockford's Base32, upper case (ULID). */
export const CROCKFORD_BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** Base 62 in ASCII order, digits first: GitHub's tokens and their checksums. */
export const BASE62 = DIGITS + LETTERS
