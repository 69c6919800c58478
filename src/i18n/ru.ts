import type { Catalog } from './catalog.js'

export const ru: Catalog = {
  quote: (name) => `«${name}»`,
  or: (items) => items.join(' или '),
  titles: {
    VALIDATION_FAILED: 'Недопустимые параметры',
    X_DATA_INVALID: 'Некорректный заголовок X-Data',
    BODY_INVALID: 'Некорректное тело запроса',
    NOT_FOUND: 'Не найдено',
    METHOD_NOT_ALLOWED: 'Метод не разрешён',
    PAYLOAD_TOO_LARGE: 'Слишком большое тело запроса',
    UNSUPPORTED_MEDIA_TYPE: 'Неподдерживаемый тип содержимого',
    RATE_LIMITED: 'Слишком много запросов',
    INTERNAL_ERROR: 'Внутренняя ошибка сервера',
    BAD_REQUEST: 'Некорректный запрос',
    REQUEST_HEADER_FIELDS_TOO_LARGE: 'Слишком большие заголовки запроса',
    REQUEST_TIMEOUT: 'Истекло время ожидания запроса'
  },
  problems: {
    X_DATA_NOT_BASE64: () => 'Заголовок X-Data не является корректной строкой Base64 (стандартный или URL-безопасный алфавит, символы выравнивания необязательны).',
    X_DATA_NOT_UTF8: () => 'Заголовок X-Data не декодируется в корректный текст UTF-8.',
    X_DATA_NOT_JSON: () => 'Заголовок X-Data не декодируется в корректный JSON.',
    X_DATA_NOT_OBJECT: () => 'Заголовок X-Data должен декодироваться в объект JSON, например {"length": 32}.',
    X_DATA_TOO_LONG: ({ limit }) => `Длина заголовка X-Data превышает ${limit} симв.`,
    BODY_NOT_UTF8: () => 'Тело запроса не является корректным текстом UTF-8.',
    BODY_NOT_JSON: () => 'Тело запроса не является корректным JSON.',
    BODY_NOT_OBJECT: () => 'Тело запроса должно быть объектом JSON, например {"length": 32}.',
    NOT_FOUND: ({ method, path }) => `Маршрут ${method} ${path} не существует.`,
    METHOD_NOT_ALLOWED: ({ method, allowed }) => `Метод ${method} здесь не разрешён. Разрешены: ${allowed}.`,
    PAYLOAD_TOO_LARGE: ({ limit }) => `Размер тела запроса превышает ${limit} Б.`,
    UNSUPPORTED_MEDIA_TYPE: () => 'Тело запроса должно передаваться в формате application/json.',
    RATE_LIMITED: () => 'Слишком много запросов. Повторите попытку позже.',
    INTERNAL_ERROR: () => 'Произошла непредвиденная ошибка. Повторите попытку.',
    BAD_REQUEST: () => 'Не удалось разобрать запрос.',
    REQUEST_HEADER_FIELDS_TOO_LARGE: () => 'Заголовки запроса слишком велики.',
    REQUEST_TIMEOUT: () => 'Запрос не был получен полностью за отведённое время.'
  },
  fields: {
    TYPE: ({ field, expected }) => `Значение ${field} должно быть ${expected}.`,
    OUT_OF_RANGE: ({ field, min, max }) => `Значение ${field} должно быть в диапазоне от ${min} до ${max}.`,
    NOT_ALLOWED_VALUE: ({ field, allowed }) => `Значение ${field} должно быть одним из следующих: ${allowed}.`,
    TOO_SHORT: ({ field, min }) => `Значение ${field} должно содержать не менее ${min} симв.`,
    TOO_LONG: ({ field, max }) => `Значение ${field} должно содержать не более ${max} симв.`,
    TOO_MANY_ITEMS: ({ field, max }) => `Число элементов в ${field} не должно превышать ${max}.`,
    UNKNOWN_FIELD: ({ field }) => `${field} — неизвестный параметр.`,
    NOT_AN_INTEGER: ({ field }) => `Значение ${field} должно быть целым числом в десятичной записи, например "7" или "-12".`,
    NO_CHARACTER_SET: () => 'Включите хотя бы один набор символов: заглавные буквы, строчные буквы, цифры или спецсимволы.',
    MIN_GREATER_THAN_MAX: ({ min, max }) => `Значение «min» (${min}) не должно быть больше значения «max» (${max}).`,
    NO_VALUES_LEFT: ({ min, max }) => `После исключений не остаётся ни одного значения от ${min} до ${max}.`,
    NOT_ENOUGH_UNIQUE_VALUES: ({ available, quantity }) => `Осталось различных значений: ${available}, это меньше, чем запрошено с «unique» (${quantity}).`,
    MINIMUMS_EXCEED_LENGTH: ({ field, total, length }) => `Сумма минимумов включённых наборов символов (${total}) больше, чем ${field} (${length}).`,
    SEPARATOR_HAS_LETTER_OR_DIGIT: ({ field }) => `Значение ${field} не должно содержать буквы, цифры, управляющие или невидимые символы и не должно начинаться с комбинируемого знака.`,
    SEPARATOR_HAS_WORD_CHARACTER: ({ field, language }) => `Значение ${field} не должно содержать управляющие символы и символы, встречающиеся в словах списка ${language}: иначе фразу нельзя было бы снова разбить на слова.`,
    SEPARATOR_HAS_LETTER: ({ field }) => `Значение ${field} не должно содержать буквы a–z: они встречаются в словах, поэтому фразу нельзя было бы снова разбить на слова.`,
    PREFIX_NOT_ALLOWED: ({ field }) => `Значение ${field} должно состоять из строчных латинских букв a–z и цифр 0–9 и начинаться с буквы.`,
    TOTP_NAME_NOT_ALLOWED: ({ field }) => `Значение ${field} не должно содержать двоеточие (:), управляющие символы или непарные суррогаты.`
  },
  types: {
    string: 'строкой',
    integer: 'целым числом',
    number: 'числом',
    boolean: 'логическим значением (true или false)',
    array: 'массивом',
    object: 'объектом',
    null: 'null'
  }
}
