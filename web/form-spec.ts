// What the page knows of each generator's parameters: read from the routes' TypeBox schemas when
// the page is bundled (src/build/form-spec.ts), never written here by hand. Types only, so both the
// server (which builds it) and the browser bundle (which reads it) share one definition.

type Choice = string | number

/**
 * What a parameter's route decides beyond its schema, read from the function that decides it
 * (CONTRACT §13: `modulusBits` is RSA's alone, `format` depends on `algorithm`; §14.2: seq's
 * `padding` is not for hex, and its default depends on `encoding`).
 */
export interface FieldRules {
  /** Shown and sent only while parameter `param` holds one of `values`. */
  appliesWith?: { param: string, values: readonly Choice[] }
  /** A choice's options by the value of parameter `param`: what its route takes with that value. */
  choicesWith?: { param: string, choices: Readonly<Record<string, readonly Choice[]>> }
  /**
   * A parameter with no default of its own: the value its route takes when it is left out, by the
   * value of parameter `param` (CONTRACT §14.2: seq's `padding`, by `encoding`). The control shows
   * it, follows `param` when that is changed, and the parameter is sent only when it differs.
   */
  defaultWith?: { param: string, defaults: Readonly<Partial<Record<string, boolean>>> }
}

/** A parameter with one control: its `name` in CONTRACT §2 and what its control carries. */
export type FieldSpec = FieldRules & (
  /** `default` absent: an optional parameter with none (a set's `jwt` `expiresInDays`), its control empty and nothing sent. */
  | { name: string, kind: 'integer', default?: number, minimum: number, maximum: number }
  /** `default` absent: the route's default depends on another parameter (`defaultWith`). */
  | { name: string, kind: 'boolean', default?: boolean }
  | { name: string, kind: 'string', default: string, minLength?: number, maxLength: number }
  /**
   * `default`: the schema's, or for an optional parameter with none the value its route takes when
   * it is left out; or `''`, the first of `choices`, for one whose route decides by the others (a
   * set's `jwt` `algorithm`): chosen, nothing is sent.
   */
  | { name: string, kind: 'choice', default: Choice, choices: readonly Choice[] }
  /** number's `exclusions`: one text control, items separated by commas or white space. */
  | { name: string, kind: 'list', default: readonly string[], maxItems: number }
  /** A JSON object typed as text (a set's `jwt` `claims`): one text control, sent parsed. */
  | { name: string, kind: 'json', default: Readonly<Record<string, unknown>> }
)

/** One algorithm of `hash` (CONTRACT §12) and its own fields (`cost`, `memoryKiB`, ...). */
export interface HashAlgorithmSpec {
  algorithm: string
  fields: readonly FieldSpec[]
}

/**
 * One parameter of a generator. `hash` (password, passphrase: CONTRACT §12) is an object chosen by
 * `algorithm`, absent by default: a chooser (`hash.algorithm`, "none" first) followed by the chosen
 * algorithm's fields (`hash.cost`, ...), each with that algorithm's bounds and default.
 */
export type ParamSpec = FieldSpec | {
  name: string
  kind: 'hash'
  default?: undefined
  algorithms: readonly HashAlgorithmSpec[]
  /** The most values a request may hash (CONTRACT §12), said beside the chooser. */
  maxValues: number
}

export interface GeneratorSpec {
  /** The path segment of CONTRACT §1.2 (`password`, `short-id`, ...), or a set's `jwt`. */
  type: string
  params: readonly ParamSpec[]
  /**
   * What its answer's schema may carry beside the values: `hashes` and `publicKeys`, the `.env`
   * lines a set item may name itself (CONTRACT §14.2: `hashName`, `publicKeyName`).
   */
  hashes?: true
  publicKeys?: true
}

export type FormSpec = readonly GeneratorSpec[]

/** What the set's rows take beyond the generators (CONTRACT §10, §14.2), from the set's schemas. */
export interface SetFormSpec {
  /** The longest variable name (`name`, `hashName`, `publicKeyName`). */
  nameMaxLength: number
  /** The `jwt` item: a token signed with an earlier item's key, a row's choice in a set only. */
  jwt: GeneratorSpec
  /** The groups of the recipes (CONTRACT §14.1), in the order the chooser lists them. */
  recipeGroups: readonly string[]
}
