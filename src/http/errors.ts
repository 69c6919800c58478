// Every error response is built here: one RFC 9457 problem document format for validation
// errors, X-Data and body errors, 404, 405, 413, 415, 500 and errors of the HTTP parser.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Socket } from 'node:net'
import { STATUS_CODES } from '../builtins.js'
import type { FieldCode, MessageArgs, ProblemCode, ProblemMessage } from '../i18n/catalog.js'
import { catalogs, negotiateLanguage, type Language } from '../i18n/index.js'
import { ParameterError, type FieldProblem } from './parameter-error.js'
import { SECURITY_HEADERS } from './security-headers.js'
import { expectedTypes, fieldErrorsFromAjv, MAX_FIELD_PROBLEMS, type AjvError } from './validation-errors.js'

/** Thrown for request-level problems (X-Data, body, 404, ...): becomes a problem document as is. */
export class ProblemError extends Error {
  readonly status: number
  readonly code: ProblemCode
  readonly detailMessage: ProblemMessage
  readonly args: MessageArgs
  /** Added to the log line of the rejection (a refused access key's id); never in the body. */
  readonly log: Record<string, string>
  constructor (status: number, code: ProblemCode, detailMessage: ProblemMessage = code as ProblemMessage, args: MessageArgs = {}, log: Record<string, string> = {}) {
    super(code)
    this.status = status
    this.code = code
    this.detailMessage = detailMessage
    this.args = args
    this.log = log
  }
}

export interface ProblemDocument {
  title: string
  status: number
  code: ProblemCode
  detail: string
  errors?: Array<{ pointer: string, code: FieldCode, detail: string }>
}

/** `#/exclusions/3` → `exclusions[3]`, the way a user names the parameter. */
function fieldName (pointer: string): string {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, index) => (index > 0 && /^[0-9]+$/.test(part) ? `[${part}]` : (index > 0 ? `.${part}` : part)))
    .join('')
}

export function localizeFieldProblems (language: Language, problems: FieldProblem[]): NonNullable<ProblemDocument['errors']> {
  const catalog = catalogs[language]
  return problems.map(({ pointer, code, message, args = {} }) => {
    const expected = args.expected === undefined
      ? undefined
      : catalog.or(expectedTypes(args.expected).map((type) => catalog.types[type]))
    const field = catalog.quote(fieldName(pointer))
    return { pointer, code, detail: catalog.fields[message ?? code]({ ...args, field, expected }) }
  })
}

export function problemDocument (language: Language, error: ProblemError): ProblemDocument {
  const catalog = catalogs[language]
  return {
    title: catalog.titles[error.code],
    status: error.status,
    code: error.code,
    detail: catalog.problems[error.detailMessage](error.args)
  }
}

export function validationProblem (language: Language, problems: FieldProblem[]): ProblemDocument {
  // Capped before localizing: a message is built only for an entry that is sent
  const errors = localizeFieldProblems(language, problems.slice(0, MAX_FIELD_PROBLEMS))
  return {
    title: catalogs[language].titles.VALIDATION_FAILED,
    status: 400,
    code: 'VALIDATION_FAILED',
    detail: errors[0]?.detail ?? '',
    errors
  }
}

/** Sends a request-level problem (404, 415, X-Data, ...) in the request's language. */
function sendError (request: FastifyRequest, reply: FastifyReply, error: ProblemError): FastifyReply {
  return sendProblem(request, reply, (language) => problemDocument(language, error))
}

export function sendProblem (request: FastifyRequest, reply: FastifyReply, build: (language: Language) => ProblemDocument): FastifyReply {
  const language = negotiateLanguage(request.headers)
  const body = build(language)
  request.server.metrics?.countProblem(body.code)
  // The body is serialised here, not by a route's response schema, so every route answers alike
  return reply
    .code(body.status)
    .header('content-type', 'application/problem+json; charset=utf-8')
    .header('content-language', language)
    .send(JSON.stringify(body))
}

/** 404 for the request's method and path (the query string is never echoed). */
function notFoundError (request: FastifyRequest): ProblemError {
  return new ProblemError(404, 'NOT_FOUND', 'NOT_FOUND', { method: request.method, path: pathOf(request.url) })
}

/** Fastify's own errors (content-type parser, body limit) and other plugins' client errors mapped to our problems. */
function problemFromFastifyError (error: FastifyError, request: FastifyRequest, bodyLimit: number): ProblemError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError(415, 'UNSUPPORTED_MEDIA_TYPE')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError(413, 'PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', { limit: bodyLimit })
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ProblemError(400, 'BODY_INVALID', 'BODY_NOT_JSON')
  }
  // Other client errors raised by Fastify or a plugin keep their status with a generic problem
  if (error.statusCode === 404) return notFoundError(request)
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ProblemError(error.statusCode, 'BAD_REQUEST')
  }
  return undefined
}

/** The methods a path answers, for 405's `Allow` (empty when the path does not exist). */
function allowedMethods (app: FastifyInstance, path: string): string[] {
  // The router matches the percent-decoded path; hasRoute reads its url as a route pattern
  // (`*`, `:`, `(` are syntax there and `/*a` throws), and none of our paths holds those.
  // Malformed percent-encoding never gets here: the router rejects it first (frameworkErrors).
  // The router never decodes %2F, so `/api/generate%2fpassword` is no route whatever the method;
  // decoded here it would name one and turn a 404 into a 405.
  if (/%2f/i.test(path)) return []
  const decoded = decodeURIComponent(path)
  if (/[*:()]/.test(decoded)) return []
  return app.supportedMethods.filter((method) => app.hasRoute({ method, url: decoded }))
}

/**
 * The path of a request URL: query strings are never echoed or logged, nor are the scheme, host
 * and userinfo (`user:secret@`) of an absolute-form target (RFC 9112 §3.2.2), which Node passes on
 * as it came. The path starts at the first `/` after `://`, where the router starts it; a target
 * of any other form has no path to show.
 */
export function pathOf (url: string): string {
  const query = url.indexOf('?')
  const target = query === -1 ? url : url.slice(0, query)
  if (target.startsWith('/') || target === '*') return target
  const scheme = target.indexOf('://')
  const path = scheme === -1 ? -1 : target.indexOf('/', scheme + 3)
  return path === -1 ? '/' : target.slice(path)
}

export function registerErrorHandlers (app: FastifyInstance): void {
  const bodyLimit = app.initialConfig.bodyLimit as number

  // 404 or 405 for a path or method that does not exist, whatever its body
  const notFound = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const allowed = allowedMethods(app, pathOf(request.url)).join(', ')
    if (allowed === '') return sendError(request, reply, notFoundError(request))
    reply.header('allow', allowed)
    return sendError(request, reply, new ProblemError(405, 'METHOD_NOT_ALLOWED', 'METHOD_NOT_ALLOWED', { method: request.method, allowed }))
  }

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Fastify parses the body before the not-found handler runs: a bad body sent to a route that
    // does not exist is still a 404/405, not a body error
    if (request.is404) return notFound(request, reply)
    if (error.validation !== undefined) {
      request.log.info({ code: 'VALIDATION_FAILED' }, 'invalid parameters')
      return sendProblem(request, reply, (language) =>
        validationProblem(language, fieldErrorsFromAjv(error.validation as unknown as AjvError[])))
    }
    if (error instanceof ParameterError) {
      request.log.info({ code: 'VALIDATION_FAILED' }, 'invalid parameters')
      return sendProblem(request, reply, (language) => validationProblem(language, error.problems))
    }
    const problem = error instanceof ProblemError ? error : problemFromFastifyError(error, request, bodyLimit)
    if (problem !== undefined) {
      request.log.info({ code: problem.code, status: problem.status, ...problem.log }, 'request rejected')
      return sendError(request, reply, problem)
    }
    // Internals go to the log only: the body says nothing of them
    request.log.error({ err: error }, 'unexpected error')
    return sendError(request, reply, new ProblemError(500, 'INTERNAL_ERROR'))
  })

  app.setNotFoundHandler(notFound)
}

/**
 * Errors the router raises before routing, such as a path that is not valid percent-encoding
 * (`/api/%zz`): no route has such a path, so 404. Fastify's `frameworkErrors` option.
 */
export function frameworkErrorHandler (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ code: 'NOT_FOUND', reason: error.code }, 'request rejected')
  // Fastify calls this before any hook, so the security hook has not set them
  reply.headers(SECURITY_HEADERS)
  sendError(request, reply, notFoundError(request))
}

// Written raw, before Node has a response object: the same headers as every other answer
const SECURITY_HEADER_LINES = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('')

const CLIENT_ERROR_STATUS: Record<string, [number, ProblemCode]> = {
  HPE_HEADER_OVERFLOW: [431, 'REQUEST_HEADER_FIELDS_TOO_LARGE'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT']
}

/**
 * Errors of Node's HTTP parser happen before there is a request to negotiate a language with,
 * so the problem document is in English. Fastify's `clientErrorHandler` option.
 */
export function clientErrorHandler (error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return
  const [status, code] = CLIENT_ERROR_STATUS[error.code ?? ''] ?? [400, 'BAD_REQUEST']
  const body = JSON.stringify(problemDocument('en', new ProblemError(status, code)))
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Connection: close\r\n' +
    'Content-Type: application/problem+json; charset=utf-8\r\n' +
    SECURITY_HEADER_LINES +
    'Content-Language: en\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  )
}
