// CONTRACT §10: a set as a `.env` file. Every value is written between single quotes, which
// every reader the contract names (POSIX sh, Docker Compose, dotenv, Node's parseEnv, godotenv,
// python-dotenv without interpolation) takes literally; test/plugins/sets-env-readers.test.ts
// reads answers back with each of them. What single quotes cannot carry is refused before
// anything is drawn (GeneratorDefinition.notRepresentable), never found in a value by chance.

/**
 * What no single-quoted value can hold: the quote itself ends it, a backslash escapes in some
 * readers (python-dotenv reads a doubled backslash, and one before a quote, as escapes even
 * between single quotes), and a control character (Unicode Cc: line feed and carriage return
 * among them) ends a line or is dropped.
 */
export const UNQUOTABLE = /['\\\p{Cc}]/u

/** Whether `text` holds a character a single-quoted `.env` value cannot carry. */
export function holdsUnquotable (text: string): boolean {
  return UNQUOTABLE.test(text)
}

/** One `NAME='value'` line per entry, each ending in a line feed, nothing else (CONTRACT §10). */
export function envFile (entries: ReadonlyArray<readonly [name: string, value: string]>): string {
  let text = ''
  for (const [name, value] of entries) {
    // Refused before drawing (plugins/sets.ts); a value that got here anyway is a bug, never a broken file
    if (holdsUnquotable(value)) throw new Error(`.env: the value of ${name} cannot be single-quoted`)
    text += `${name}='${value}'\n`
  }
  return text
}
