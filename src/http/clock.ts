// `generatedAt` and the health timestamp: ISO 8601 UTC with milliseconds (CONTRACT §1.2, §3).
// Formatting a Date costs about a microsecond, as much as generating a password, and under load
// many requests fall in the same millisecond: they share its string.
let lastMs = Number.NaN
let lastIso = ''

/** The current time, e.g. `2026-11-23T10:15:30.123Z`. */
export function isoNow (): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString()
    lastMs = ms
  }
  return lastIso
}
