// Exact counting and sampling of strings over disjoint character sets with a minimum per set.
// A string of `length` characters is valid when set j supplies at least `minimums[j]` of them.
// Its composition is how many characters each set supplies (k_0, ..., k_{s-1}, summing to
// `length`); the valid strings of composition k number
//   length! / (k_0! ... k_{s-1}!) · size_0^k_0 ... size_{s-1}^k_{s-1}
// (the positions of each set, then the characters). Drawing k with probability proportional to
// that number, then each set's characters uniformly and a uniform arrangement of them, gives
// every valid string the same probability: 1 / (number of valid strings).
//
// The compositions are too many to list (333,375 for 128 characters over four sets), so they are
// drawn one set at a time: with tails[j][r] the number of valid strings of r characters over
// sets j..s-1 (each meeting its minimum),
//   tails[j][r] = sum over k of C(r, k) · size_j^k · tails[j+1][r - k],
// set j takes k of the r characters left with probability C(r, k) · size_j^k · tails[j+1][r - k]
// / tails[j][r]. Multiplied out over the sets these probabilities are exactly the composition's
// share of tails[0][length]. Everything is exact BigInt arithmetic.
import { randomBigBelow } from './csprng.js'

const MAX_LENGTH = 256

// Pascal's triangle, C(n, k) for n <= MAX_LENGTH, built on first use
const binomials: bigint[][] = []
function binomial (n: number, k: number): bigint {
  while (binomials.length <= n) {
    const m = binomials.length
    const row: bigint[] = [1n]
    for (let i = 1; i < m; i++) row.push((binomials[m - 1]?.[i - 1] as bigint) + (binomials[m - 1]?.[i] as bigint))
    if (m > 0) row.push(1n)
    binomials.push(row)
  }
  return binomials[n]?.[k] as bigint
}

// size^k for each set size in use, k <= MAX_LENGTH
const powerTables = new Map<number, bigint[]>()
function power (size: number, k: number): bigint {
  let table = powerTables.get(size)
  if (table === undefined) {
    table = [1n]
    for (let i = 1; i <= MAX_LENGTH; i++) table.push((table[i - 1] as bigint) * BigInt(size))
    powerTables.set(size, table)
  }
  return table[k] as bigint
}

export interface SetRule {
  /** How many characters the set has. */
  size: number
  /** The fewest characters of a valid string that come from the set. */
  minimum: number
}

export class Compositions {
  readonly length: number
  readonly sets: readonly SetRule[]
  /** The number of valid strings. */
  readonly count: bigint
  // tails[j].get(r): valid strings of r characters over sets j..s-1
  private readonly tails: Array<Map<number, bigint>>
  // minimumFrom[j]: the minimums of sets j..s-1 added up
  private readonly minimumFrom: number[]
  // Per (set, characters left): the cumulative weights of each k, built on first use
  private readonly cumulative = new Map<number, bigint[]>()

  constructor (length: number, sets: readonly SetRule[]) {
    if (length > MAX_LENGTH || sets.length === 0) throw new RangeError('Compositions: at least one set and at most 256 characters')
    this.length = length
    this.sets = sets
    this.minimumFrom = new Array<number>(sets.length + 1).fill(0)
    for (let j = sets.length - 1; j >= 0; j--) this.minimumFrom[j] = (this.minimumFrom[j + 1] as number) + (sets[j] as SetRule).minimum
    this.tails = sets.map(() => new Map<number, bigint>())
    this.tails.push(new Map([[0, 1n]]))
    // Only the r that set j can be left with: the later sets' minimums at least, and at most what
    // the earlier sets' minimums leave; set 0 always has all `length` characters
    const before = (j: number) => (this.minimumFrom[0] as number) - (this.minimumFrom[j] as number)
    for (let j = sets.length - 1; j >= 0; j--) {
      const low = j === 0 ? length : (this.minimumFrom[j] as number)
      const high = length - before(j)
      const tail = this.tails[j] as Map<number, bigint>
      for (let r = low; r <= high; r++) tail.set(r, this.sum(j, r))
    }
    this.count = (this.tails[0] as Map<number, bigint>).get(length) as bigint
  }

  /** The count of the valid strings of r characters over sets j.. in which set j has k of them. */
  private weight (j: number, r: number, k: number): bigint {
    const rest = this.tails[j + 1]?.get(r - k) ?? 0n
    return rest === 0n ? 0n : binomial(r, k) * power((this.sets[j] as SetRule).size, k) * rest
  }

  /** The k set j may take of r characters: its minimum .. what the later sets' minimums leave. */
  private range (j: number, r: number): [number, number] {
    return [(this.sets[j] as SetRule).minimum, r - (this.minimumFrom[j + 1] as number)]
  }

  private sum (j: number, r: number): bigint {
    const [low, high] = this.range(j, r)
    let total = 0n
    for (let k = low; k <= high; k++) total += this.weight(j, r, k)
    return total
  }

  private cumulativeWeights (j: number, r: number): bigint[] {
    const key = j * 1024 + r
    let sums = this.cumulative.get(key)
    if (sums === undefined) {
      const [low, high] = this.range(j, r)
      sums = []
      let total = 0n
      for (let k = low; k <= high; k++) sums.push(total += this.weight(j, r, k))
      this.cumulative.set(key, sums)
    }
    return sums
  }

  /**
   * A composition (characters per set) drawn with probability proportional to its number of
   * valid strings. Requires count > 0.
   */
  draw (): number[] {
    const composition: number[] = []
    let left = this.length
    for (let j = 0; j < this.sets.length - 1; j++) {
      const sums = this.cumulativeWeights(j, left)
      const u = randomBigBelow(sums[sums.length - 1] as bigint)
      // The first k whose cumulative weight exceeds u: each k is picked with probability weight / total
      let low = 0
      let high = sums.length - 1
      while (low < high) {
        const middle = (low + high) >>> 1
        if ((sums[middle] as bigint) > u) high = middle
        else low = middle + 1
      }
      const k = (this.sets[j] as SetRule).minimum + low
      composition.push(k)
      left -= k
    }
    // The last set takes what is left (its minimum is met: the ranges above keep room for it)
    composition.push(left)
    return composition
  }
}
