import { GenerationResult, Params, Quantity } from './common.js'

export const AgeKeyParams = Params('AgeKeyParams', {
  quantity: Quantity
}, {
  description: 'age X25519 identity parameters.',
  examples: [{ quantity: 2 }]
})

/** A recipient: `age1`, then 52 characters of key and 6 of checksum. */
const AGE_RECIPIENT_LENGTH = 62

export const AgeKeyResult = GenerationResult('AgeKeyResult', 'age-key', { keyPairs: true, closedAlphabet: true, publicKeyMaxLength: AGE_RECIPIENT_LENGTH })
