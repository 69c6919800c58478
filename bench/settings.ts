// A benchmark's numeric settings from the environment, e.g. BENCH_ROUNDS=5 or FLOOD_SECONDS=45.

/** `process.env[name]` as a number, `fallback` when unset; anything else than a number from `min` on stops the bench. */
export function numberSetting (name: string, fallback: number, min: { above: number } | { from: number } = { above: 0 }): number {
  const value = Number(process.env[name] ?? fallback)
  const fits = 'above' in min ? value > min.above : value >= min.from
  if (!Number.isFinite(value) || !fits) throw new Error(`${name} must be a number ${'above' in min ? `> ${min.above}` : `>= ${min.from}`}`)
  return value
}
