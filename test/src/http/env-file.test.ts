// The .env writer of sets (CONTRACT §10) and the characters it refuses.
import t from 'tap'
import { envFile, holdsUnquotable } from '../../../src/http/env-file.js'

// Named by code point: a raw line or paragraph separator in a test name would break TAP's lines
const named = (text: string) => [...text].map((character) => `U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`).join(' ') || 'empty'

t.test('holdsUnquotable: a single quote, a backslash or any Unicode Cc; nothing else', async (t) => {
  for (const text of ['\'', '\\', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', '\u0085', '\u009f', 'a\'b']) t.ok(holdsUnquotable(text), named(text))
  for (const text of ['', '$#"`& =', 'é€😀', '\u2028', '\u2029', '\u3000', '\u00a0']) t.notOk(holdsUnquotable(text), named(text))
})

t.test('envFile: NAME=\'value\' lines, each ending in a line feed; a value it cannot carry is a bug, never a broken file', async (t) => {
  t.equal(envFile([['A', 'x y$#"`'], ['B_PUBLIC_KEY', '']]), 'A=\'x y$#"`\'\nB_PUBLIC_KEY=\'\'\n')
  t.equal(envFile([]), '')
  t.throws(() => envFile([['A', 'it\'s']]), /cannot be single-quoted/)
})
