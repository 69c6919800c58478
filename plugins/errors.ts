import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Problem, FieldError } from '../schemas/common.js'
import { ProblemError, registerErrorHandlers } from '../src/errors.js'

/** The problem+json error handler, 404/405 handler and the JSON-only body parser. */
export default fp(async function errors (app: FastifyInstance) {
  app.addSchema(FieldError)
  app.addSchema(Problem)
  registerErrorHandlers(app)

  // Only JSON bodies are accepted. An empty body means {} whatever its type (CONTRACT §1.1: only a
  // non-empty body of another type, or of none, is 415), so other types are refused by length
  // alone, before a byte of them is read.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, {})
    else parseJson(request, body as string, done)
  })
  app.addContentTypeParser('*', (request, _payload, done) => {
    const { 'content-length': length, 'transfer-encoding': encoding } = request.headers
    // No body at all, by the same rule Fastify applies to requests without a Content-Type
    if (encoding === undefined && (length === undefined || length === '0')) done(null, undefined)
    else done(new ProblemError(415, 'UNSUPPORTED_MEDIA_TYPE'), undefined)
  })
}, { name: 'errors' })
