// Fastify makes each request a pino child logger, yet at `info` a successful request writes no
// line at all (RequestLogController). The request gets a stand-in instead, which makes that same
// child only when a line is about to be written: lines written are the ones pino would have
// written, with the same bindings, serializers and redaction. Measured here (pino 10, Node 20) the
// saving is small, ~0.15 µs a request: making a child costs ~0.19 µs, `redact` or not. Issue 13's
// estimate of 8-10 µs for the child was not borne out; the floor's cost lies elsewhere.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, Logger } from 'pino'

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/**
 * A pino child not made yet. Answers `level` and `isLevelEnabled` as the child would, from its
 * parent's level table (the service's logger: pino's levels, higher is more severe); a call at a
 * disabled level is a no-op, as in pino; anything else makes the child and hands over to it.
 */
export class LazyLogger implements FastifyBaseLogger {
  /** The real child, once made. */
  private made: Logger | undefined
  /**
   * A level of the child's own (a route's `logLevel`): pino gives the child its own level only
   * when it differs from the parent's at creation; otherwise the child follows the parent's level,
   * even when the parent's changes later.
   */
  private readonly ownLevel: LevelWithSilentOrString | undefined
  private readonly ownLevelValue: number | undefined
  private readonly childOptions: ChildLoggerOptions

  constructor (private readonly parent: Logger, private readonly childBindings: Bindings, options: ChildLoggerOptions) {
    if (options.level !== undefined && options.level !== parent.level) {
      this.ownLevel = options.level
      this.ownLevelValue = parent.levels.values[options.level]
      this.childOptions = options
    } else if (options.level === undefined) {
      this.childOptions = options
    } else {
      // Passed on, the parent's level would become the child's own and stop following the parent
      this.childOptions = { ...options }
      delete this.childOptions.level
    }
  }

  private make (): Logger {
    const made = this.parent.child(this.childBindings, this.childOptions)
    // Set even if the parent's level is now the same, so that it stays when the parent's changes
    if (this.ownLevel !== undefined) made.level = this.ownLevel
    this.made = made
    return made
  }

  get level (): LevelWithSilentOrString {
    if (this.made !== undefined) return this.made.level
    return this.ownLevel ?? this.parent.level
  }

  set level (level: LevelWithSilentOrString) {
    (this.made ?? this.make()).level = level
  }

  get levelVal (): number {
    if (this.made !== undefined) return this.made.levelVal
    return this.ownLevelValue ?? this.parent.levelVal
  }

  get levels (): Logger['levels'] {
    return (this.made ?? this.parent).levels
  }

  isLevelEnabled (level: LevelWithSilentOrString): boolean {
    if (this.made !== undefined) return this.made.isLevelEnabled(level)
    const value = this.parent.levels.values[level]
    return value !== undefined && value >= this.levelVal
  }

  fatal (...args: unknown[]): void { this.write('fatal', args) }
  error (...args: unknown[]): void { this.write('error', args) }
  warn (...args: unknown[]): void { this.write('warn', args) }
  info (...args: unknown[]): void { this.write('info', args) }
  debug (...args: unknown[]): void { this.write('debug', args) }
  trace (...args: unknown[]): void { this.write('trace', args) }
  silent (...args: unknown[]): void {}

  child (bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return (this.made ?? this.make()).child(bindings, options)
  }

  bindings (): Bindings {
    return (this.made ?? this.make()).bindings()
  }

  flush (callback?: (error?: Error) => void): void {
    // The child writes to its parent's stream: flushing one flushes the other
    (this.made ?? this.parent).flush(callback)
  }

  private write (method: Method, args: unknown[]): void {
    if (this.made === undefined) {
      // Disabled: a no-op, as in pino, and no child
      if (!this.isLevelEnabled(method)) return
      this.make()
    }
    const made = this.made as unknown as Record<Method, (...args: unknown[]) => void>
    made[method](...args)
  }
}

/**
 * For Fastify's `childLoggerFactory` option: every request's logger is lazy. The parent is the
 * pino logger serverOptions configures.
 * @see https://fastify.dev/docs/latest/Reference/Server/#childloggerfactory
 */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new LazyLogger(logger as Logger, bindings, options)
