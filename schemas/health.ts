import { Type } from '@sinclair/typebox'
import { StringEnum } from './common.js'

export const Health = Type.Object({
  // An enum, not a union of literals: fast-json-stringify serialises a union by validating each
  // branch with AJV, compiled at the first response (start-up is measured to the first 200)
  status: StringEnum(['ok', 'error'], { description: '`ok` when a draw from the CSPRNG succeeded.' }),
  service: Type.Literal('randgen'),
  version: Type.String({ description: 'The service version.', examples: ['1.0.0'] }),
  uptime: Type.Number({ description: 'Seconds since the process started.', examples: [12.34] }),
  timestamp: Type.String({ format: 'date-time', description: 'Current time, UTC, ISO 8601 with milliseconds.' })
}, { $id: 'Health', additionalProperties: false })

/** CONTRACT §9: /livez. */
export const Liveness = Type.Object({
  status: StringEnum(['ok'], { description: '`ok`: the process runs and its event loop answers.' })
}, { $id: 'Liveness', additionalProperties: false })

/** CONTRACT §9: /readyz. */
export const Readiness = Type.Object({
  status: StringEnum(['ok', 'draining', 'error'], {
    description: '`ok`: ready to serve (a CSPRNG draw succeeded); `draining`: the process got SIGTERM and will stop; `error`: the CSPRNG cannot be read.'
  })
}, { $id: 'Readiness', additionalProperties: false })
