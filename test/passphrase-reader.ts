// Reads a passphrase back into list words, for the tests and the fuzz. A plain split cannot do it:
// four list words carry a hyphen of their own (so `-` in the value may be inside a word), and an
// empty separator leaves no boundary at all. The reader tries every list word at every place
// instead, so it finds every way the value could have been made.

export interface PassphraseShape {
  words: number
  separator: string
  capitalize: boolean
  includeNumber: boolean
}

export interface Reading {
  /** The words as listed (lower case), in order. */
  words: string[]
  /** The word the digit follows, and the digit (both -1 without includeNumber). */
  digitAfter: number
  digit: number
}

export interface Readings {
  /** The first reading found, if any. */
  first: Reading | undefined
  /** How many readings there are, counted up to 2 (2 means "more than one"). */
  count: number
}

const DIGIT = /[0-9]/

/** Every way `value` is `shape.words` list words joined by the separator, with the digit where asked. */
export function readPassphrase (value: string, shape: PassphraseShape, list: ReadonlySet<string>, longest = 9): Readings {
  const { words, separator, capitalize, includeNumber } = shape
  // What a list word looks like in the value: as listed, or with its first letter upper case
  // (a word whose script has no case, CJK or Hangul, looks the same either way)
  const asListWord = (text: string): string | undefined => {
    if (!capitalize) return list.has(text) ? text : undefined
    const first = text.charAt(0)
    const word = first.toLowerCase() + text.slice(1)
    const hasCase = first.toLowerCase() !== first.toUpperCase()
    return list.has(word) && (hasCase ? text !== word && first === word.charAt(0).toUpperCase() : text === word) ? word : undefined
  }
  const found: Reading[] = []
  // Depth-first over (position, words read, digit used); values are at most ~280 characters and
  // each step tries at most `longest` lengths, so this stays small
  const visit = (at: number, read: string[], digitAfter: number, digit: number): void => {
    if (found.length >= 2) return
    if (read.length === words) {
      if (at === value.length && (!includeNumber || digitAfter >= 0)) found.push({ words: [...read], digitAfter, digit })
      return
    }
    if (read.length > 0) {
      if (!value.startsWith(separator, at)) return
      at += separator.length
    }
    for (let length = 1; length <= longest && at + length <= value.length; length++) {
      const word = asListWord(value.slice(at, at + length))
      if (word === undefined) continue
      read.push(word)
      const next = at + length
      visit(next, read, digitAfter, digit)
      if (includeNumber && digitAfter < 0 && DIGIT.test(value.charAt(next))) visit(next + 1, read, read.length - 1, Number(value.charAt(next)))
      read.pop()
    }
  }
  visit(0, [], -1, -1)
  return { first: found[0], count: found.length }
}
