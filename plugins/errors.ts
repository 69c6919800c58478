import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Problem, FieldError } from '../schemas/common.js'
import { registerErrorHandlers } from '../src/errors.js'

/** The problem+json error handler, 404/405 handler and the JSON-only body parser. */
export default fp(async function errors (app: FastifyInstance) {
  app.addSchema(FieldError)
  app.addSchema(Problem)
  registerErrorHandlers(app)

  // Only JSON bodies are accepted (anything else: 415). An empty JSON body means {}.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, {})
    else parseJson(request, body as string, done)
  })
}, { name: 'errors' })
