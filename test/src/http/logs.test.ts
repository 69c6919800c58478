// CONTRACT §6: no request body, X-Data or generated value in any log line, at any level (trace included).
import t from 'tap'
import { createHash } from 'node:crypto'
import { buildWithLogs, GENERATORS, xData } from '../../helper.js'

t.test('trace-level logs of a whole session hold no secret', async (t) => {
  const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: 'trace' })
  const secrets = new Set<string>()
  const tokenHashes = new Set<string>()
  const params: Record<string, Record<string, unknown>> = {
    // With its hashes (CONTRACT §12): made on the pool's threads, whose errors and timings are logged by code alone
    password: { length: 40, symbolSet: '!@#$', exclude: 'xyz', quantity: 3, hash: { algorithm: 'mosquitto' } },
    passphrase: { words: 8, separator: '§¤§', capitalize: true, includeNumber: true, quantity: 2 },
    number: { min: 1_000_000_000_000_000, max: 9_000_000_000_000_000, exclusions: ['1234567890123456'], quantity: 3 },
    vpn: { protocol: 'wireguard', quantity: 2 },
    uuid: { format: 'alphanumeric', length: 40, quantity: 2 },
    phrase: { words: 24, separator: '§¤§' },
    seq: { byteLength: 64, encoding: 'base64' },
    'short-id': { length: 32, quantity: 2 },
    // Twelve digits: no timestamp or pid of a log line holds them by chance
    pin: { length: 12, quantity: 2 },
    'ssh-key': { comment: 'secret-comment-value', quantity: 2 },
    'age-key': { quantity: 2 },
    token: { prefix: 'canaryprefix', quantity: 2 },
    totp: { issuer: 'Canary Issuer ☃', account: 'canary.account@example.com', quantity: 2 },
    'signing-key': { algorithm: 'ES256', format: 'pem', quantity: 2 }
  }
  for (const type of GENERATORS) {
    const body = JSON.stringify(params[type])
    const header = xData(params[type])
    secrets.add(body)
    secrets.add(header)
    const responses = [
      await app.inject({ method: 'POST', url: `/api/generate/${type}`, headers: { 'content-type': 'application/json' }, payload: body }),
      await app.inject({ method: 'GET', url: `/api/generate/${type}`, headers: { 'x-data': header } })
    ]
    for (const response of responses) {
      t.equal(response.statusCode, 200, type)
      for (const value of response.json().values as string[]) secrets.add(value)
      // A private key file is a secret line by line
      if (type === 'ssh-key' || type === 'signing-key') for (const value of response.json().values as string[]) for (const line of value.split('\n').slice(1, -2)) secrets.add(line)
      for (const hash of response.json().hashes ?? []) tokenHashes.add(hash)
    }
  }
  secrets.add('1234567890123456')
  secrets.add('§¤§')
  secrets.add('secret-comment-value')
  for (const hash of [...tokenHashes]) secrets.add(hash)

  // Errors: bad parameters, bad X-Data, bad body, a secret in the query string, 404, 413
  const badXData = 'c2VjcmV0LXgtZGF0YS12YWx1ZQ!!'
  const badBody = '{"secret-body-field": "hunter2-in-body"'
  const invalid = JSON.stringify({ length: 3, lenght: 'secret-param-value' })
  secrets.add(badXData).add(badBody).add('hunter2-in-body').add('secret-param-value').add(xData({ lenght: 'secret-param-value' }))
  secrets.add('secret-query-value')
  const errors = [
    await app.inject({ method: 'GET', url: '/api/generate/password', headers: { 'x-data': badXData } }),
    await app.inject({ method: 'GET', url: '/api/generate/password', headers: { 'x-data': xData({ lenght: 'secret-param-value' }) } }),
    await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'content-type': 'application/json' }, payload: badBody }),
    await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'content-type': 'application/json' }, payload: invalid }),
    await app.inject({ method: 'POST', url: '/api/generate/password', headers: { 'content-type': 'text/plain' }, payload: 'hunter2-in-body' }),
    await app.inject({ method: 'GET', url: '/api/generate/password?token=secret-query-value', headers: { 'x-data': xData({}) } }),
    await app.inject({ method: 'GET', url: '/nope?token=secret-query-value' }),
    await app.inject({ method: 'POST', url: '/api/generate/seq', headers: { 'content-type': 'application/json' }, payload: '{"x":"hunter2-in-body"' + ' '.repeat(70_000) + '}' })
  ]
  t.same(errors.map((r) => r.statusCode), [400, 400, 400, 400, 415, 200, 404, 413])
  for (const value of errors[5]?.json().values ?? []) secrets.add(value)

  // The capturing stream is a Writable: let its buffered writes land
  await new Promise((resolve) => setTimeout(resolve, 50))
  const captured = logs()
  const lines = captured.split('\n').filter((line) => line !== '')
  // The test could fail: the log really holds every request, with its path
  const requests = 2 * GENERATORS.length + errors.length
  t.equal(lines.filter((line) => line.includes('"msg":"incoming request"')).length, requests, 'a line per request')
  t.ok(lines.length >= requests + errors.length, `${lines.length} log lines: failed requests log more`)
  t.ok(lines.every((line) => JSON.parse(line).level >= 10), 'every line is pino JSON')
  t.match(captured, /"url":"\/api\/generate\/short-id"/)
  t.match(captured, /"msg":"incoming request"/)
  t.match(captured, /"url":"\/nope"/)

  for (const secret of secrets) {
    t.notOk(captured.includes(secret), `not logged: ${secret.slice(0, 12)}…`)
    const escaped = JSON.stringify(secret).slice(1, -1)
    if (escaped !== secret) t.notOk(captured.includes(escaped), `not logged (JSON-escaped): ${secret.slice(0, 12)}…`)
  }
  t.ok(secrets.size > 40, `${secrets.size} secrets checked`)
})

// CONTRACT §6 and §2 totp: issuer and account are request data. Canaries, in every form a log
// line could hold them (as sent, JSON-escaped, percent-encoded as in the URI, inside X-Data), go
// through valid and refused requests, POST and X-Data, at trace (every level's lines written)
t.test('TOTP issuer and account canaries never reach the log, at any level, valid or refused', async (t) => {
  const issuer = 'CanaryIssuer-5b1e ☃'
  const account = 'canary.account+7c2d@example.com'
  const requests: Array<Record<string, unknown>> = [
    { issuer, account },
    { issuer, account, algorithm: 'SHA512', digits: 8, period: 60, quantity: 3 },
    { account },
    // Refused by the rule, by the schema, and alongside other errors
    { issuer: `${issuer}:`, account },
    { issuer, account: `${account}\u0000` },
    { issuer: `${issuer}:`, account: `${account}\n` },
    { issuer, account, digits: 7 },
    { issuer: issuer.repeat(8), account },
    { issuer, account, period: 1, lenght: 1 },
    { issuer: [issuer], account: { account } }
  ]
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) {
    const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: level })
    const statuses: number[] = []
    for (const params of requests) {
      const body = JSON.stringify(params)
      statuses.push((await app.inject({ method: 'POST', url: '/api/generate/totp', headers: { 'content-type': 'application/json' }, payload: body })).statusCode)
      statuses.push((await app.inject({ method: 'GET', url: '/api/generate/totp', headers: { 'x-data': xData(params) } })).statusCode)
    }
    // A body that is not JSON, and X-Data that is not Base64, around the canaries
    statuses.push((await app.inject({ method: 'POST', url: '/api/generate/totp', headers: { 'content-type': 'application/json' }, payload: `{"issuer": "${issuer}", "account": "${account}"` })).statusCode)
    statuses.push((await app.inject({ method: 'GET', url: '/api/generate/totp', headers: { 'x-data': `${account}!` } })).statusCode)
    t.same(statuses, [200, 200, 200, 200, 200, 200, ...Array<number>(16).fill(400)], `${level}: valid and refused requests answered`)

    await new Promise((resolve) => setTimeout(resolve, 50))
    const captured = logs()
    if (level === 'trace') t.equal(captured.split('\n').filter((line) => line.includes('"msg":"incoming request"')).length, 22, 'trace: the log holds every request')
    if (level === 'info') t.ok(captured.split('\n').filter((line) => line.includes('"code":"VALIDATION_FAILED"')).length >= 14, 'info: the log holds the refusals')
    for (const canary of [issuer, account]) {
      const forms = new Set([
        canary,
        ...canary.split(/[ +@]/),
        JSON.stringify(canary).slice(1, -1),
        encodeURIComponent(canary),
        Buffer.from(canary).toString('base64').slice(0, 16),
        xData({ issuer, account }).slice(0, 16)
      ].filter((form) => form.length >= 6))
      for (const form of forms) t.notOk(captured.includes(form), `${level}: not logged: ${form}`)
    }
  }
})

// CONTRACT §9: no access key and no digest is ever logged; a key is named by the first 8 hex
// characters of its digest. Canary keys (configured, unknown, malformed, oversized) go through
// every generator form at every level; the log may hold each key's id and nothing longer of its
// digest, in either case, nor any 12-character piece of a key.
t.test('access key and digest canaries never reach the log, at any level', async (t) => {
  const sha = (key: string) => createHash('sha256').update(key).digest('hex')
  const configured = 'rg_CanaryConfiguredKey9f3e1b7d'
  const rotated = 'rg_CanaryRotatedKey00c4a9e2f6'
  const unknown = 'rg_CanaryUnknownKey5d8b2a7c13'
  const malformed = 'Canary malformed key with spaces 7e1f'
  const oversized = `CanaryOversized${'x'.repeat(300)}`
  const keys = [configured, rotated, unknown, malformed, oversized]
  const digests = [configured, rotated, unknown].map(sha)
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) {
    const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: level, API_KEY_HASHES: `${sha(configured)},${sha(rotated).toUpperCase()}` })
    const statuses: number[] = []
    for (const key of keys) {
      for (const authorization of [`Bearer ${key}`, `bearer ${key}`, key, `Basic ${key}`]) {
        statuses.push((await app.inject({ method: 'POST', url: '/api/generate/token', headers: { authorization, 'content-type': 'application/json' }, payload: '{"quantity":2}' })).statusCode)
        statuses.push((await app.inject({ method: 'GET', url: '/api/generate/token', headers: { authorization, 'x-data': xData({ lenght: 1 }) } })).statusCode)
        statuses.push((await app.inject({ method: 'GET', url: `/nope?key=${encodeURIComponent(key)}`, headers: { authorization } })).statusCode)
      }
    }
    t.ok(statuses.includes(200) && statuses.includes(400) && statuses.includes(401) && statuses.includes(404), `${level}: keys let in and refused`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const captured = logs()
    if (level === 'info') {
      t.match(captured, new RegExp(`"keyId":"${sha(unknown).slice(0, 8)}"`), 'info: a refused key is named by its id')
      t.match(captured, new RegExp(`"keyId":"${sha(rotated).slice(0, 8)}"`), 'info: a key let in, whose request failed, by its id')
    }
    for (const key of keys) {
      for (let i = 0; i + 12 <= Math.min(key.length, 60); i += 4) t.notOk(captured.includes(key.slice(i, i + 12)), `${level}: no piece of a key: ${key.slice(i, i + 12)}`)
    }
    for (const digest of digests) {
      for (const form of [digest, digest.toUpperCase(), digest.slice(0, 9), digest.slice(8, 24), Buffer.from(digest, 'hex').toString('base64').slice(0, 12)]) {
        t.notOk(captured.includes(form), `${level}: no digest beyond its 8-character id: ${form.slice(0, 12)}`)
      }
    }
  }
})

// CONTRACT §11, §6: nothing a tool receives or returns is logged. Canaries in tool arguments
// (valid and refused, by the schema, the rules and the precheck, an unknown tool's name, bodies
// that are not JSON-RPC) and every value a tool returns, at trace and at info
t.test('MCP tool arguments and results never reach the log, at any level', async (t) => {
  const argumentCanary = 'McpArgCanary7f3a'
  const issuer = 'McpIssuerCanary ☃'
  const toolCanary = 'generate_McpToolCanary9b1c'
  for (const level of ['trace', 'info']) {
    const { app, logs } = await buildWithLogs(t, { LOG_LEVEL: level })
    const secrets = new Set<string>([argumentCanary, issuer, toolCanary])
    const rpc = (message: unknown) => app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', 'x-language': 'de' }, payload: JSON.stringify(message) })
    const calls: Array<[string, unknown]> = [
      ['generate_token', { prefix: 'mcpcanary', quantity: 2 }],
      ['generate_totp', { issuer, account: `${argumentCanary}@example.com` }],
      ['generate_passphrase', { separator: '¤¤', words: 6 }],
      ['generate_password', { length: 40, symbolSet: '!@#$', quantity: 3 }],
      ['generate_ssh_key', { comment: argumentCanary }],
      ['generate_vpn', { protocol: 'wireguard' }],
      // Refused: the schema, the rule, the precheck
      ['generate_password', { length: 3, [argumentCanary]: argumentCanary }],
      ['generate_totp', { issuer: `${issuer}:`, account: argumentCanary }],
      ['generate_number', { exclusions: Array.from({ length: 1001 }, () => argumentCanary) }],
      [toolCanary, { secret: argumentCanary }]
    ]
    let id = 1
    for (const [name, args] of calls) {
      const response = await rpc({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } })
      t.equal(response.statusCode, 200, `${level}: ${name}`)
      const { result } = response.json()
      const answer = result?.structuredContent as { values: string[], publicKeys?: string[], hashes?: string[] } | undefined
      for (const value of [...(answer?.values ?? []), ...(answer?.publicKeys ?? []), ...(answer?.hashes ?? [])]) {
        secrets.add(value)
        // A private key file is a secret line by line
        for (const line of value.split('\n').slice(1, -2)) if (line.length >= 12) secrets.add(line)
      }
    }
    // Refusals of the transport around the canaries
    t.equal((await rpc([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'generate_pin', arguments: { canary: argumentCanary } } }])).statusCode, 400)
    t.equal((await rpc({ jsonrpc: '2.0', id: argumentCanary, method: argumentCanary })).statusCode, 200)
    t.equal((await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, payload: JSON.stringify({ canary: argumentCanary }) })).statusCode, 403)
    t.equal((await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: `{"canary":"${argumentCanary}"` })).statusCode, 400)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const captured = logs()
    if (level === 'trace') t.ok(captured.split('\n').filter((line) => line.includes('"url":"/mcp"')).length >= calls.length, 'trace: the log holds every request to /mcp')
    t.ok(secrets.size > 15, `${level}: ${secrets.size} canaries and values checked`)
    for (const secret of secrets) {
      t.notOk(captured.includes(secret), `${level}: not logged: ${secret.slice(0, 12)}…`)
      const escaped = JSON.stringify(secret).slice(1, -1)
      if (escaped !== secret) t.notOk(captured.includes(escaped), `${level}: not logged (JSON-escaped): ${secret.slice(0, 12)}…`)
    }
  }
})
