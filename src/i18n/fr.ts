import type { Catalog } from './catalog.js'

// \u202F (narrow no-break space) goes inside guillemets, \u00A0 (no-break space) before a colon.
export const fr: Catalog = {
  quote: (name) => `«\u202F${name}\u202F»`,
  or: (items) => items.join(' ou '),
  titles: {
    VALIDATION_FAILED: 'Paramètres invalides',
    X_DATA_INVALID: 'En-tête X-Data invalide',
    BODY_INVALID: 'Corps de requête invalide',
    NOT_FOUND: 'Introuvable',
    METHOD_NOT_ALLOWED: 'Méthode non autorisée',
    PAYLOAD_TOO_LARGE: 'Corps de requête trop volumineux',
    UNSUPPORTED_MEDIA_TYPE: 'Type de média non pris en charge',
    RATE_LIMITED: 'Trop de requêtes',
    INTERNAL_ERROR: 'Erreur interne du serveur',
    BAD_REQUEST: 'Requête incorrecte',
    REQUEST_HEADER_FIELDS_TOO_LARGE: 'En-têtes de requête trop volumineux',
    REQUEST_TIMEOUT: 'Délai d’attente de la requête dépassé'
  },
  problems: {
    X_DATA_NOT_BASE64: () => 'L’en-tête X-Data n’est pas du Base64 valide (alphabet standard ou compatible URL, remplissage facultatif).',
    X_DATA_NOT_UTF8: () => 'L’en-tête X-Data ne se décode pas en texte UTF-8 valide.',
    X_DATA_NOT_JSON: () => 'L’en-tête X-Data ne se décode pas en JSON valide.',
    X_DATA_NOT_OBJECT: () => 'L’en-tête X-Data doit se décoder en un objet JSON, par exemple {"length": 32}.',
    X_DATA_TOO_LONG: ({ limit }) => `L’en-tête X-Data dépasse ${limit} caractères.`,
    BODY_NOT_UTF8: () => 'Le corps de la requête n’est pas du texte UTF-8 valide.',
    BODY_NOT_JSON: () => 'Le corps de la requête n’est pas du JSON valide.',
    BODY_NOT_OBJECT: () => 'Le corps de la requête doit être un objet JSON, par exemple {"length": 32}.',
    NOT_FOUND: ({ method, path }) => `Il n’existe aucune route ${method} ${path}.`,
    METHOD_NOT_ALLOWED: ({ method, allowed }) => `La méthode ${method} n’est pas autorisée ici. Méthodes autorisées\u00A0: ${allowed}.`,
    PAYLOAD_TOO_LARGE: ({ limit }) => `Le corps de la requête dépasse ${limit} octets.`,
    UNSUPPORTED_MEDIA_TYPE: () => 'Le corps de la requête doit être envoyé au format application/json.',
    RATE_LIMITED: () => 'Trop de requêtes. Réessayez plus tard.',
    INTERNAL_ERROR: () => 'Une erreur inattendue s’est produite. Veuillez réessayer.',
    BAD_REQUEST: () => 'La requête n’a pas pu être analysée.',
    REQUEST_HEADER_FIELDS_TOO_LARGE: () => 'Les en-têtes de la requête sont trop volumineux.',
    REQUEST_TIMEOUT: () => 'La requête a mis trop de temps à arriver.'
  },
  fields: {
    TYPE: ({ field, expected }) => `${field} doit être ${expected}.`,
    OUT_OF_RANGE: ({ field, min, max }) => `${field} doit être compris entre ${min} et ${max}.`,
    NOT_ALLOWED_VALUE: ({ field, allowed }) => `${field} doit prendre l’une des valeurs suivantes\u00A0: ${allowed}.`,
    TOO_SHORT: ({ field, min }) => `${field} doit comporter au moins ${min} caractère(s).`,
    TOO_LONG: ({ field, max }) => `${field} doit comporter au plus ${max} caractère(s).`,
    TOO_MANY_ITEMS: ({ field, max }) => `${field} doit comporter au plus ${max} éléments.`,
    UNKNOWN_FIELD: ({ field }) => `${field} n’est pas un paramètre connu.`,
    NOT_AN_INTEGER: ({ field }) => `${field} doit être un entier en base 10, par exemple "7" ou "-12".`,
    NO_CHARACTER_SET: () => 'Activez au moins un jeu de caractères\u00A0: majuscules, minuscules, chiffres ou symboles.',
    MIN_GREATER_THAN_MAX: ({ min, max }) => `«\u202Fmin\u202F» (${min}) ne doit pas être supérieur à «\u202Fmax\u202F» (${max}).`,
    NO_VALUES_LEFT: ({ min, max }) => `Les exclusions ne laissent aucune valeur entre ${min} et ${max}.`,
    NOT_ENOUGH_UNIQUE_VALUES: ({ available, quantity }) => `Il ne reste que ${available} valeur(s) distincte(s), soit moins que les ${quantity} demandées avec «\u202Funique\u202F».`,
    MINIMUMS_EXCEED_LENGTH: ({ field, total, length }) => `Les minimums des jeux de caractères activés totalisent ${total}, soit plus que ${field} (${length}).`,
    SEPARATOR_HAS_LETTER_OR_DIGIT: ({ field }) => `${field} ne doit contenir ni lettres, ni chiffres, ni caractères de contrôle ou invisibles, ni commencer par un signe combinant.`,
    SEPARATOR_HAS_WORD_CHARACTER: ({ field, language }) => `${field} ne doit contenir ni caractères de contrôle ni caractères présents dans les mots de la liste ${language}\u00A0: la phrase ne pourrait plus être redécoupée en mots.`,
    SEPARATOR_HAS_LETTER: ({ field }) => `${field} ne doit pas contenir les lettres a–z\u00A0: elles apparaissent dans les mots, et la phrase ne pourrait donc plus être redécoupée en mots.`,
    EMPTY_SET: ({ field }) => `${field} est activé, mais «\u202Fexclude\u202F» et «\u202FavoidAmbiguous\u202F» ne laissent aucun caractère dans son jeu.`,
    SYMBOL_SET_CHARACTERS: ({ field }) => `${field} doit comporter de 1 à 32 signes de ponctuation ASCII distincts parmi !"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~, chacun une seule fois.`,
    EXCLUDE_CHARACTERS: ({ field }) => `${field} ne doit comporter que des caractères ASCII imprimables, de ! à ~ (sans espace).`,
    NOT_PRINTABLE_ASCII: ({ field }) => `${field} ne peut contenir que des caractères ASCII imprimables, de l’espace à ~.`,
    PREFIX_NOT_ALLOWED: ({ field }) => `${field} ne doit contenir que des lettres minuscules a–z et des chiffres 0–9, et doit commencer par une lettre.`,
    TOTP_NAME_NOT_ALLOWED: ({ field }) => `${field} ne doit contenir ni deux-points (:), ni caractères de contrôle, ni moitié isolée d’une paire de substitution.`
  },
  types: {
    string: 'une chaîne de caractères',
    integer: 'un entier',
    number: 'un nombre',
    boolean: 'un booléen (true ou false)',
    array: 'un tableau',
    object: 'un objet',
    null: 'null'
  }
}
