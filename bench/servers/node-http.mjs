// The runtime ceiling: plain node:http, the same constant JSON, the request body read and dropped.
import { createServer } from 'node:http'
import { RESULT } from './constant-result.mjs'

const body = JSON.stringify(RESULT)
const server = createServer((request, response) => {
  request.resume()
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    response.end(body)
  })
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1')
process.on('SIGTERM', () => { server.close(() => process.exit(0)); server.closeAllConnections() })
