// The runtime ceiling: plain node:http, a constant JSON answer, the request body read and dropped.
// ANSWER=heavy answers with the size of the heaviest rows instead of the default password's.
import { createServer } from 'node:http'
import { HEAVY_RESULT, RESULT } from './constant-result.mjs'

const body = JSON.stringify(process.env.ANSWER === 'heavy' ? HEAVY_RESULT : RESULT)
const server = createServer((request, response) => {
  request.resume()
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    response.end(body)
  })
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1')
process.on('SIGTERM', () => { server.close(() => process.exit(0)); server.closeAllConnections() })
