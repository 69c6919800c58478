// RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400. Node's own check
// (`requireHostHeader`) answers with a bare 400 before Fastify sees the request, the one answer
// that would be no problem document, so the server turns it off and this hook answers instead.
import type { onRequestHookHandler } from 'fastify'
import { problemDocument, ProblemError, sendProblem } from './errors.js'

export const requireHost: onRequestHookHandler = (request, reply, done) => {
  // HTTP/1.0 has no Host requirement; HTTP/2 carries :authority instead
  if (request.headers.host !== undefined || request.raw.httpVersion !== '1.1') return done()
  request.log.info({ code: 'BAD_REQUEST', reason: 'no Host header' }, 'request rejected')
  // Answered here, not passed to the error handler, which would make a 404 of an unknown path
  sendProblem(request, reply, (language) => problemDocument(language, new ProblemError(400, 'BAD_REQUEST')))
}
