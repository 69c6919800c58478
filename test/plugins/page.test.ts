// CONTRACT §8: / and /assets/* served from memory with the page's own CSP and caching.
import { createHash } from 'node:crypto'
import t from 'tap'
import { PAGE_CSP } from '../../src/http/security-headers.js'
import { build } from '../helper.js'

const IMMUTABLE = 'public, max-age=31536000, immutable'

function directives (csp: string): Map<string, string> {
  return new Map(csp.split(';').map((part) => part.trim()).filter((part) => part !== '').map((part) => {
    const [name, ...sources] = part.split(/\s+/)
    return [name as string, sources.join(' ')]
  }))
}

t.test('the page\'s CSP: self only, nothing inline, never framed, Trusted Types required', async (t) => {
  const csp = directives(PAGE_CSP)
  t.equal(csp.get('default-src'), "'none'")
  for (const directive of ['script-src', 'style-src', 'img-src', 'connect-src']) t.equal(csp.get(directive), "'self'", directive)
  t.equal(csp.get('frame-ancestors'), "'none'")
  t.equal(csp.get('base-uri'), "'none'")
  t.equal(csp.get('form-action'), "'none'")
  t.equal(csp.get('require-trusted-types-for'), "'script'")
  t.equal(csp.get('trusted-types'), "'none'")
  t.notMatch(PAGE_CSP, /unsafe-|data:|blob:|https?:|\*/)
})

t.test('GET / answers the page, no-store, under the page\'s CSP and helmet\'s other headers', async (t) => {
  const app = await build(t)
  const response = await app.inject({ url: '/' })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(response.headers['cache-control'], 'no-store')
  t.equal(response.headers['content-security-policy'], PAGE_CSP)
  t.equal(response.headers['x-content-type-options'], 'nosniff')
  t.equal(response.headers['referrer-policy'], 'no-referrer')
  t.match(response.body, /^<!doctype html>\n<html lang="en">/)
  // Nothing inline for the CSP to refuse, nothing from another origin
  t.notMatch(response.body, /<script>|<style|\sstyle=|\son[a-z]+=/)
  t.notMatch(response.body.replace('http://www.w3.org/2000/svg', ''), /\/\/[a-z]/i)
  const again = await app.inject({ url: '/' })
  t.equal(again.body, response.body, 'bundled once: the same page every time')

  const head = await app.inject({ method: 'HEAD', url: '/' })
  t.equal(head.statusCode, 200)
  t.equal(head.body, '')
  t.equal(head.headers['content-security-policy'], PAGE_CSP)
})

t.test('every asset the page names: content-hashed, immutable, with its type and the page\'s CSP', async (t) => {
  const app = await build(t)
  const page = await app.inject({ url: '/' })
  const names = [...page.body.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((match) => match[1] as string)
  t.same(names.map((name) => name.replace(/-[0-9a-f]{16}\./, '-*.')).sort(), ['icon-*.svg', 'page-*.css', 'page-*.js'])
  const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' }
  for (const name of names) {
    const response = await app.inject({ url: `/assets/${name}` })
    t.equal(response.statusCode, 200, name)
    t.equal(response.headers['cache-control'], IMMUTABLE, name)
    t.equal(response.headers['content-security-policy'], PAGE_CSP, name)
    t.equal(response.headers['content-type'], types[name.split('.').pop() as string], name)
    const hash = createHash('sha256').update(response.body).digest('hex').slice(0, 16)
    t.ok(name.includes(`-${hash}.`), `${name}: named by its content's hash`)
  }
})

t.test('the script holds no HTML sink, no storage, no other origin', async (t) => {
  const app = await build(t)
  const page = await app.inject({ url: '/' })
  const script = await app.inject({ url: page.body.match(/src="(\/assets\/page-[0-9a-f]+\.js)"/)?.[1] as string })
  for (const forbidden of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'DOMParser', 'createContextualFragment', 'localStorage', 'sessionStorage', 'indexedDB', 'cookie', 'eval(', 'Function(', 'Math.random']) {
    t.notOk(script.body.includes(forbidden), `no ${forbidden}`)
  }
  // The one absolute URL is SVG's namespace, which is a name, never fetched
  t.same([...new Set([...script.body.matchAll(/https?:\/\/[^"'`\s)]+/g)].map((match) => match[0]))], ['http://www.w3.org/2000/svg'])
  t.ok(script.body.includes('/api/generate/'), 'it calls the API by a same-origin path')
})

t.test('unknown assets and other methods get the ordinary problem documents', async (t) => {
  const app = await build(t)
  for (const url of ['/assets/page.js', '/assets/__proto__', '/assets/hasOwnProperty', '/assets/']) {
    const response = await app.inject({ url })
    t.equal(response.statusCode, 404, url)
    t.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8', url)
    t.equal(response.headers['cache-control'], 'no-store', url)
    t.equal(response.json().code, 'NOT_FOUND', url)
  }
  const post = await app.inject({ method: 'POST', url: '/' })
  t.equal(post.statusCode, 405)
  t.equal(post.headers.allow, 'GET, HEAD')
  t.equal(post.json().code, 'METHOD_NOT_ALLOWED')
})
