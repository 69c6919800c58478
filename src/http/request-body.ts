// Request bodies are read strictly, as X-Data is (CONTRACT §1.1): bytes that are not UTF-8 are an
// error, never replaced, and "empty" means zero bytes received, however the body was framed.
import type { Readable } from 'node:stream'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** `bytes` as text, or undefined when they are not valid UTF-8. */
export function strictUtf8 (bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

/**
 * Calls `then(true)` when `payload` ends without a byte, `then(false)` at its first byte (the rest
 * is never read: a body refused for its type costs nothing however long it is), or `then` with
 * the stream's error.
 */
export function whenEmpty (payload: Readable, then: (empty: boolean, error?: Error) => void): void {
  const finish = (empty: boolean, error?: Error): void => {
    payload.removeListener('data', onData)
    payload.removeListener('end', onEnd)
    payload.removeListener('error', onError)
    then(empty, error)
  }
  const onData = (chunk: Buffer | string): void => {
    if (chunk.length > 0) finish(false)
  }
  const onEnd = (): void => finish(true)
  const onError = (error: Error): void => finish(false, error)
  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', onError)
}
