import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Problem, FieldError } from '../schemas/common.js'
import { ProblemError, registerErrorHandlers } from '../src/http/errors.js'
import { requireHost } from '../src/http/host-header.js'
import { strictUtf8, whenEmpty } from '../src/http/request-body.js'

/** The problem+json error handler, 404/405 handler and the JSON-only body parser. */
export default fp(async function errors (app: FastifyInstance) {
  app.addSchema(FieldError)
  app.addSchema(Problem)
  registerErrorHandlers(app)
  app.addHook('onRequest', requireHost)

  // Only JSON bodies are accepted. An empty body means {} whatever its type (CONTRACT §1.1: only a
  // non-empty body of another type, or of none, is 415), so other types are refused as soon as a
  // byte of them is known to exist, never read in full.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  // Read as bytes: Fastify's string decoding replaces invalid UTF-8 with U+FFFD, which X-Data refuses
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer
    if (bytes.length === 0) return done(null, {})
    const text = strictUtf8(bytes)
    if (text === undefined) done(new ProblemError(400, 'BODY_INVALID', 'BODY_NOT_UTF8'), undefined)
    else parseJson(request, text, done)
  })
  app.addContentTypeParser('*', (request, payload, done) => {
    const { 'content-length': length, 'transfer-encoding': encoding } = request.headers
    if (encoding === undefined) {
      // Node accepts `Content-Length: 00`: zero bytes however the number is written
      if (length === undefined || /^0+$/.test(length)) done(null, undefined)
      else done(new ProblemError(415, 'UNSUPPORTED_MEDIA_TYPE'), undefined)
      return
    }
    // A chunked body's size is known only once it ends: empty means no body, one byte means 415
    whenEmpty(payload, (empty, error) => {
      if (error !== undefined) done(error, undefined)
      else done(empty ? null : new ProblemError(415, 'UNSUPPORTED_MEDIA_TYPE'), undefined)
    })
  })
}, { name: 'errors' })
