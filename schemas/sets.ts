// CONTRACT §10: several generators in one request. Nothing here restates a generator: an item's
// `params` is a reference to that generator's own parameters schema and an answered item is its
// result schema less `generatedAt`, both built from the schemas the generator routes register.
import { Type, type TObject, type TSchema } from '@sinclair/typebox'
import { QUANTITY_MAX, StringEnum } from './common.js'
import { JWT_MAX_LENGTH, JwtParams } from './jwt.js'

/** CONTRACT §10: the most items in a set. */
export const SET_ITEMS_MAX = 32
/** The longest item name. */
export const SET_NAME_MAX_LENGTH = 64

/**
 * Names a POSIX shell or bash gives a meaning of their own (CONTRACT §10): reading `PATH=...` or
 * `IFS=...` with `set -a; . ./.env` changes the reading shell, and bash ignores or resets the
 * others (`RANDOM`, `SECONDS`, any `BASH_*`).
 */
export const RESERVED_SET_NAMES = [
  'PATH', 'IFS', 'ENV', 'CDPATH', 'HOME', 'PS1', 'PS2', 'PS3', 'PS4', 'OPTIND', 'OPTARG', 'PPID',
  'UID', 'EUID', 'RANDOM', 'SRANDOM', 'SECONDS', 'EPOCHSECONDS', 'EPOCHREALTIME', 'LINENO', 'HISTCMD',
  'FUNCNAME', 'GROUPS', 'SHELLOPTS', 'BASHOPTS', 'BASHPID'
] as const
/** What every reserved name starts with as well. */
export const RESERVED_SET_NAME_PREFIX = 'BASH_'

/** A shell variable name that is none of the reserved ones: one pattern, so AJV answers it with one code. */
export const SET_NAME_PATTERN = `^(?!(?:${RESERVED_SET_NAMES.join('|')})$|${RESERVED_SET_NAME_PREFIX})[A-Za-z_][A-Za-z0-9_]*$`

/** The suffixes of the names the `.env` form derives from an item's name. */
export const PUBLIC_KEY_SUFFIX = '_PUBLIC_KEY'
export const PRIVATE_KEY_SUFFIX = '_PRIVATE_KEY'
export const HASH_SUFFIX = '_HASH'

/**
 * The name of a key pair's public key in the `.env` form (CONTRACT §10): `<name>_PUBLIC_KEY`, but
 * `<stem>_PUBLIC_KEY` for a name `<stem>_PRIVATE_KEY`, as the programs that read the pair name it
 * (`WG_PRIVATE_KEY` → `WG_PUBLIC_KEY`, `VAPID_PRIVATE_KEY` → `VAPID_PUBLIC_KEY`). A stem is never
 * empty: `_PRIVATE_KEY` alone derives `_PRIVATE_KEY_PUBLIC_KEY`.
 */
export function publicKeyName (name: string): string {
  return name.length > PRIVATE_KEY_SUFFIX.length && name.endsWith(PRIVATE_KEY_SUFFIX)
    ? name.slice(0, -PRIVATE_KEY_SUFFIX.length) + PUBLIC_KEY_SUFFIX
    : name + PUBLIC_KEY_SUFFIX
}

/** What a set is built from: each generator's type, operation-id stem, and its route schemas. */
export interface SetGenerator {
  type: string
  name: string
  params: TObject
  result: TObject
}

export const SetItemName = Type.String({
  $id: 'SetItemName',
  minLength: 1,
  maxLength: SET_NAME_MAX_LENGTH,
  pattern: SET_NAME_PATTERN,
  description: `The variable name of the item's value in the \`.env\` form, and its \`name\` in the JSON form: 1..${SET_NAME_MAX_LENGTH} characters \`A-Z a-z 0-9 _\`, not starting with a digit, ` +
    `and none the shell gives a meaning of its own (${RESERVED_SET_NAMES.join(', ')}, any ${RESERVED_SET_NAME_PREFIX}*). Unique in the set, together with the names the \`.env\` form derives ` +
    `(\`<name>${PUBLIC_KEY_SUFFIX}\` for a key pair, \`<stem>${PUBLIC_KEY_SUFFIX}\` for a name \`<stem>${PRIVATE_KEY_SUFFIX}\`, \`<name>${HASH_SUFFIX}\` for a token or an item with \`hash\`); case counts.`,
  examples: ['POSTGRES_PASSWORD']
})

/** The `jwt` item's type (CONTRACT §14.2): a set item, not a generator of its own. */
export const JWT_TYPE = 'jwt'

/** Names for an item's derived `.env` lines in place of `<name>_HASH` / `<name>_PUBLIC_KEY` (CONTRACT §14.2). */
const derivedNameFields = {
  hashName: Type.Optional(Type.Ref(SetItemName.$id as string, {
    description: `The \`.env\` name of the item's hash (a token, or an item with \`hash\`) in place of \`<name>${HASH_SUFFIX}\`: Vaultwarden reads the hash as ADMIN_TOKEN.`
  })),
  publicKeyName: Type.Optional(Type.Ref(SetItemName.$id as string, {
    description: `The \`.env\` name of the item's public key (a key pair) in place of \`<name>${PUBLIC_KEY_SUFFIX}\`.`
  }))
}

/** The branch of the item choice for one generator: its type, and its own named parameters schema. */
export function setItemBranchId (generator: SetGenerator): string {
  return `${generator.name}SetItem`
}

function setItemBranch (generator: SetGenerator): TObject {
  // `name` again beside `type` and `params`, so the branch is the whole item: OpenAPI tools read the
  // discriminator's branch alone (an example is checked against it). The item schema holds the same
  // name and fields, so AJV reports a bad name or an unknown field even where `type` names no branch
  return Type.Object({
    name: Type.Ref(SetItemName.$id as string),
    type: Type.Literal(generator.type),
    // The default on the reference: a missing `params` is `{}`, then that schema's own defaults
    params: Type.Optional(Type.Unsafe({ $ref: generator.params.$id as string, default: {} })),
    ...derivedNameFields
  }, {
    $id: setItemBranchId(generator),
    additionalProperties: false,
    description: `A ${generator.type} item: \`params\` as \`/api/generate/${generator.type}\` takes them (\`${generator.params.$id as string}\`).`
  })
}

/**
 * A set's request: named items, each a choice by `type` whose `params` are that generator's own
 * schema. `name`, `type` and the fields allowed are said once for every item; the branch the
 * discriminator picks validates `params` (AJV's `discriminator`: only that branch is tried, so
 * its errors are the generator's own, with pointers into the item).
 */
/** The `jwt` item: `params` required (its `signedWith` is), no quantity, no derived names. */
const JwtSetItem = Type.Object({
  name: Type.Ref(SetItemName.$id as string),
  type: Type.Literal(JWT_TYPE),
  params: Type.Ref(JwtParams.$id as string)
}, {
  $id: 'JwtSetItem',
  additionalProperties: false,
  description: 'A token signed with an earlier item\'s secret or signing key (`JwtParams`): Supabase\'s ANON_KEY and SERVICE_ROLE_KEY.'
})

export function setSchemas (generators: readonly SetGenerator[], recipeIds: readonly string[]): { schemas: TSchema[], item: TSchema, request: TObject } {
  const branches = [...generators.map(setItemBranch), JwtSetItem]
  const item = Type.Unsafe({
    $id: 'SetItem',
    type: 'object',
    required: ['name', 'type'],
    properties: {
      name: Type.Ref(SetItemName.$id as string),
      type: StringEnum([...generators.map(({ type }) => type), JWT_TYPE], { description: 'The generator: a path segment of `/api/generate/<type>`, or `jwt` (a token signed with an earlier item\'s key).' }),
      // No type of its own: the chosen branch's reference says what `params` is, and a generated
      // client then types it by `type` alone (an open object here would accept any field)
      params: Type.Unknown({
        default: {},
        description: 'That generator\'s parameters exactly as its own route takes them (default `{}`), validated as that route validates them.'
      }),
      ...derivedNameFields
    },
    additionalProperties: false,
    discriminator: { propertyName: 'type' },
    oneOf: branches.map((branch) => Type.Ref(branch.$id as string)),
    description: 'One secret of the set: its `name`, the generator (`type`) and that generator\'s parameters.'
  })
  const request = Type.Object({
    items: Type.Optional(Type.Array(Type.Ref('SetItem'), {
      minItems: 1,
      maxItems: SET_ITEMS_MAX,
      description: `1..${SET_ITEMS_MAX} items, answered in this order. Their quantities add up to at most ${QUANTITY_MAX}; ` +
        'in the `.env` form each makes one value and none may hold `\'`, `\\` or a control character (NOT_REPRESENTABLE). Required unless `recipe` is given.'
    })),
    recipe: Type.Optional(StringEnum(recipeIds, {
      description: 'In place of `items`: a recipe\'s id (GET /api/recipes), answered exactly as its items would be. Exactly one of `items` and `recipe`.'
    }))
  }, {
    $id: 'SetRequest',
    additionalProperties: false,
    description: 'Several generators in one request (all or nothing): every item is validated as its own route validates it, and nothing is drawn unless every item is valid. Give `items`, or `recipe` for every secret an app\'s install guide asks for.',
    examples: [{
      items: [
        { name: 'POSTGRES_PASSWORD', type: 'password', params: { length: 32, symbols: false } },
        { name: 'WG_SERVER', type: 'vpn', params: { protocol: 'wireguard' } },
        { name: 'WG_PSK', type: 'vpn', params: { protocol: 'wireguard-psk' } },
        { name: 'APP_TOKEN', type: 'token' }
      ]
    }]
  })
  return { schemas: [JwtParams, ...branches], item: item as TSchema, request }
}

/** An answered `jwt` item: one token, no randomness of its own. */
export const JwtSetResultItem = Type.Object({
  name: Type.Ref(SetItemName.$id as string),
  type: Type.Literal(JWT_TYPE),
  values: Type.Array(Type.String({ maxLength: JWT_MAX_LENGTH }), { minItems: 1, maxItems: 1, description: 'The token: a JWS compact serialization.' }),
  entropyBits: Type.Number({ description: 'Always 0: a token\'s strength is its key\'s.' })
}, { $id: 'JwtSetResultItem', additionalProperties: false, description: 'A jwt item of a set: its name, its type and the token.' })

/** An answered item of `generator`: `name`, then exactly the fields of its own answer but `generatedAt`. */
export function setResultItem (generator: SetGenerator): TObject {
  const { generatedAt: _generatedAt, ...fields } = generator.result.properties
  return Type.Object({
    name: Type.Ref(SetItemName.$id as string),
    ...fields
  }, {
    $id: `${generator.name}SetResultItem`,
    additionalProperties: false,
    description: `A ${generator.type} item of a set: its name, then the fields of \`${generator.result.$id as string}\` but \`generatedAt\`.`
  })
}

export function setResult (items: readonly TObject[]): TObject {
  return Type.Object({
    items: Type.Array(Type.Union(items.map((item) => Type.Ref(item.$id as string))), {
      maxItems: SET_ITEMS_MAX,
      description: 'The items in the request\'s order.'
    }),
    generatedAt: Type.String({
      format: 'date-time',
      description: 'Generation time of the whole set, UTC, ISO 8601 with milliseconds.',
      examples: ['2026-11-22T10:15:30.123Z']
    })
  }, { $id: 'SetResult', additionalProperties: false, description: 'The values of every item, made together.' })
}
