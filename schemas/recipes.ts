// CONTRACT §14: recipes, every secret an app's install guide asks for, as a set (§10). A recipe is
// data (recipes/<id>.ts); these schemas say what the catalog routes answer, and the catalog is
// checked against the set schema when it loads (plugins/sets.ts), never at a request.
import { Type } from '@sinclair/typebox'
import { SET_ITEMS_MAX, SET_NAME_MAX_LENGTH } from './sets.js'

/** More than the catalog will hold: the list's documented bound. */
export const RECIPES_MAX = 256
/** A recipe's `.env` lines: each item's, its public key's and its hash's. */
const RECIPE_NAMES_MAX = 3 * SET_ITEMS_MAX

/** `supabase`, `paperless-ngx`: lower-case letters, digits and hyphens. */
export const RECIPE_ID_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'

const RecipeId = Type.String({ maxLength: 32, pattern: RECIPE_ID_PATTERN, description: 'The recipe\'s id: what `{"recipe": "<id>"}` names.', examples: ['supabase'] })
const RecipeTitle = Type.String({ maxLength: 64, description: 'The app\'s name.', examples: ['Supabase'] })
const RecipeDocs = Type.String({ maxLength: 256, format: 'uri', pattern: '^https://', description: 'The app\'s official page that names these variables.' })

/** One recipe as its file holds it. `items` is a set body's `items` (§10), checked when the catalog loads. */
export interface Recipe {
  id: string
  title: string
  docs: string
  /** The group the page lists it under. */
  group: 'apps' | 'vpn' | 'keys'
  items: ReadonlyArray<Record<string, unknown>>
  /** One English sentence per `.env` name (derived names included): where the app reads it. */
  notes: Readonly<Record<string, string>>
}

export const RecipeSummary = Type.Object({
  id: RecipeId,
  title: RecipeTitle,
  docs: RecipeDocs,
  group: Type.Union([Type.Literal('apps'), Type.Literal('vpn'), Type.Literal('keys')], { description: 'apps: an app\'s install guide; vpn: a VPN server\'s keys; keys: signing keys and other key material.' }),
  names: Type.Array(Type.String({ maxLength: SET_NAME_MAX_LENGTH }), { maxItems: RECIPE_NAMES_MAX, description: 'Every name of the recipe\'s `.env` answer, in its order (derived names included).' })
}, { $id: 'RecipeSummary', additionalProperties: false })

export const RecipeList = Type.Object({
  recipes: Type.Array(Type.Ref('RecipeSummary'), { maxItems: RECIPES_MAX, description: 'Every recipe, by id.' })
}, { $id: 'RecipeList', additionalProperties: false, description: 'The recipes: what `{"recipe": "<id>"}` on /api/generate makes.' })

export const RecipeDetail = Type.Object({
  id: RecipeId,
  title: RecipeTitle,
  docs: RecipeDocs,
  group: RecipeSummary.properties.group,
  items: Type.Array(Type.Ref('SetItem'), { minItems: 1, maxItems: SET_ITEMS_MAX, description: 'A set body\'s `items` (§10): exactly what the recipe generates. Change it and send it to POST /api/generate yourself.' }),
  notes: Type.Record(Type.String(), Type.String({ maxLength: 512 }), { description: 'Each name of the `.env` answer, with one sentence saying where the app reads it.' })
}, { $id: 'RecipeDetail', additionalProperties: false })

export const RecipeIdParams = Type.Object({ id: Type.String({ maxLength: 32, description: 'The recipe\'s id.' }) }, { additionalProperties: false })
