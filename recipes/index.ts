// CONTRACT §14.3: the catalog, one file of data per recipe. Checked against the set schema (§10)
// when it loads (plugins/sets.ts): a broken recipe stops the start and fails the tests, never a request.
import type { Recipe } from '../schemas/recipes.js'
import supabase from './supabase.js'

/** Every recipe, by id. */
export const RECIPES: readonly Recipe[] = [
  supabase
].sort((a, b) => a.id.localeCompare(b.id))
