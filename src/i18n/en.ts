import type { Catalog } from './catalog.js'

export const en: Catalog = {
  quote: (name) => `“${name}”`,
  or: (items) => items.join(' or '),
  titles: {
    VALIDATION_FAILED: 'Invalid parameters',
    X_DATA_INVALID: 'Invalid X-Data header',
    BODY_INVALID: 'Invalid request body',
    NOT_FOUND: 'Not found',
    METHOD_NOT_ALLOWED: 'Method not allowed',
    PAYLOAD_TOO_LARGE: 'Request body too large',
    UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
    RATE_LIMITED: 'Too many requests',
    INTERNAL_ERROR: 'Internal server error',
    BAD_REQUEST: 'Bad request',
    REQUEST_HEADER_FIELDS_TOO_LARGE: 'Request headers too large',
    REQUEST_TIMEOUT: 'Request timeout'
  },
  problems: {
    X_DATA_NOT_BASE64: () => 'The X-Data header is not valid Base64 (standard or URL-safe alphabet, padding optional).',
    X_DATA_NOT_UTF8: () => 'The X-Data header does not decode to valid UTF-8 text.',
    X_DATA_NOT_JSON: () => 'The X-Data header does not decode to valid JSON.',
    X_DATA_NOT_OBJECT: () => 'The X-Data header must decode to a JSON object, such as {"length": 32}.',
    X_DATA_TOO_LONG: ({ limit }) => `The X-Data header is longer than ${limit} characters.`,
    BODY_NOT_UTF8: () => 'The request body is not valid UTF-8 text.',
    BODY_NOT_JSON: () => 'The request body is not valid JSON.',
    BODY_NOT_OBJECT: () => 'The request body must be a JSON object, such as {"length": 32}.',
    NOT_FOUND: ({ method, path }) => `There is no route ${method} ${path}.`,
    METHOD_NOT_ALLOWED: ({ method, allowed }) => `Method ${method} is not allowed here. Allowed: ${allowed}.`,
    PAYLOAD_TOO_LARGE: ({ limit }) => `The request body is larger than ${limit} bytes.`,
    UNSUPPORTED_MEDIA_TYPE: () => 'The request body must be sent as application/json.',
    RATE_LIMITED: () => 'Too many requests. Try again later.',
    INTERNAL_ERROR: () => 'An unexpected error occurred. Please try again.',
    BAD_REQUEST: () => 'The request could not be parsed.',
    REQUEST_HEADER_FIELDS_TOO_LARGE: () => 'The request headers are too large.',
    REQUEST_TIMEOUT: () => 'The request took too long to arrive.'
  },
  fields: {
    TYPE: ({ field, expected }) => `${field} must be ${expected}.`,
    OUT_OF_RANGE: ({ field, min, max }) => `${field} must be between ${min} and ${max}.`,
    NOT_ALLOWED_VALUE: ({ field, allowed }) => `${field} must be one of: ${allowed}.`,
    TOO_SHORT: ({ field, min }) => `${field} must have at least ${min} character(s).`,
    TOO_LONG: ({ field, max }) => `${field} must have at most ${max} character(s).`,
    TOO_MANY_ITEMS: ({ field, max }) => `${field} must have at most ${max} items.`,
    UNKNOWN_FIELD: ({ field }) => `${field} is not a known parameter.`,
    NOT_AN_INTEGER: ({ field }) => `${field} must be a base-10 integer, such as "7" or "-12".`,
    NO_CHARACTER_SET: () => 'Enable at least one character set: uppercase, lowercase, numbers or symbols.',
    MIN_GREATER_THAN_MAX: ({ min, max }) => `“min” (${min}) must not be greater than “max” (${max}).`,
    NO_VALUES_LEFT: ({ min, max }) => `The exclusions leave no value between ${min} and ${max}.`,
    NOT_ENOUGH_UNIQUE_VALUES: ({ available, quantity }) => `Only ${available} distinct value(s) are left, fewer than the ${quantity} requested with “unique”.`,
    MINIMUMS_EXCEED_LENGTH: ({ field, total, length }) => `The minimums of the enabled character sets add up to ${total}, more than ${field} (${length}).`,
    SEPARATOR_HAS_LETTER_OR_DIGIT: ({ field }) => `${field} must not contain letters, digits, control or invisible characters, nor start with a combining mark.`,
    SEPARATOR_HAS_WORD_CHARACTER: ({ field, language }) => `${field} must not contain control characters or any character that occurs in the words of the ${language} list: the phrase could not be split back into words.`,
    SEPARATOR_HAS_LETTER: ({ field }) => `${field} must not contain the letters a–z: they occur in the words, so the phrase could not be split back.`,
    PREFIX_NOT_ALLOWED: ({ field }) => `${field} must be lowercase letters a–z and digits 0–9, starting with a letter.`,
    TOTP_NAME_NOT_ALLOWED: ({ field }) => `${field} must not contain a colon (:), control characters or unpaired surrogates.`
  },
  types: {
    string: 'a string',
    integer: 'an integer',
    number: 'a number',
    boolean: 'a boolean (true or false)',
    array: 'an array',
    object: 'an object',
    null: 'null'
  }
}
