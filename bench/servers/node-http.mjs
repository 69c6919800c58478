// The runtime ceiling: plain node:http, a constant JSON answer, the request body read and dropped.
// ANSWER=heavy answers with the size of the heaviest rows instead of the default password's.
// HEADERS=randgen adds the headers every randgen response carries (helmet's and Cache-Control,
// src/http/security-headers.ts; started with `node --import tsx`), written the cheapest way Node has:
// one flat array, built once. What those headers cost Node itself, without Fastify's way of setting them.
import { createServer } from 'node:http'
import { HEAVY_RESULT, RESULT } from './constant-result.mjs'

const body = JSON.stringify(process.env.ANSWER === 'heavy' ? HEAVY_RESULT : RESULT)
const extra = process.env.HEADERS === 'randgen' ? (await import('../../src/http/security-headers.js')).SECURITY_HEADERS : {}
const headers = Object.entries({ ...extra, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) }).flat()
const server = createServer((request, response) => {
  request.resume()
  request.on('end', () => {
    response.writeHead(200, headers)
    response.end(body)
  })
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1')
process.on('SIGTERM', () => { server.close(() => process.exit(0)); server.closeAllConnections() })
