import fp from 'fastify-plugin'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { Static } from '@sinclair/typebox'
import { RecipeDetail, RecipeIdParams, RecipeList, RecipeSummary } from '../schemas/recipes.js'

/**
 * CONTRACT §14.1: the catalog, read. Both routes hold no secret: like /docs they stay open when
 * access keys are on (src/ops's access-key check takes generator routes only). The recipes come
 * as the set plugin checked them when the app got ready.
 */
export default fp(async function recipes (app: FastifyInstance) {
  app.addSchema(RecipeSummary)
  app.addSchema(RecipeList)
  app.addSchema(RecipeDetail)

  app.get('/api/recipes', {
    schema: {
      operationId: 'listRecipes',
      summary: 'List the recipes',
      description: 'Every recipe, by id: every secret an app\'s install guide asks for, made by `{"recipe": "<id>"}` on POST /api/generate. `names` are the lines of its `.env` answer, in order.',
      tags: ['recipes'],
      response: { 200: Type.Ref('RecipeList') }
    }
  }, async () => ({
    recipes: [...app.recipes.values()].map(({ recipe: { id, title, docs, group }, names }) => ({ id, title, docs, group, names }))
  }))

  app.get<{ Params: Static<typeof RecipeIdParams> }>('/api/recipes/:id', {
    schema: {
      operationId: 'getRecipe',
      summary: 'Read a recipe',
      description: 'A recipe\'s items (a set body\'s `items`: change them and send them to POST /api/generate yourself) and a note for each name of its `.env` answer, saying where the app reads it. An unknown id: 404.',
      tags: ['recipes'],
      params: RecipeIdParams,
      response: { 200: Type.Ref('RecipeDetail') }
    },
    // CONTRACT §14.1: an id no recipe has is 404, however long: the bound documents ids, it refuses none
    attachValidation: true
  }, async (request, reply) => {
    const checked = request.validationError === undefined ? app.recipes.get(request.params.id) : undefined
    if (checked === undefined) return reply.callNotFound()
    const { id, title, docs, group, items, notes } = checked.recipe
    // The items as the recipe's file has them, not with every default the schema's serializer
    // would write in: what a person reads, changes and posts back (the schema documents the answer)
    return reply.header('content-type', 'application/json; charset=utf-8').serializer(JSON.stringify).send({ id, title, docs, group, items, notes })
  })
}, { name: 'recipes', dependencies: ['errors', 'sets'] })
