import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { PinParams, PinResult } from '../schemas/pin.js'
import { DIGITS } from '../src/random/alphabets.js'
import { rememberedEntropyBits } from '../src/random/entropy.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { randomString } from '../src/random/csprng.js'

type Params = Static<typeof PinParams>

/** Every character of a value: the ten digits. */
export const PIN_ALPHABET = DIGITS

/**
 * CONTRACT §2 pin: weak when the digits repeat a shorter block whose length divides the PIN's
 * (`1212`, `000000`), or when they run straight up or down by one with no wrap-around (`0123`,
 * `43210`; `8901` is not weak).
 */
export function isWeakPin (pin: string): boolean {
  const length = pin.length
  for (let block = 1; block <= length >> 1; block++) {
    if (length % block !== 0) continue
    let repeats = true
    for (let i = block; i < length && repeats; i++) repeats = pin.charCodeAt(i) === pin.charCodeAt(i - block)
    if (repeats) return true
  }
  const step = pin.charCodeAt(1) - pin.charCodeAt(0)
  if (step !== 1 && step !== -1) return false
  for (let i = 2; i < length; i++) if (pin.charCodeAt(i) - pin.charCodeAt(i - 1) !== step) return false
  return true
}

/** The Möbius function of n (0 when a square divides n). */
function mobius (n: number): number {
  let sign = 1
  for (let p = 2; p * p <= n; p++) {
    if (n % p !== 0) continue
    n /= p
    if (n % p === 0) return 0
    sign = -sign
  }
  return n > 1 ? -sign : sign
}

/**
 * How many PINs of `length` digits are weak. A string repeats a shorter block exactly when it is
 * not primitive, and there are sum over d | length of mobius(length / d) · 10^d primitive strings
 * (each string is one primitive block repeated, counted once by its shortest block). Runs up start
 * at 0..10 - length, as many run down, none for 11 digits and more; a run has distinct digits, so
 * no run repeats a block and the two kinds do not overlap.
 */
export function weakPinCount (length: number): bigint {
  let primitive = 0n
  for (let d = 1; d <= length; d++) {
    if (length % d === 0) primitive += BigInt(mobius(length / d)) * 10n ** BigInt(d)
  }
  const runs = 2n * BigInt(Math.max(0, 11 - length))
  return 10n ** BigInt(length) - primitive + runs
}

/** How many PINs are allowed: all 10^length, less the weak ones with `avoidWeak`. */
export function allowedPinCount ({ length, avoidWeak }: Pick<Params, 'length' | 'avoidWeak'>): bigint {
  const all = 10n ** BigInt(length)
  return avoidWeak ? all - weakPinCount(length) : all
}

/**
 * `quantity` PINs, each uniform over the allowed ones: `length` uniform digits, drawn again while
 * weak (rejection keeps the law uniform over what is accepted). At most 114 of 10,000 four-digit
 * PINs are weak, fewer for longer ones, so a PIN is redrawn with probability at most 1.14% and
 * more than three draws happen less than once in 10^5 PINs.
 */
export function generatePins ({ length, avoidWeak, quantity }: Params): string[] {
  const values: string[] = []
  while (values.length < quantity) {
    const pin = randomString(DIGITS, length)
    if (!avoidWeak || !isWeakPin(pin)) values.push(pin)
  }
  return values
}

/** log2 of the number of allowed PINs, rounded down (eighteen parameter combinations, each counted once). */
export const pinEntropyBits = rememberedEntropyBits<Pick<Params, 'length' | 'avoidWeak'>>(
  ({ length, avoidWeak }) => `${length} ${avoidWeak}`, allowedPinCount)

export default fp(async function pinGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'pin',
    name: 'Pin',
    summary: 'Generate numeric PINs',
    description: 'PINs of `length` digits (4..12, leading zeros kept), uniform over all PINs of that length; with `avoidWeak` (the default) less the weak ones: ' +
      'a shorter block repeated whose length divides `length` (1111, 1212, 123123) and straight runs up or down without wrap-around (0123, 9876; 8901 is not weak). ' +
      '`entropyBits` is log2 of the exact number of allowed PINs (9,886 of 10,000 for length 4).',
    params: PinParams,
    result: PinResult,
    alphabet: PIN_ALPHABET,
    generate: (params) => ({ values: generatePins(params), entropyBits: pinEntropyBits(params) })
  })
}, { name: 'generator-pin', dependencies: ['errors'] })
