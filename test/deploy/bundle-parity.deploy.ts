// `npm run test:deploy` (after `npm run build`): the production bundle answers exactly as the
// unbundled service answers, whose packages load from node_modules as published: same status,
// headers and bytes, for the very first requests a process gets, sent all at once, and for later
// ones (conditional, range, HEAD, missing file). What the bundle does differently is checked here:
// Swagger UI's files found through the `__dirname` scripts/build.ts gives @fastify/swagger-ui, the
// YAML document, and validation by the precompiled validators and serializers.
import t from 'tap'
import { request, type IncomingHttpHeaders } from 'node:http'
import { startServer } from '../server-process.js'

interface Answer { status: number, headers: IncomingHttpHeaders, body: string }

/** One request on its own connection; the body as Base64, so binary files compare byte for byte. */
async function send (port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        // Per response, not per file: the clock and the request id
        const { date, 'x-request-id': requestId, ...kept } = res.headers
        resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks).toString('base64') })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

const FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'index.css', 'favicon-32x32.png', 'oauth2-redirect.html', 'logo.svg']
const FIRST: Array<[string, string, Record<string, string>?]> = [
  ...FILES.map((file): [string, string] => ['GET', `/docs/static/${file}`]),
  ['HEAD', '/docs/static/swagger-ui.css'],
  ['GET', '/docs/static/no-such-file.js'],
  ['GET', '/docs/static/swagger-ui.css', { range: 'bytes=10-99' }],
  ['GET', '/docs/static/../package.json'],
  ['GET', '/docs/yaml'],
  ['GET', '/docs/json'],
  // A validation problem: the precompiled validator and serializer
  ['GET', '/api/generate/password', { 'x-data': Buffer.from('{"length":2,"quantity":0}').toString('base64') }]
]

t.test('the bundle answers as the unbundled service does, from the first request on: Swagger UI\'s files, the YAML document, a validation problem', async (t) => {
  const [bundled, unbundled] = await Promise.all([
    startServer(t, { NODE_ENV: 'production', NODE_OPTIONS: '' }, { entry: 'dist/server.js' }),
    startServer(t, { NODE_ENV: 'production' })
  ])
  // The first requests each process gets, all at once
  const answers = await Promise.all([bundled.port, unbundled.port].map(async (port) => await Promise.all(FIRST.map(async ([method, path, headers]) => await send(port, method, path, headers)))))
  FIRST.forEach(([method, path, headers], i) => {
    t.same(answers[0]?.[i], answers[1]?.[i], `${method} ${path} ${JSON.stringify(headers ?? {})}`)
  })
  t.equal(answers[0]?.[0]?.status, 200, 'swagger-ui.css served')
  t.match(answers[0]?.[0]?.headers['content-type'], /^text\/css/, 'with its type from mime')
  t.equal(answers[0]?.[FILES.length + 1]?.status, 404, 'a missing file is a 404')
  t.equal(answers[0]?.[FILES.length + 2]?.status, 206, 'a range is a 206')
  t.match(Buffer.from(answers[0]?.[FILES.length + 4]?.body ?? '', 'base64').toString(), /^openapi: 3\.1\.0\n/, 'the YAML document')
  t.match(JSON.parse(Buffer.from(answers[0]?.[FILES.length + 6]?.body ?? '', 'base64').toString()), { status: 400, code: 'VALIDATION_FAILED', errors: [{}, {}] }, 'both problems')

  // A generated value differs each time; its answer's shape and headers do not
  const generated = await Promise.all([bundled.port, unbundled.port].map(async (port) => await send(port, 'GET', '/api/generate/password')))
  t.equal(generated[0]?.status, 200)
  t.same(Object.keys(JSON.parse(Buffer.from(generated[0]?.body ?? '', 'base64').toString())), Object.keys(JSON.parse(Buffer.from(generated[1]?.body ?? '', 'base64').toString())), 'a password: the same fields')
  t.same({ ...generated[0]?.headers, 'content-length': undefined }, { ...generated[1]?.headers, 'content-length': undefined }, 'and the same headers')

  // Later: a conditional request with the ETag just received
  const etag = String(answers[0]?.[0]?.headers.etag)
  const again = await Promise.all([bundled.port, unbundled.port].map(async (port) => await send(port, 'GET', '/docs/static/swagger-ui.css', { 'if-none-match': etag })))
  t.equal(again[0]?.status, 304)
  t.same(again[0], again[1], 'the same 304')
})
