// A table whose entries are built on first read rather than when the module loads. Most requests
// use a default (the English BIP-39 list, say) and a process may never be asked for the others:
// building all of them at start-up cost start-up time and idle memory for nothing (issue 26,
// docs/performance.md). Reads are synchronous, so the first request that needs an entry gets it
// in the same call, and requests arriving together cannot see it half-built.

/**
 * A frozen table with one enumerable entry per key, `build(key)` run on the first read of that key
 * and its result returned on every later read. A `build` that throws leaves the entry unbuilt:
 * the error reaches the reader and the next read tries again, nothing broken is kept.
 */
export function lazyTable<Key extends string, Value> (keys: readonly Key[], build: (key: Key) => Value): Readonly<Record<Key, Value>> {
  const table = {} as Record<Key, Value>
  for (const key of keys) {
    // One flag and one value per entry: a read once built is a branch, no lookup
    let built = false
    let value: Value
    Object.defineProperty(table, key, {
      enumerable: true,
      get: () => {
        if (!built) {
          value = build(key)
          built = true
        }
        return value
      }
    })
  }
  return Object.freeze(table)
}
