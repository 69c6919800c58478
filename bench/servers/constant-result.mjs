// The constant answers of the reference servers: generation results shaped like randgen's, so the
// bytes on the wire are comparable. RESULT is the default password response; HEAVY_RESULT is as
// large as the heaviest seq response (50 values of 256 bytes in hex, ~26 KB).
export const RESULT = {
  type: 'password',
  values: ['k7#Qm2v!Rz9&pL4@wX8d'],
  generatedAt: '2026-11-22T10:15:30.123Z'
}

export const HEAVY_RESULT = {
  type: 'seq',
  values: Array.from({ length: 50 }, () => '0123456789abcdef'.repeat(32)),
  generatedAt: '2026-11-22T10:15:30.123Z'
}
