import type { Catalog } from './catalog.js'

export const de: Catalog = {
  quote: (name) => `„${name}“`,
  or: (items) => items.join(' oder '),
  titles: {
    VALIDATION_FAILED: 'Ungültige Anfrage',
    X_DATA_INVALID: 'Ungültiger X-Data-Header',
    BODY_INVALID: 'Ungültiger Anfrageinhalt',
    NOT_FOUND: 'Nicht gefunden',
    METHOD_NOT_ALLOWED: 'Methode nicht erlaubt',
    PAYLOAD_TOO_LARGE: 'Anfrageinhalt zu groß',
    UNSUPPORTED_MEDIA_TYPE: 'Nicht unterstützter Medientyp',
    RATE_LIMITED: 'Zu viele Anfragen',
    INTERNAL_ERROR: 'Interner Serverfehler',
    BAD_REQUEST: 'Fehlerhafte Anfrage',
    REQUEST_HEADER_FIELDS_TOO_LARGE: 'Anfrage-Header zu groß',
    REQUEST_TIMEOUT: 'Zeitüberschreitung der Anfrage'
  },
  problems: {
    X_DATA_NOT_BASE64: () => 'Der X-Data-Header ist kein gültiges Base64 (Standard- oder URL-sicheres Alphabet, Auffüllzeichen optional).',
    X_DATA_NOT_UTF8: () => 'Der X-Data-Header ergibt dekodiert keinen gültigen UTF-8-Text.',
    X_DATA_NOT_JSON: () => 'Der X-Data-Header ergibt dekodiert kein gültiges JSON.',
    X_DATA_NOT_OBJECT: () => 'Der X-Data-Header muss dekodiert ein JSON-Objekt ergeben, etwa {"length": 32}.',
    X_DATA_TOO_LONG: ({ limit }) => `Der X-Data-Header ist länger als ${limit} Zeichen.`,
    BODY_NOT_UTF8: () => 'Der Anfrageinhalt ist kein gültiger UTF-8-Text.',
    BODY_NOT_JSON: () => 'Der Anfrageinhalt ist kein gültiges JSON.',
    BODY_NOT_OBJECT: () => 'Der Anfrageinhalt muss ein JSON-Objekt sein, etwa {"length": 32}.',
    NOT_FOUND: ({ method, path }) => `Es gibt keine Route ${method} ${path}.`,
    METHOD_NOT_ALLOWED: ({ method, allowed }) => `Die Methode ${method} ist hier nicht erlaubt. Erlaubt: ${allowed}.`,
    PAYLOAD_TOO_LARGE: ({ limit }) => `Der Anfrageinhalt ist größer als ${limit} Byte.`,
    UNSUPPORTED_MEDIA_TYPE: () => 'Der Anfrageinhalt muss als application/json gesendet werden.',
    RATE_LIMITED: () => 'Zu viele Anfragen. Bitte versuchen Sie es später erneut.',
    INTERNAL_ERROR: () => 'Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es erneut.',
    BAD_REQUEST: () => 'Die Anfrage konnte nicht gelesen werden.',
    REQUEST_HEADER_FIELDS_TOO_LARGE: () => 'Die Anfrage-Header sind zu groß.',
    REQUEST_TIMEOUT: () => 'Die Anfrage ist nicht rechtzeitig vollständig eingetroffen.'
  },
  fields: {
    TYPE: ({ field, expected }) => `${field} muss ${expected} sein.`,
    OUT_OF_RANGE: ({ field, min, max }) => `${field} muss zwischen ${min} und ${max} liegen.`,
    NOT_ALLOWED_VALUE: ({ field, allowed }) => `${field} muss einer der folgenden Werte sein: ${allowed}.`,
    TOO_SHORT: ({ field, min }) => `${field} muss mindestens ${min} Zeichen lang sein.`,
    TOO_LONG: ({ field, max }) => `${field} darf höchstens ${max} Zeichen lang sein.`,
    TOO_MANY_ITEMS: ({ field, max }) => `${field} darf höchstens ${max} Elemente enthalten.`,
    UNKNOWN_FIELD: ({ field }) => `${field} ist kein bekannter Parameter.`,
    NOT_AN_INTEGER: ({ field }) => `${field} muss eine ganze Zahl im Dezimalsystem sein, etwa "7" oder "-12".`,
    NO_CHARACTER_SET: () => 'Aktivieren Sie mindestens einen Zeichensatz: Großbuchstaben, Kleinbuchstaben, Ziffern oder Sonderzeichen.',
    MIN_GREATER_THAN_MAX: ({ min, max }) => `„min“ (${min}) darf nicht größer als „max“ (${max}) sein.`,
    NO_VALUES_LEFT: ({ min, max }) => `Nach den Ausschlüssen bleibt kein Wert zwischen ${min} und ${max} übrig.`,
    NOT_ENOUGH_UNIQUE_VALUES: ({ available, quantity }) => `Die Anzahl der verbleibenden verschiedenen Werte (${available}) ist kleiner als die mit „unique“ angeforderte Anzahl (${quantity}).`,
    MINIMUMS_EXCEED_LENGTH: ({ field, total, length }) => `Die Mindestanzahlen der aktivierten Zeichengruppen ergeben zusammen ${total}, mehr als ${field} (${length}).`,
    SEPARATOR_HAS_LETTER_OR_DIGIT: ({ field }) => `${field} darf keine Buchstaben, Ziffern, Steuerzeichen oder unsichtbaren Zeichen enthalten und nicht mit einem kombinierenden Zeichen beginnen.`,
    SEPARATOR_HAS_WORD_CHARACTER: ({ field, language }) => `${field} darf weder Steuerzeichen noch Zeichen enthalten, die in den Wörtern der Liste ${language} vorkommen, da sich die Phrase sonst nicht wieder in Wörter zerlegen ließe.`,
    SEPARATOR_HAS_LETTER: ({ field }) => `${field} darf keine Buchstaben a–z enthalten, da diese in den Wörtern vorkommen und sich die Phrase sonst nicht wieder in Wörter zerlegen ließe.`,
    PREFIX_NOT_ALLOWED: ({ field }) => `${field} darf nur Kleinbuchstaben a–z und Ziffern 0–9 enthalten und muss mit einem Buchstaben beginnen.`,
    TOTP_NAME_NOT_ALLOWED: ({ field }) => `${field} darf weder einen Doppelpunkt (:) noch Steuerzeichen oder ungepaarte Surrogate enthalten.`
  },
  types: {
    string: 'eine Zeichenkette',
    integer: 'eine ganze Zahl',
    number: 'eine Zahl',
    boolean: 'ein Wahrheitswert (true oder false)',
    array: 'ein Array',
    object: 'ein Objekt',
    null: 'null'
  }
}
