import { Type } from '@sinclair/typebox'

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')], { description: '`ok` when a draw from the CSPRNG succeeded.' }),
  service: Type.Literal('randgen'),
  version: Type.String({ description: 'The service version.', examples: ['1.0.0'] }),
  uptime: Type.Number({ description: 'Seconds since the process started.', examples: [12.34] }),
  timestamp: Type.String({ format: 'date-time', description: 'Current time, UTC, ISO 8601 with milliseconds.' })
}, { $id: 'Health', additionalProperties: false })
