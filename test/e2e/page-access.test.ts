// The page for everyone (CONTRACT §8) in Chromium: axe-core finds no WCAG 2.1 A/AA violation in
// light and dark colours, with values, a QR code and an error shown; the keyboard alone sets a
// parameter and generates; at 360 CSS pixels nothing scrolls sideways, long keys included; `/`
// and everything it loads weigh at most 60 KiB gzip-compressed, under the strict CSP §8 sets.
//
// RANDGEN_SCREENSHOTS=1 also writes docs/page-light.png and docs/page-dark.png (a password
// generated, values shown) for the README. The values are random, so the pictures change on
// every run: they are written only when asked for (once, by hand), never by `npm test`.
import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { GENERATORS } from '../helper.js'
import { browserSkip, generate, generateButton, openGenerator, serve, setControl, shownFor, shownOnce, withSession, type Session } from './page-browser.js'

const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8')
const WCAG21_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']
const SCREENSHOTS = process.env.RANDGEN_SCREENSHOTS === '1'

/**
 * axe-core's WCAG 2.1 A/AA violations on the page as it is. axe is evaluated through the DevTools
 * protocol, which the page's CSP does not govern (a <script> tag would be refused, rightly): the
 * page's policy stays as strict as it is served (`bypassCSP: false`).
 */
async function axeViolations (page: Page): Promise<string[]> {
  if (await page.evaluate(() => (globalThis as any).axe === undefined)) await page.evaluate(AXE)
  const violations: any[] = await page.evaluate(async (tags) => (await (globalThis as any).axe.run((globalThis as any).document, { runOnly: { type: 'tag', values: tags } })).violations, WCAG21_A_AA)
  return violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node: any) => node.target.join(' ')).join(', ')}`)
}

async function shows (session: Session, type: string, parameters: Record<string, unknown>): Promise<any> {
  await openGenerator(session, type)
  for (const [name, value] of Object.entries(parameters)) await setControl(session.page, name, value)
  const { json } = await generate(session, () => generateButton(session.page).click())
  await shownOnce(session.page, shownFor(json))
  return json
}

t.test('axe-core: no WCAG 2.1 A/AA violation, light and dark, with values, a QR code and an error shown', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  for (const colorScheme of ['light', 'dark'] as const) {
    await withSession(t, served, { locale: 'en-US', colorScheme, viewport: { width: 1024, height: 800 } }, async (session) => {
      const { page } = session
      await openGenerator(session, 'password')
      t.same(await axeViolations(page), [], `${colorScheme}: the page as it opens`)
      const passwords = await shows(session, 'password', { quantity: 3 })
      t.equal(passwords.values.length, 3)
      t.same(await axeViolations(page), [], `${colorScheme}: password, 3 values shown`)
      if (SCREENSHOTS) await page.screenshot({ path: fileURLToPath(new URL(`../../docs/page-${colorScheme}.png`, import.meta.url)), fullPage: true })
      await shows(session, 'totp', { issuer: 'Exämple Co', account: 'alice@example.com' })
      t.equal(await page.locator('[data-qr]').count(), 1, 'a QR code is shown')
      t.same(await axeViolations(page), [], `${colorScheme}: totp with its QR code`)
      await shows(session, 'ssh-key', { comment: 'deploy@ci', quantity: 2 })
      t.same(await axeViolations(page), [], `${colorScheme}: ssh-key, private and public keys with their Save buttons`)
      await shows(session, 'token', {})
      t.same(await axeViolations(page), [], `${colorScheme}: token with its hash`)

      session.allowFailedLoad(/status of 400\b/)
      await openGenerator(session, 'password')
      await setControl(page, 'length', 500)
      const failed = await generate(session, () => generateButton(page).click())
      t.equal(failed.status, 400)
      await page.locator('[role=alert]').filter({ hasText: failed.json.detail }).first().waitFor({ state: 'visible', timeout: 15_000 })
      t.same(await axeViolations(page), [], `${colorScheme}: an error shown, with its field message`)
    })
  }
})

/** Presses Tab until the focused element satisfies `isTarget` (at most 80 times); whether it did. */
async function tabTo (t: Test, page: Page, description: string, isTarget: (element: { name: string | null, text: string, label: string | null }) => boolean): Promise<boolean> {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press('Tab')
    const focused = await page.evaluate(() => {
      const element = (globalThis as any).document.activeElement
      return { name: element?.getAttribute('name') ?? null, text: (element?.textContent ?? '').trim(), label: element?.getAttribute('aria-label') ?? null }
    })
    if (isTarget(focused)) return true
  }
  t.fail(`Tab never reached ${description}`)
  return false
}

t.test('the keyboard alone (Tab, typing, Enter) sets a length and generates a password', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, origin } = session
    await page.goto(`${origin}/`)
    await page.locator('[name=quantity]').waitFor({ state: 'visible' })
    t.ok(await tabTo(t, page, '[name=length]', (focused) => focused.name === 'length'), 'Tab reaches the length field')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('24')
    t.ok(await tabTo(t, page, 'the Generate button', (focused) => focused.text === 'Generate' || focused.label === 'Generate'), 'Tab reaches Generate')
    const { request, json } = await generate(session, () => page.keyboard.press('Enter'))
    t.same(JSON.parse(request.postData() ?? 'null'), { length: 24 }, 'Enter on Generate sends the length typed')
    t.same(await shownOnce(page, shownFor(json)), shownFor(json), 'the passwords are shown')
    t.equal(json.values[0].length, 24)
  })
})

t.test('at 360 CSS pixels wide nothing scrolls sideways, long values included', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', viewport: { width: 360, height: 740 } }, async (session) => {
    const { page } = session
    const scrollWidth = async (): Promise<number> => await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)
    await openGenerator(session, 'password')
    t.ok(await scrollWidth() <= 360, `the page as it opens: scrollWidth ${await scrollWidth()} ≤ 360`)
    const cases: Array<[string, Record<string, unknown>]> = [
      ['password', { length: 128, quantity: 3 }],
      ['vpn', { protocol: 'mldsa65' }], // a public key of 2,603 characters
      ['ssh-key', { comment: 'a-rather-long-comment-for-a-deploy-key@build-server.example.com', quantity: 2 }],
      ['totp', { issuer: 'Exämple Co', account: 'alice@example.com' }],
      ['token', { prefix: 'averylongprefix', length: 128 }]
    ]
    for (const [type, parameters] of cases) {
      await shows(session, type, parameters)
      t.ok(await scrollWidth() <= 360, `${type} ${JSON.stringify(parameters)}: scrollWidth ${await scrollWidth()} ≤ 360`)
    }
  })
})

/** CONTRACT §8's CSP: no 'unsafe-inline' or 'unsafe-eval', sources 'self' only (data:/blob: allowed), and the named directives. */
function cspProblems (policy: string | undefined): string[] {
  if (policy === undefined) return ['no Content-Security-Policy']
  const directives = new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0] !== '').map((words) => [words[0]?.toLowerCase() ?? '', words.slice(1)]))
  const problems: string[] = []
  for (const [name, wanted] of [['frame-ancestors', "'none'"], ['base-uri', "'none'"], ['form-action', "'none'"], ['require-trusted-types-for', "'script'"]]) {
    if (directives.get(name as string)?.join(' ') !== wanted) problems.push(`${name} is not ${wanted}`)
  }
  for (const [name, sources] of directives) {
    if (name === 'trusted-types' || name === 'require-trusted-types-for') continue
    for (const source of sources) if (!["'self'", "'none'", 'data:', 'blob:'].includes(source)) problems.push(`${name} ${source}`)
  }
  return problems
}

t.test('weight: / and everything it loads, gzip-compressed, at most 60 KiB; every file of it under the §8 CSP', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, origin } = session
    const loaded: Array<{ url: string, gzip: number, raw: number, csp: string | undefined, cacheControl: string | undefined }> = []
    const pending: Array<Promise<void>> = []
    const seen = new Set<string>()
    page.on('response', (response) => {
      // each file once: the browser asks its cache again for the icon at every fragment change
      if (response.url().startsWith(`${origin}/api/`) || seen.has(response.url())) return
      seen.add(response.url())
      pending.push(response.body().then((body) => {
        loaded.push({ url: response.url().slice(origin.length), gzip: gzipSync(body).length, raw: body.length, csp: response.headers()['content-security-policy'], cacheControl: response.headers()['cache-control'] })
      }))
    })
    await page.goto(`${origin}/`, { waitUntil: 'networkidle' })
    await Promise.all(pending)
    const atLoad = loaded.reduce((sum, file) => sum + file.gzip, 0)
    // then every generator, in the same document: whatever the page fetches later counts too
    for (const type of GENERATORS) {
      await page.evaluate((type) => { (globalThis as any).location.hash = type }, type)
      await page.waitForURL(`${origin}/#${type}`)
      await page.locator('[name=quantity]').waitFor({ state: 'visible' })
    }
    await page.waitForLoadState('networkidle')
    await Promise.all(pending)
    const total = loaded.reduce((sum, file) => sum + file.gzip, 0)
    for (const file of loaded) t.comment(`${file.url}: ${file.raw} bytes, ${file.gzip} gzip`)
    t.comment(`page weight: ${atLoad} bytes gzip at load (${(atLoad / 1024).toFixed(1)} KiB), ${total} bytes (${(total / 1024).toFixed(1)} KiB) with every generator opened; budget 61440 (60 KiB)`)
    t.ok(loaded.some((file) => file.url === '/'), '/ itself is counted')
    t.ok(total <= 60 * 1024, `${total} bytes gzip ≤ 60 KiB`)
    for (const file of loaded) {
      t.same(cspProblems(file.csp), [], `${file.url}: the CSP of §8`)
      if (file.url === '/') t.equal(file.cacheControl, 'no-store', '/ is no-store')
      if (/^\/assets\/.*-[0-9a-f]{8,}\.[a-z]+$/.test(file.url)) t.equal(file.cacheControl, 'public, max-age=31536000, immutable', `${file.url}: a name with its content hash, cached for good`)
    }
  })
})
