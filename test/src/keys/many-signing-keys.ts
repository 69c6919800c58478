// Run by signing-keys-many.test.ts in a process of its own, so that a thread that hangs is killed
// by the test's timeout instead of stalling the suite: makes thousands of keys through the
// module, checks each one's sizes, and prints what it made as one line of JSON.
import { signingKeys, type FastAlgorithm, type SigningKeyFormat } from '../../../src/keys/signing-keys.js'

const runs: Array<[FastAlgorithm, SigningKeyFormat, number, number]> = [
  // algorithm, format, keys, bytes of the private scalar or seed
  ['ES256', 'jwk', 5000, 32],
  ['EdDSA', 'jwk', 5000, 32],
  ['ES384', 'jwk', 3000, 48],
  ['ES256', 'vapid', 2000, 32]
]

const made: Record<string, { keys: number, distinct: number, leadingZero: number, milliseconds: number }> = {}
for (const [algorithm, format, count, bytes] of runs) {
  const start = performance.now()
  const privates = new Set<string>()
  let leadingZero = 0
  for (let done = 0; done < count; done += 50) {
    const { values, publicKeys } = signingKeys({ algorithm, format, quantity: 50 })
    values.forEach((value, index) => {
      const d = format === 'vapid' ? value : (JSON.parse(value) as { d: string }).d
      const scalar = Buffer.from(d, 'base64url')
      if (scalar.length !== bytes || publicKeys?.[index] === undefined) throw new Error(`${algorithm} ${format}: a private key of ${scalar.length} bytes`)
      if (scalar[0] === 0) leadingZero++
      privates.add(d)
    })
  }
  made[`${algorithm} ${format}`] = { keys: count, distinct: privates.size, leadingZero, milliseconds: Math.round(performance.now() - start) }
}
process.stdout.write(JSON.stringify(made) + '\n')
