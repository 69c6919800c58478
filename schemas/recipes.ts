// CONTRACT §14: recipes, every secret an app's install guide asks for, as a set (§10). A recipe is
// data (recipes/<id>.ts); these schemas say what the catalog routes answer, and the catalog is
// checked against the set schema when it loads (plugins/sets.ts), never at a request.
import { Type, type Static } from '@sinclair/typebox'

/** `supabase`, `paperless-ngx`: lower-case letters, digits and hyphens. */
export const RECIPE_ID_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'

const RecipeId = Type.String({ pattern: RECIPE_ID_PATTERN, description: 'The recipe\'s id: what `{"recipe": "<id>"}` names.', examples: ['supabase'] })
const RecipeTitle = Type.String({ description: 'The app\'s name.', examples: ['Supabase'] })
const RecipeDocs = Type.String({ format: 'uri', pattern: '^https://', description: 'The app\'s official page that names these variables.' })

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
  names: Type.Array(Type.String(), { description: 'Every name of the recipe\'s `.env` answer, in its order (derived names included).' })
}, { $id: 'RecipeSummary', additionalProperties: false })

export const RecipeList = Type.Object({
  recipes: Type.Array(Type.Ref('RecipeSummary'), { description: 'Every recipe, by id.' })
}, { $id: 'RecipeList', additionalProperties: false, description: 'The recipes: what `{"recipe": "<id>"}` on /api/generate makes.' })

export const RecipeDetail = Type.Object({
  id: RecipeId,
  title: RecipeTitle,
  docs: RecipeDocs,
  group: RecipeSummary.properties.group,
  items: Type.Array(Type.Ref('SetItem'), { description: 'A set body\'s `items` (§10): exactly what the recipe generates. Change it and send it to POST /api/generate yourself.' }),
  notes: Type.Record(Type.String(), Type.String(), { description: 'Each name of the `.env` answer, with one sentence saying where the app reads it.' })
}, { $id: 'RecipeDetail', additionalProperties: false })

export const RecipeIdParams = Type.Object({ id: Type.String({ description: 'The recipe\'s id.' }) }, { additionalProperties: false })
export type RecipeIdParams = Static<typeof RecipeIdParams>
