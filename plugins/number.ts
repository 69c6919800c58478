import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { NumberParams, NumberResult } from '../schemas/number.js'
import { ParameterError } from '../src/http/parameter-error.js'
import { DIGITS } from '../src/random/alphabets.js'
import { entropyBitsOf } from '../src/random/entropy.js'
import { registerGenerator, type Generated } from '../src/http/generator-route.js'
import { randomBelow } from '../src/random/csprng.js'

type Params = Static<typeof NumberParams>

/**
 * The excluded values inside [min, max], sorted and without duplicates. Strings are base-10
 * integers (the schema's pattern has checked them). Beyond 2^53 a string or JSON integer converts
 * inexactly, but rounding keeps it at or beyond 2^53 in magnitude, so outside every safe range:
 * in the safe range Number arithmetic is exact, and BigInt is not needed here.
 */
export function exclusionsInRange (exclusions: ReadonlyArray<string | number>, min: number, max: number): Float64Array {
  const inRange = new Float64Array(exclusions.length)
  let count = 0
  for (const value of exclusions) {
    const excluded = Number(value)
    if (Number.isSafeInteger(excluded) && excluded >= min && excluded <= max) inRange[count++] = excluded
  }
  // A typed array sorts numerically; after sorting, duplicates are neighbours (-0 === 0 merges them too)
  const sorted = inRange.subarray(0, count).sort()
  let distinct = 0
  for (const value of sorted) if (distinct === 0 || value !== sorted[distinct - 1]) sorted[distinct++] = value
  return sorted.subarray(0, distinct)
}

/**
 * With `excluded` the sorted (ascending) first `count` excluded values, all >= min, and
 * `first` = min + index: the index-th allowed value (0-based). It is first + j, where j is the
 * number of excluded values below it, and j is the least i with excluded[i] > first + i
 * (excluded[i] - min - i counts the allowed values below excluded[i]; it never decreases with i,
 * so a binary search finds j). O(log count), no retries; j = result - first is also where the
 * result goes to keep `excluded` sorted.
 */
export function allowedValueAt (first: number, excluded: ArrayLike<number>, count = excluded.length): number {
  let low = 0
  let high = count
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((excluded[middle] as number) > first + middle) high = middle
    else low = middle + 1
  }
  return first + low
}

/** Every character of a value: decimal integers, negative ones with a minus sign. */
export const NUMBER_ALPHABET = '-' + DIGITS

/** The values of generateNumbersWithEntropy alone. */
export function generateNumbers (params: Params): string[] {
  return generateNumbersWithEntropy(params).values
}

/** Each value is uniform over the allowed values (for `unique`, taken alone): log2 of their count. */
export function numberEntropyBits (allowedCount: bigint): number {
  return entropyBitsOf(allowedCount)
}

/**
 * The number rules, checked before anything is drawn: the exclusions inside the range (sorted,
 * distinct) and how many values are left.
 */
export function numberPlan ({ min, max, quantity, unique, exclusions }: Params): { inRange: Float64Array, available: bigint } {
  if (min > max) {
    throw new ParameterError([{ pointer: '#/min', code: 'MIN_GREATER_THAN_MAX', args: { min, max } }])
  }
  const inRange = exclusionsInRange(exclusions, min, max)
  const available = BigInt(max) - BigInt(min) + 1n - BigInt(inRange.length)
  if (available === 0n) {
    throw new ParameterError([{ pointer: '#/exclusions', code: 'NO_VALUES_LEFT', args: { min, max } }])
  }
  if (unique && available < BigInt(quantity)) {
    throw new ParameterError([{ pointer: '#/quantity', code: 'NOT_ENOUGH_UNIQUE_VALUES', args: { available: available.toString(), quantity } }])
  }
  return { inRange, available }
}

/**
 * Uniform integers over [min, max] minus the exclusions, for any span of safe integers. The span
 * can reach 2^54 values, so the uniform index into the allowed values is a BigInt; min + index is
 * a safe integer (it is at most the allowed value it maps to), so the rest runs on exact Numbers.
 * The run time depends only on the number of exclusions and `quantity`. With `unique`, each drawn
 * value joins the exclusions before the next draw: sampling without replacement, uniform over subsets.
 * The count of allowed values is worked out once, for the draws and for entropyBits.
 */
export function generateNumbersWithEntropy (params: Params): Generated {
  const { min, quantity, unique } = params
  const { inRange, available } = numberPlan(params)
  const bigMin = BigInt(min)
  // Room for the values drawn with `unique`, so a draw joins the exclusions by one in-place shift
  const excluded = unique ? new Float64Array(inRange.length + quantity) : inRange
  if (unique) excluded.set(inRange)
  let count = inRange.length
  let remaining = available
  const values: string[] = []
  while (values.length < quantity) {
    const bigFirst = bigMin + randomBelow(remaining)
    const first = Number(bigFirst)
    const value = allowedValueAt(first, excluded, count)
    // BigInt prints a 16-digit integer several times faster than Number's shortest-double printing
    values.push((bigFirst + BigInt(value - first)).toString())
    if (unique) {
      const position = value - first
      excluded.copyWithin(position + 1, position, count)
      excluded[position] = value
      count++
      remaining--
    }
  }
  return { values, entropyBits: numberEntropyBits(available) }
}

export default fp(async function numberGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'number',
    name: 'Number',
    summary: 'Generate integers',
    description: 'Integers uniform over [min, max] (any span of safe integers) without the excluded values; `unique` draws without replacement. Values are decimal strings.',
    params: NumberParams,
    result: NumberResult,
    alphabet: NUMBER_ALPHABET,
    generate: generateNumbersWithEntropy,
    check: (params) => { numberPlan(params) }
  })
}, { name: 'generator-number', dependencies: ['errors'] })
