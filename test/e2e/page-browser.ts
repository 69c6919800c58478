// The page's browser tests (test/e2e/page-*.test.ts) share this: one Chromium per test file, the app
// built as production builds it and listening on an ephemeral loopback port, and a session per
// test (a fresh browser context) that records what CONTRACT §8 says must never happen — a CSP
// violation, a console error, a request to another origin, an API request that is not a POST with
// a JSON body — and asserts all of it when the test's body is done.
import type { Test } from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Request, type Response } from 'playwright-core'
import { build } from '../helper.js'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
  '--no-first-run', '--disable-component-update', '--disable-sync'
]

/** tap's `skip` for a browser test: the reason when Chromium is missing (a failure under CI, where .ci/run installs it). */
export function browserSkip (t: Test): string | false {
  if (existsSync(CHROMIUM)) return false
  if (process.env.CI === 'true') t.fail(`${CHROMIUM} is missing; .ci/run installs the chromium package`)
  return `${CHROMIUM} is not installed (apt-get install chromium); these tests drive it`
}

export interface Served { browser: Browser, origin: string }

/** The app (production options) on 127.0.0.1:0 and one Chromium, both closed when `t` ends. */
export async function serve (t: Test, env: Record<string, string> = {}): Promise<Served> {
  const app = await build(t, env)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
  // launch() gives the browser a fresh temporary profile of its own and removes it on close
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 60_000 })
  t.teardown(() => browser.close())
  return { browser, origin }
}

export interface Session {
  page: Page
  context: BrowserContext
  origin: string
  /** Every request to /api/generate/ (and /api/generate, a set) the page made, in order. */
  apiRequests: Request[]
  /** Every request the context made, in order. */
  requests: Request[]
  /**
   * Chromium logs "Failed to load resource: the server responded with a status of 400" (or
   * "net::ERR_...") for every failed fetch: the browser's line, not the page's. A test that
   * provokes such an answer names it here; only those lines, for URLs starting with `url` (the
   * generator routes unless said), are then allowed.
   */
  allowFailedLoad: (text: RegExp, url?: string) => void
}

const CSP_BINDING = '__randgenCspViolation'

/**
 * A fresh context (options as Playwright takes them: locale, viewport, colorScheme, permissions)
 * with one page, watched from its first document on; `body` runs, then the watch is asserted and
 * the context closed, whether `body` passed or threw.
 */
export async function withSession (t: Test, served: Served, options: BrowserContextOptions, body: (session: Session) => Promise<void>): Promise<void> {
  const { browser, origin } = served
  const context = await browser.newContext({ bypassCSP: false, ...options })
  const cspViolations: string[] = []
  const consoleErrors: string[] = []
  const foreignRequests: string[] = []
  const apiRequests: Request[] = []
  const requests: Request[] = []
  const allowed: Array<{ text: RegExp, url: string }> = []
  // The listener is installed by the DevTools protocol, which the page's CSP does not govern; it
  // reports to Node, so violations in a document that was navigated away from are kept too.
  await context.exposeBinding(CSP_BINDING, (_source, violation: string) => { cspViolations.push(violation) })
  await context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      window.${CSP_BINDING}([event.violatedDirective, event.blockedURI, event.sourceFile + ':' + event.lineNumber, event.sample].join(' '))
    })`
  })
  context.on('request', (request) => {
    requests.push(request)
    const url = new URL(request.url())
    if (url.protocol !== 'data:' && url.origin !== origin) foreignRequests.push(request.url())
    if (url.origin === origin && (url.pathname.startsWith('/api/generate/') || url.pathname === '/api/generate')) apiRequests.push(request)
  })
  // on the context, so a second tab a test opens is watched as well
  context.on('console', (message) => {
    if (message.type() !== 'error') return
    const text = message.text()
    const at = message.location().url
    if (text.startsWith('Failed to load resource: ') && allowed.some((allow) => at.startsWith(allow.url) && allow.text.test(text))) return
    consoleErrors.push(`${text} (${at})`)
  })
  context.on('weberror', (error) => consoleErrors.push(`uncaught: ${error.error().message}`))
  const page = await context.newPage()

  try {
    await body({ page, context, origin, apiRequests, requests, allowFailedLoad: (text, url = `${origin}/api/generate/`) => allowed.push({ text, url }) })
  } finally {
    // Late events (a violation reported after the last action) still reach Node before the close
    if (!page.isClosed()) await page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(resolve))).catch(() => {})
    t.same(cspViolations, [], 'no CSP violation (Trusted Types included)')
    t.same(consoleErrors, [], 'no console error, no uncaught exception')
    t.same(foreignRequests, [], 'no request to another origin')
    const notJsonPosts = apiRequests.filter((request) => !isJsonPost(request)).map((request) => `${request.method()} ${request.url()} ${request.headers()['content-type'] ?? '(no content type)'} ${request.postData() ?? '(no body)'}`)
    t.same(notJsonPosts, [], `every API request (${apiRequests.length}) is a POST without query with a JSON object body`)
    await context.close()
  }
}

function isJsonPost (request: Request): boolean {
  const url = new URL(request.url())
  if (request.method() !== 'POST' || url.search !== '' || request.url().includes('?')) return false
  if (!/^application\/json\s*(;|$)/i.test(request.headers()['content-type'] ?? '')) return false
  try {
    const body: unknown = JSON.parse(request.postData() ?? '')
    return typeof body === 'object' && body !== null && !Array.isArray(body)
  } catch {
    return false
  }
}

/**
 * CONTRACT §14.1: chooses recipe `id` in the set's chooser, as a person would (the option, once
 * the list has come), and waits until its items fill the rows; returns the recipe as the API
 * answers GET /api/recipes/{id}, asked here (not through the page).
 */
export async function chooseRecipe (session: Session, id: string): Promise<any> {
  const { page, origin } = session
  const recipe = await (await fetch(`${origin}/api/recipes/${id}`)).json() as any
  await page.locator(`#recipe option[value="${id}"]`).waitFor({ state: 'attached', timeout: 15_000 })
  await page.locator('#recipe').selectOption(id)
  await rowsNamed(page, recipe.items.map((item: any) => item.name))
  return recipe
}

const OPENAPI = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'))
const component = (ref: string): any => OPENAPI.components.schemas[ref.replace('#/components/schemas/', '')]

/**
 * A recipe's item as the page sends it: its parameters but those at their schema's default (the
 * page sends none of those, CONTRACT §8, where a recipe's file may write one: Supabase's
 * `encoding: 'hex'`), a hash's fields likewise; a jwt item as it is.
 */
export function asSent (item: any): any {
  if (item.type === 'jwt' || item.params === undefined) return item
  const documented = component(OPENAPI.paths[`/api/generate/${item.type}`].post.requestBody.content['application/json'].schema.$ref).properties
  const params: Record<string, unknown> = {}
  for (const [name, value] of Object.entries<any>(item.params)) {
    if (name === 'hash') {
      const branch = component(documented.hash.$ref).oneOf.map((ref: any) => component(ref.$ref)).find((candidate: any) => candidate.properties.algorithm.const === value.algorithm)
      params.hash = Object.fromEntries(Object.entries(value).filter(([field, fieldValue]) => field === 'algorithm' || branch.properties[field]?.default !== fieldValue))
    } else if (JSON.stringify(documented[name]?.default) !== JSON.stringify(value)) params[name] = value
  }
  const { params: _params, ...rest } = item
  return Object.keys(params).length === 0 ? rest : { ...rest, params }
}

/** Waits (at most 15 s) until the set's rows hold exactly these names, in order. */
export async function rowsNamed (page: Page, names: readonly string[]): Promise<void> {
  await page.waitForFunction((want) => JSON.stringify(Array.from((globalThis as any).document.querySelectorAll('[data-item] [name=name]'), (input: any) => input.value)) === want, JSON.stringify(names), { timeout: 15_000 }).catch(() => {})
}

/** `/#<type>` loaded afresh (a new document, so every control holds its default). */
export async function openGenerator (session: Session, type: string): Promise<void> {
  const { page, origin } = session
  await page.goto('about:blank')
  await page.goto(`${origin}/#${type}`)
  await page.locator('[name=quantity]').waitFor({ state: 'visible' })
}

export function generateButton (page: Page, name = 'Generate') {
  return page.getByRole('button', { name, exact: true })
}

export interface Generated {
  request: Request
  /** Request headers as sent (Accept-Language included, which `request.headers()` leaves out). */
  requestHeaders: Record<string, string>
  response: Response
  status: number
  /** The response body as the API sent it, parsed. */
  json: any
}

/** Does `act` (a click, a key), then returns the API request it caused and the answer. */
export async function generate (session: Session, act: () => Promise<void>): Promise<Generated> {
  const { page, origin } = session
  const answered = page.waitForResponse((response) => response.url().startsWith(`${origin}/api/generate/`))
  await act()
  const response = await answered
  const request = response.request()
  return { request, requestHeaders: await request.allHeaders(), response, status: response.status(), json: await response.json() }
}

/** What the page shows, read from the attributes CONTRACT §8 names. */
export interface Shown { values: string[], publicKeys: string[], hashes: string[], entropyBits: string[] }

export function shownFor (json: any): Shown {
  return { values: json.values, publicKeys: json.publicKeys ?? [], hashes: json.hashes ?? [], entropyBits: [String(json.entropyBits)] }
}

// (The functions run in the page are written without named inner functions: tsx would wrap those in
// a `__name` helper the page does not have.)
export async function shown (page: Page): Promise<Shown> {
  return await page.evaluate((selectors) => {
    const [values, publicKeys, hashes, entropyBits] = selectors.map((selector) => Array.from((globalThis as any).document.querySelectorAll(selector), (element: any): string => element.textContent ?? ''))
    return { values, publicKeys, hashes, entropyBits } as any
  }, SELECTORS)
}

const SELECTORS = ['[data-value]', '[data-public-key]', '[data-hash]', '[data-entropy-bits]']

/**
 * What the page shows once it equals `want` (it renders after the response arrives); after 15 s
 * without a match, what it shows then, so the test's comparison reports the difference.
 */
export async function shownOnce (page: Page, want: Shown): Promise<Shown> {
  const wanted = JSON.stringify([want.values, want.publicKeys, want.hashes, want.entropyBits])
  await page.waitForFunction(([selectors, wanted]) => JSON.stringify((selectors as string[]).map((selector) => Array.from((globalThis as any).document.querySelectorAll(selector), (element: any): string => element.textContent ?? ''))) === wanted, [SELECTORS, wanted], { timeout: 15_000 }).catch(() => {})
  return await shown(page)
}

/** `<html lang>`: the page's language. */
export async function pageLanguage (page: Page): Promise<string> {
  return await page.evaluate(() => (globalThis as any).document.documentElement.lang)
}

/** The primary subtag of a header's first language (`de-DE,de;q=0.9` → `de`). */
export function leadingLanguage (header: string | undefined): string | undefined {
  return header?.split(',')[0]?.split(';')[0]?.split('-')[0]?.trim().toLowerCase()
}

/** Sets the control named `name` to `value` the way a person would (type, tick, choose). */
export async function setControl (page: Page, name: string, value: unknown): Promise<void> {
  const control = page.locator(`[name="${name}"]`)
  const kind = await control.evaluate((element: any) => element.tagName === 'SELECT' ? 'select' : element.type === 'checkbox' ? 'checkbox' : 'text')
  if (kind === 'select') await control.selectOption(String(value))
  else if (kind === 'checkbox') await control.setChecked(value === true)
  else await control.fill(String(value))
}

const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8')
/** The permissions a test that reads what the page copied needs. */
export const CLIPBOARD = ['clipboard-read', 'clipboard-write']

/** axe-core's WCAG 2.1 A/AA violations on the page as it is, evaluated through the DevTools protocol (the page's CSP stays as served). */
export async function axeViolations (page: Page): Promise<string[]> {
  if (await page.evaluate(() => (globalThis as any).axe === undefined)) await page.evaluate(AXE)
  const violations: any[] = await page.evaluate(async () => (await (globalThis as any).axe.run((globalThis as any).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })).violations)
  return violations.map((violation) => `${violation.id}: ${violation.help} at ${violation.nodes.map((node: any) => node.target.join(' ')).join(', ')}`)
}

/** The clipboard's text once it differs from `before` (the copy is asynchronous): read at each animation frame, within 900 frames. */
export async function clipboardAfter (page: Page, before: string): Promise<string> {
  const read = async (): Promise<string> => await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())
  for (let frames = 0; frames < 900; frames++) {
    const text = await read()
    if (text !== before) return text
    await page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(resolve)))
  }
  return await read()
}

/** What the button named `button` copies: the clipboard's text after a click, a sentinel written before. */
export async function copied (page: Page, button: string): Promise<string> {
  const sentinel = `nothing copied yet ${Math.random()}`
  await page.evaluate((text) => (globalThis as any).navigator.clipboard.writeText(text), sentinel)
  await page.getByRole('button', { name: button, exact: true }).click()
  return await clipboardAfter(page, sentinel)
}
