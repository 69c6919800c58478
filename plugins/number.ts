import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { NumberParams, NumberResult } from '../schemas/number.js'
import { ParameterError } from '../src/errors.js'
import { registerGenerator } from '../src/generator-route.js'
import { randomBelow } from '../src/random.js'

type Params = Static<typeof NumberParams>

/**
 * The excluded values inside [min, max], sorted and without duplicates. Strings are base-10
 * integers: the schema's pattern has checked them (NOT_AN_INTEGER otherwise).
 */
export function exclusionsInRange (exclusions: ReadonlyArray<string | number>, min: bigint, max: bigint): bigint[] {
  const inRange = new Set<bigint>()
  for (const value of exclusions) {
    // JSON integers beyond 2^53 arrive as inexact numbers; they lie outside every safe range anyway
    const excluded = typeof value === 'number' ? (Number.isSafeInteger(value) ? BigInt(value) : undefined) : BigInt(value)
    if (excluded !== undefined && excluded >= min && excluded <= max) inRange.add(excluded)
  }
  // The values are distinct (a Set), so no two compare equal
  return [...inRange].sort((a, b) => (a < b ? -1 : 1))
}

/**
 * The `index`-th allowed value (0-based) of [min, max] without the sorted `excluded` values:
 * each excluded value at or below the candidate pushes it one further. O(excluded), no retries.
 */
export function allowedValueAt (index: bigint, min: bigint, excluded: readonly bigint[]): bigint {
  let value = min + index
  for (const skip of excluded) {
    if (skip <= value) value++
    else break
  }
  return value
}

function insertSorted (values: bigint[], value: bigint): void {
  let i = values.length
  while (i > 0 && (values[i - 1] as bigint) > value) i--
  values.splice(i, 0, value)
}

/**
 * Uniform integers over [min, max] minus the exclusions, for any span of safe integers (up to
 * 2^54 values, hence BigInt). A uniform index into the allowed values is mapped to its value, so
 * the run time depends only on the number of exclusions and `quantity`. With `unique`, each drawn
 * value joins the exclusions before the next draw: sampling without replacement, uniform over subsets.
 */
export function generateNumbers (params: Params): string[] {
  const { quantity, unique } = params
  if (params.min > params.max) {
    throw new ParameterError([{ pointer: '#/min', code: 'MIN_GREATER_THAN_MAX', args: { min: params.min, max: params.max } }])
  }
  const min = BigInt(params.min)
  const max = BigInt(params.max)
  const excluded = exclusionsInRange(params.exclusions, min, max)
  const available = max - min + 1n - BigInt(excluded.length)
  if (available === 0n) {
    throw new ParameterError([{ pointer: '#/exclusions', code: 'NO_VALUES_LEFT', args: { min: params.min, max: params.max } }])
  }
  if (unique && available < BigInt(quantity)) {
    throw new ParameterError([{ pointer: '#/quantity', code: 'NOT_ENOUGH_UNIQUE_VALUES', args: { available: available.toString(), quantity } }])
  }
  const values: string[] = []
  for (let drawn = 0n; values.length < quantity; drawn++) {
    const value = allowedValueAt(randomBelow(unique ? available - drawn : available), min, excluded)
    values.push(value.toString())
    if (unique) insertSorted(excluded, value)
  }
  return values
}

export default fp(async function numberGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'number',
    name: 'Number',
    summary: 'Generate integers',
    description: 'Integers uniform over [min, max] (any span of safe integers) without the excluded values; `unique` draws without replacement. Values are decimal strings.',
    params: NumberParams,
    result: NumberResult,
    generate: generateNumbers
  })
}, { name: 'generator-number', dependencies: ['errors'] })
