// Password randomness. Every check: false-alarm rate alpha <= 1e-6 (split across a test's checks,
// Bonferroni), and a sample size that catches a 1% bias (total variation 0.01, Cohen's w >= 0.02)
// with probability >= 0.99, checked by assertPower before sampling.
import t from 'tap'
import { randomInt } from 'node:crypto'
import { CHARACTER_SETS, drawByComposition, generatePassword, passwordPlan, type CharacterSet } from '../../plugins/password.js'
import { ALPHA, assertFits, assertPower, type Asserts, countByPosition } from './fit.js'
import { goodnessOfFit, uniform } from './chi-square.js'

const ALL_SETS = Object.keys(CHARACTER_SETS) as CharacterSet[]

/** The plan of `length` characters over `sets`, every minimum 1 (the defaults). */
function planOf (length: number, sets: CharacterSet[]) {
  const enabled = { uppercase: false, lowercase: false, numbers: false, symbols: false }
  for (const set of sets) enabled[set] = true
  return passwordPlan({ length, ...enabled, minUppercase: 1, minLowercase: 1, minNumbers: 1, minSymbols: 1, avoidAmbiguous: false, symbolSet: CHARACTER_SETS.symbols, exclude: '', quantity: 1 })
}

function characterFrequencies (t: Asserts, sets: CharacterSet[], passwords: number): void {
  const alphabet = sets.map((set) => CHARACTER_SETS[set]).join('')
  const n = passwords * 128
  assertPower(t, alphabet.length - 1, ALPHA, n)
  const counts = new Array<number>(alphabet.length).fill(0)
  for (const row of countByPosition(Array.from({ length: passwords }, () => generatePassword(planOf(128, sets))), alphabet, 128)) {
    row.forEach((count, symbol) => { counts[symbol] = (counts[symbol] as number) + count })
  }
  // At length 128 a draw misses a set with probability < 1e-6, so the rule leaves the
  // character frequencies uniform over the union to far better than the test can see
  assertFits(t, counts, uniform(alphabet.length), ALPHA, `${sets.join('+')} at length 128, ${n} characters`)
}

t.test('length 128: characters uniform over the union of the sets (alpha 1e-6, power 0.99 vs 1% bias)', async (t) => {
  t.test('all four sets (90 characters)', async (t) => characterFrequencies(t, ALL_SETS, 3000))
  t.test('numbers and symbols (38 characters)', async (t) => characterFrequencies(t, ['numbers', 'symbols'], 3000))
})

// Length 6, all sets: which set each position holds. Under the contract's model (uniform over
// all 90^6 strings holding each set at least once) a string's "class pattern" (U/L/N/S per
// position) has probability ∝ Π size(class): enumerate all 4^6 patterns for the exact law.
const SET_SIZES = ALL_SETS.map((set) => CHARACTER_SETS[set].length)
const CLASS_OF = new Map<string, number>()
ALL_SETS.forEach((set, index) => { for (const character of CHARACTER_SETS[set]) CLASS_OF.set(character, index) })

/** The class counts (u, l, n, s), each >= 1 and summing to 6, as a category index. */
const COMPOSITIONS: string[] = []
for (let u = 1; u <= 3; u++) for (let l = 1; u + l <= 4; l++) for (let n = 1; u + l + n <= 5; n++) COMPOSITIONS.push(`${u},${l},${n},${6 - u - l - n}`)

function exactLaw (): { composition: number[], positionClass: number[] } {
  const composition = new Array<number>(COMPOSITIONS.length).fill(0)
  const positionClass = new Array<number>(4).fill(0)
  let total = 0
  for (let pattern = 0; pattern < 4 ** 6; pattern++) {
    const classes = Array.from({ length: 6 }, (_, position) => Math.floor(pattern / 4 ** position) % 4)
    const counts = [0, 0, 0, 0]
    for (const c of classes) counts[c] = (counts[c] as number) + 1
    if (counts.includes(0)) continue
    const weight = classes.reduce((product, c) => product * (SET_SIZES[c] as number), 1)
    total += weight
    const index = COMPOSITIONS.indexOf(counts.join(','))
    composition[index] = (composition[index] as number) + weight
    // Position 0's class; by symmetry of the model every position has the same law
    positionClass[classes[0] as number] = (positionClass[classes[0] as number] as number) + weight
  }
  return { composition: composition.map((w) => w / total), positionClass: positionClass.map((w) => w / total) }
}

function tally (passwords: Iterable<string>): { composition: number[], positions: number[][] } {
  const composition = new Array<number>(COMPOSITIONS.length).fill(0)
  const positions = Array.from({ length: 6 }, () => [0, 0, 0, 0])
  for (const password of passwords) {
    const counts = [0, 0, 0, 0]
    for (let position = 0; position < 6; position++) {
      const c = CLASS_OF.get(password[position] as string) as number
      counts[c] = (counts[c] as number) + 1
      const row = positions[position] as number[]
      row[c] = (row[c] as number) + 1
    }
    const index = COMPOSITIONS.indexOf(counts.join(','))
    composition[index] = (composition[index] as number) + 1
  }
  return { composition, positions }
}

// "One of each set, then fill from the union, then shuffle": the shortcut the contract forbids
function oneOfEachThenShuffle (): string {
  const union = ALL_SETS.map((set) => CHARACTER_SETS[set]).join('')
  const chars = ALL_SETS.map((set) => CHARACTER_SETS[set][randomInt(CHARACTER_SETS[set].length)] as string)
  while (chars.length < 6) chars.push(union[randomInt(union.length)] as string)
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string]
  }
  return chars.join('')
}

t.test('length 6, all sets: which sets appear where matches uniform-over-valid-passwords', async (t) => {
  const law = exactLaw()
  // alpha 1e-6 split: half to the composition test (df 9), half over the six position tests (df 3 each)
  const alphaComposition = ALPHA / 2
  const alphaPosition = ALPHA / 2 / 6
  const n = 200_000
  assertPower(t, COMPOSITIONS.length - 1, alphaComposition, n)
  assertPower(t, 3, alphaPosition, n)

  t.test('negative control: one-of-each-then-shuffle is rejected', async (t) => {
    const { composition } = tally(Array.from({ length: 20_000 }, oneOfEachThenShuffle))
    const { pValue } = goodnessOfFit(composition, law.composition)
    t.ok(pValue < alphaComposition, `shortcut generator: p = ${pValue.toExponential(3)}`)
  })

  // Rejection accepts 28% of draws here, so the generator takes that path; drawing by composition
  // must give the same law (a second test, with its own alpha 1e-6)
  const plan = planOf(6, ALL_SETS)
  for (const [name, draw] of [['generatePassword', generatePassword], ['drawByComposition', drawByComposition]] as const) {
    t.test(`${name}, ${n} passwords`, async (t) => {
      const { composition, positions } = tally(Array.from({ length: n }, () => draw(plan)))
      assertFits(t, composition, law.composition, alphaComposition, 'class counts (u,l,n,s)')
      positions.forEach((row, position) => assertFits(t, row, law.positionClass, alphaPosition, `class at position ${position}`))
    })
  }
})
