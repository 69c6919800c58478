// A parameter's problems as rules find them (and as AJV's errors are mapped to them): what a
// generator throws and src/http/errors.ts turns into 400 VALIDATION_FAILED. Its own module so the
// AJV mapping (validation-errors.ts) and the problem documents (errors.ts) both import it, one way.
import type { FieldCode, FieldMessage, MessageArgs } from '../i18n/catalog.js'

/** A parameter problem found by a rule after schema validation (or mapped from AJV). */
export interface FieldProblem {
  pointer: string
  code: FieldCode
  /** The catalog message when it is not the one named like the code. */
  message?: FieldMessage
  args?: MessageArgs
}

/** Thrown by generators for rule violations: becomes 400 VALIDATION_FAILED. */
export class ParameterError extends Error {
  readonly problems: FieldProblem[]
  constructor (problems: FieldProblem[]) {
    super(problems.map((p) => p.code).join(', '))
    this.problems = problems
  }
}
