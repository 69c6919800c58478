// The BIP-39 lists are built on first use (plugins/phrase.ts, issue 26): a fresh process builds none
// of the non-English lists until asked, then each exactly once, and the requests that trigger it,
// several at once included, answer as any later request does. Its own file, so its own process:
// no other test has built a list before these run. Building a Japanese list is the one thing
// here that normalises thousands of strings (4 forms × 2,048 words), so counting normalisations
// tells when it happens.
import t from 'tap'
import * as bip39 from 'bip39'
import { build, post } from '../helper.js'

const JAPANESE_WORDS = 2048
// The independent implementation's own Japanese list
const JAPANESE_LIST = bip39.wordlists.japanese as string[]
const NORMAL_FORMS = 4

t.test('start-up and English requests build no other list; the first Japanese requests build it once', async (t) => {
  const normalizations = t.capture(String.prototype, 'normalize', String.prototype.normalize)
  const app = await build(t)
  const english = await post(app, 'phrase', {})
  t.equal(english.statusCode, 200)
  t.ok(normalizations().length < 100, 'no list normalised word by word at start-up nor for an English phrase')

  // Concurrent first requests: every one answers 200 with valid Japanese phrases
  const first = await Promise.all(Array.from({ length: 8 }, () => post(app, 'phrase', { language: 'japanese', separator: '\u3000', quantity: 2 })))
  const built = normalizations().length
  t.ok(built >= NORMAL_FORMS * JAPANESE_WORDS, `the Japanese list built (${built} normalisations)`)
  t.ok(built < 2 * NORMAL_FORMS * JAPANESE_WORDS, 'and built once, not once per request')
  for (const response of first) {
    t.equal(response.statusCode, 200)
    for (const value of response.json<{ values: string[] }>().values) {
      t.ok(bip39.validateMnemonic(value, JAPANESE_LIST), 'a valid Japanese mnemonic (independent bip39)')
    }
  }

  const later = await post(app, 'phrase', { language: 'japanese', separator: '\u3000' })
  t.equal(later.statusCode, 200)
  t.ok(normalizations().length < 100, 'a later request builds nothing')
  // What the first requests answered is what the built list answers: same headers, same shape
  t.same(Object.keys(first[0]?.headers ?? {}).sort(), Object.keys(later.headers).sort())
})
