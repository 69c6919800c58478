import type { Catalog } from './catalog.js'

export const es: Catalog = {
  quote: (name) => `«${name}»`,
  or: (items) => items.join(' o '),
  titles: {
    VALIDATION_FAILED: 'Parámetros no válidos',
    X_DATA_INVALID: 'Encabezado X-Data no válido',
    BODY_INVALID: 'Cuerpo de la solicitud no válido',
    NOT_FOUND: 'No encontrado',
    METHOD_NOT_ALLOWED: 'Método no permitido',
    PAYLOAD_TOO_LARGE: 'Cuerpo de la solicitud demasiado grande',
    UNSUPPORTED_MEDIA_TYPE: 'Tipo de medio no admitido',
    RATE_LIMITED: 'Demasiadas solicitudes',
    INTERNAL_ERROR: 'Error interno del servidor',
    BAD_REQUEST: 'Solicitud incorrecta',
    REQUEST_HEADER_FIELDS_TOO_LARGE: 'Encabezados de la solicitud demasiado grandes',
    REQUEST_TIMEOUT: 'Tiempo de espera de la solicitud agotado'
  },
  problems: {
    X_DATA_NOT_BASE64: () => 'El encabezado X-Data no es Base64 válido (alfabeto estándar o seguro para URL, relleno opcional).',
    X_DATA_NOT_UTF8: () => 'El encabezado X-Data no se decodifica como texto UTF-8 válido.',
    X_DATA_NOT_JSON: () => 'El encabezado X-Data no se decodifica como JSON válido.',
    X_DATA_NOT_OBJECT: () => 'El encabezado X-Data debe decodificarse como un objeto JSON, por ejemplo {"length": 32}.',
    X_DATA_TOO_LONG: ({ limit }) => `El encabezado X-Data supera los ${limit} caracteres.`,
    BODY_NOT_UTF8: () => 'El cuerpo de la solicitud no es texto UTF-8 válido.',
    BODY_NOT_JSON: () => 'El cuerpo de la solicitud no es JSON válido.',
    BODY_NOT_OBJECT: () => 'El cuerpo de la solicitud debe ser un objeto JSON, por ejemplo {"length": 32}.',
    NOT_FOUND: ({ method, path }) => `No existe la ruta ${method} ${path}.`,
    METHOD_NOT_ALLOWED: ({ method, allowed }) => `El método ${method} no está permitido aquí. Permitidos: ${allowed}.`,
    PAYLOAD_TOO_LARGE: ({ limit }) => `El cuerpo de la solicitud supera los ${limit} bytes.`,
    UNSUPPORTED_MEDIA_TYPE: () => 'El cuerpo de la solicitud debe enviarse como application/json.',
    RATE_LIMITED: () => 'Demasiadas solicitudes. Vuelva a intentarlo más tarde.',
    INTERNAL_ERROR: () => 'Se produjo un error inesperado. Vuelva a intentarlo.',
    BAD_REQUEST: () => 'No se pudo analizar la solicitud.',
    REQUEST_HEADER_FIELDS_TOO_LARGE: () => 'Los encabezados de la solicitud son demasiado grandes.',
    REQUEST_TIMEOUT: () => 'La solicitud tardó demasiado en llegar.'
  },
  fields: {
    TYPE: ({ field, expected }) => `${field} debe ser ${expected}.`,
    OUT_OF_RANGE: ({ field, min, max }) => `${field} debe estar entre ${min} y ${max}.`,
    NOT_ALLOWED_VALUE: ({ field, allowed }) => `${field} debe ser uno de estos valores: ${allowed}.`,
    TOO_SHORT: ({ field, min }) => `${field} debe tener al menos ${min} carácter(es).`,
    TOO_LONG: ({ field, max }) => `${field} debe tener como máximo ${max} carácter(es).`,
    TOO_MANY_ITEMS: ({ field, max }) => `${field} debe tener como máximo ${max} elementos.`,
    UNKNOWN_FIELD: ({ field }) => `${field} no es un parámetro conocido.`,
    NOT_AN_INTEGER: ({ field }) => `${field} debe ser un número entero en base 10, por ejemplo "7" o "-12".`,
    NO_CHARACTER_SET: () => 'Active al menos un conjunto de caracteres: mayúsculas, minúsculas, números o símbolos.',
    MIN_GREATER_THAN_MAX: ({ min, max }) => `«min» (${min}) no debe ser mayor que «max» (${max}).`,
    NO_VALUES_LEFT: ({ min, max }) => `Las exclusiones no dejan ningún valor entre ${min} y ${max}.`,
    NOT_ENOUGH_UNIQUE_VALUES: ({ available, quantity }) => `Solo quedan ${available} valor(es) distinto(s), menos que los ${quantity} solicitados con «unique».`,
    MINIMUMS_EXCEED_LENGTH: ({ field, total, length }) => `Los mínimos de los conjuntos de caracteres activados suman ${total}, más que ${field} (${length}).`,
    SEPARATOR_HAS_LETTER_OR_DIGIT: ({ field }) => `${field} no debe contener letras, dígitos, caracteres de control ni caracteres invisibles, ni empezar por un signo combinante.`,
    SEPARATOR_HAS_WORD_CHARACTER: ({ field, language }) => `${field} no debe contener caracteres de control ni caracteres que aparezcan en las palabras de la lista ${language}: la frase no podría volver a dividirse en palabras.`,
    SEPARATOR_HAS_LETTER: ({ field }) => `${field} no debe contener las letras a–z: aparecen en las palabras, por lo que la frase no podría volver a dividirse en palabras.`,
    PREFIX_NOT_ALLOWED: ({ field }) => `${field} solo puede contener letras minúsculas a–z y dígitos 0–9, y debe empezar por una letra.`,
    TOTP_NAME_NOT_ALLOWED: ({ field }) => `${field} no debe contener dos puntos (:), caracteres de control ni mitades sueltas de un par sustituto.`
  },
  types: {
    string: 'una cadena de texto',
    integer: 'un número entero',
    number: 'un número',
    boolean: 'un booleano (true o false)',
    array: 'un arreglo',
    object: 'un objeto',
    null: 'null'
  }
}
