// Its own module so that config.ts and what config.ts calls to check a setting (access-keys.ts)
// both throw it without importing each other.

/** Thrown for a bad environment: the message is one line that names the variable. */
export class ConfigError extends Error {}
