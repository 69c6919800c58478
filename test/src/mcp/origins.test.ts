import t from 'tap'
import { isLoopbackOrigin, mcpAllowedOrigins, originOf, originVerdict } from '../../../src/mcp/origins.js'
import { loadConfig } from '../../../src/ops/config.js'

t.test('originOf: scheme, host and port as browsers write them; anything else is none', async (t) => {
  t.equal(originOf('https://Example.COM:443'), 'https://example.com')
  t.equal(originOf('http://localhost:6274'), 'http://localhost:6274')
  t.equal(originOf('http://127.1'), 'http://127.0.0.1')
  for (const text of ['null', '', 'example.com', 'ftp://example.com', 'file:///etc/passwd', 'http://user:pw@example.com', 'http://example.com/path', 'http://example.com?q', 'http://example.com#f', 'http://[::1']) {
    t.equal(originOf(text), undefined, text)
  }
})

t.test('loopback: localhost, 127.0.0.0/8, [::1]; names that only start like them are not', async (t) => {
  for (const origin of ['http://localhost', 'https://localhost:8443', 'http://127.0.0.1:3000', 'http://127.255.0.9', 'http://[::1]:6274']) t.ok(isLoopbackOrigin(origin), origin)
  for (const origin of ['http://localhost.example.com', 'http://127.0.0.1.nip.io', 'http://10.0.0.1', 'http://[::2]', 'http://128.0.0.1']) t.notOk(isLoopbackOrigin(origin), origin)
})

t.test('originVerdict: absent, allowed (loopback or listed), foreign', async (t) => {
  const allowed = new Set(['https://inspector.example.com'])
  t.equal(originVerdict(undefined, allowed), 'absent')
  t.equal(originVerdict('https://inspector.example.com', allowed), 'allowed')
  t.equal(originVerdict('http://localhost:6274', allowed), 'allowed')
  t.equal(originVerdict('https://evil.example', allowed), 'foreign')
  t.equal(originVerdict('null', allowed), 'foreign')
})

t.test('MCP_ENABLED and MCP_ALLOWED_ORIGINS from the environment; a bad value stops the start naming the setting', async (t) => {
  t.equal(loadConfig({}).MCP_ENABLED, true, 'on by default')
  t.equal(loadConfig({ MCP_ENABLED: 'false' }).MCP_ENABLED, false)
  t.equal(loadConfig({ MCP_ENABLED: 'true' }).MCP_ENABLED, true)
  for (const value of ['yes', '1', 'off', '']) t.throws(() => loadConfig({ MCP_ENABLED: value }), /MCP_ENABLED/, `MCP_ENABLED=${JSON.stringify(value)}`)
  t.same([...mcpAllowedOrigins(loadConfig({ MCP_ALLOWED_ORIGINS: ' https://a.example , http://b.example:8080,,' }))], ['https://a.example', 'http://b.example:8080'])
  t.same([...mcpAllowedOrigins(loadConfig({}))], [])
  t.throws(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'https://a.example,secret-looking-value' }), { message: 'Invalid configuration: MCP_ALLOWED_ORIGINS entry 2 is not an origin (http or https, scheme://host[:port])' })
})
