// The constant answer of both reference servers: a generation result shaped like randgen's
// default password response, so the bytes on the wire are comparable.
export const RESULT = {
  type: 'password',
  values: ['k7#Qm2v!Rz9&pL4@wX8d'],
  generatedAt: '2026-11-22T10:15:30.123Z'
}
