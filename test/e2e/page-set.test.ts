// The page's set (CONTRACT §10, `/#set`) in Chromium: rows of name, generator and parameters; the
// starting sets only fill rows; one POST /api/generate with Accept: text/plain makes the .env,
// shown exactly as answered in `data-env`, copied and saved as `.env`; each problem beside the
// control its pointer names; rows added and removed with the keyboard; axe-clean light and dark,
// nothing scrolling sideways at 360 CSS pixels.
import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page, Response } from 'playwright-core'
import { browserSkip, generateButton, serve, withSession, type Session } from './page-browser.js'

const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8')

async function openSet (session: Session): Promise<void> {
  const { page, origin } = session
  await page.goto('about:blank')
  await page.goto(`${origin}/#set`)
  await page.locator('#item-0-name').waitFor({ state: 'visible' })
}

/** Does `act`, then returns the set request's answer: its status, body text and the request. */
async function generateSet (session: Session, act: () => Promise<void>): Promise<{ response: Response, status: number, text: string, body: any, headers: Record<string, string> }> {
  const { page, origin } = session
  const answered = page.waitForResponse((response) => response.url() === `${origin}/api/generate`)
  await act()
  const response = await answered
  const request = response.request()
  return { response, status: response.status(), text: await response.text(), body: JSON.parse(request.postData() ?? 'null'), headers: await request.allHeaders() }
}

async function envShown (page: Page, want: string): Promise<string> {
  await page.waitForFunction((want) => (globalThis as any).document.querySelector('[data-env]')?.textContent === want, want, { timeout: 15_000 }).catch(() => {})
  return await page.evaluate(() => (globalThis as any).document.querySelector('[data-env]')?.textContent ?? '(none)')
}

const names = async (page: Page): Promise<string[]> => await page.locator('[data-item] [name=name]').evaluateAll((inputs: any[]) => inputs.map((input) => input.value))

async function axeViolations (page: Page): Promise<string[]> {
  if (await page.evaluate(() => (globalThis as any).axe === undefined)) await page.evaluate(AXE)
  const violations: any[] = await page.evaluate(async () => (await (globalThis as any).axe.run((globalThis as any).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })).violations)
  return violations.map((violation) => `${violation.id}: ${violation.help} at ${violation.nodes.map((node: any) => node.target.join(' ')).join(', ')}`)
}

t.test('a starting set fills rows; one POST with Accept: text/plain; the .env shown, copied and saved exactly as answered', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] }, async (session) => {
    const { page, origin } = session
    await openSet(session)
    t.equal(await page.locator('#generator').inputValue(), 'set', 'the generator chooser says "set"')
    await page.getByRole('button', { name: /WireGuard peer/ }).click()
    t.same(await names(page), ['WG_PRIVATE_KEY', 'WG_PRESHARED_KEY'], 'the WireGuard peer fills two rows')
    t.same(await page.locator('[data-item] [name=type]').evaluateAll((selects: any[]) => selects.map((select) => select.value)), ['vpn', 'vpn'])
    t.same(await page.locator('[data-item] [name=protocol]').evaluateAll((selects: any[]) => selects.map((select) => select.value)), ['wireguard', 'wireguard-psk'])

    const answer = await generateSet(session, () => generateButton(page).click())
    t.equal(answer.status, 200)
    t.equal(answer.response.request().method(), 'POST')
    t.equal(answer.response.request().url(), `${origin}/api/generate`, 'no query string')
    t.match(answer.headers.accept, /^text\/plain/, 'Accept: text/plain')
    t.match(answer.headers['content-type'], /^application\/json/)
    t.same(answer.body, { items: [{ name: 'WG_PRIVATE_KEY', type: 'vpn', params: { protocol: 'wireguard' } }, { name: 'WG_PRESHARED_KEY', type: 'vpn', params: { protocol: 'wireguard-psk' } }] })
    t.match(answer.text, /^WG_PRIVATE_KEY='[A-Za-z0-9+/]{43}='\nWG_PRIVATE_KEY_PUBLIC_KEY='[A-Za-z0-9+/]{43}='\nWG_PRESHARED_KEY='[A-Za-z0-9+/]{43}='\n$/)
    t.equal(await envShown(page, answer.text), answer.text, 'data-env holds the answer exactly')
    await page.getByRole('status').filter({ hasText: '3 lines of .env written.' }).waitFor({ timeout: 15_000 })

    await page.getByRole('button', { name: 'Copy the .env file' }).click()
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor({ timeout: 15_000 })
    t.equal(await page.evaluate(async () => await (globalThis as any).navigator.clipboard.readText()), answer.text, 'Copy copies the .env exactly')
    // The name the page gives the download; Chromium then drops a name's leading dot (it saves
    // `env`, as it saves `.gitignore` as `gitignore`), which no page can prevent
    await page.evaluate(() => {
      const anchor = (globalThis as any).HTMLAnchorElement.prototype
      const click = anchor.click
      ;(globalThis as any).downloadNames = []
      anchor.click = function (this: any) { (globalThis as any).downloadNames.push(this.download); return click.call(this) }
    })
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as .env' }).click()])
    t.same(await page.evaluate(() => (globalThis as any).downloadNames), ['.env'], 'the download is named .env')
    t.match(download.suggestedFilename(), /^\.?env$/, `Chromium saves it as ${download.suggestedFilename()}`)
    t.equal(readFileSync(await download.path(), 'utf8'), answer.text, 'and holds the .env exactly')

    await page.getByRole('button', { name: /An app/ }).click()
    t.same(await names(page), ['DB_PASSWORD', 'SECRET_KEY', 'API_TOKEN'], 'the app set')
    const app = await generateSet(session, () => generateButton(page).click())
    t.same(app.body.items, [
      { name: 'DB_PASSWORD', type: 'password', params: { length: 32, symbols: false } },
      { name: 'SECRET_KEY', type: 'seq' },
      { name: 'API_TOKEN', type: 'token' }
    ], 'parameters at their defaults are not sent (32 bytes in hex is seq\'s default)')
    t.match(app.text, /^DB_PASSWORD='[A-Za-z0-9]{32}'\nSECRET_KEY='[0-9a-f]{64}'\nAPI_TOKEN='[^'\n]+'\nAPI_TOKEN_HASH='[^'\n]+'\n$/)
    t.equal(await envShown(page, app.text), app.text)

    await page.getByRole('button', { name: /Xray REALITY inbound/ }).click()
    const reality = await generateSet(session, () => generateButton(page).click())
    t.match(reality.text, /^REALITY_PRIVATE_KEY='[A-Za-z0-9_-]{43}'\nREALITY_PRIVATE_KEY_PUBLIC_KEY='[A-Za-z0-9_-]{43}'\nREALITY_SHORT_ID='[0-9a-f]{8}'\nCLIENT_ID='[0-9a-f-]{36}'\n$/)
  })
})

t.test('each problem beside the control its pointer names; nothing shown from before', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'de-DE' }, async (session) => {
    const { page } = session
    session.allowFailedLoad(/status of 400\b/, `${session.origin}/api/generate`)
    await openSet(session)
    const ok = await generateSet(session, () => generateButton(page, 'Erzeugen').click())
    t.equal(ok.status, 200)
    await page.locator('#item-0-name').fill('PATH')
    await page.locator('#item-1-type').selectOption('password')
    await page.locator('#item-1-param-length').fill('3')
    const failed = await generateSet(session, () => generateButton(page, 'Erzeugen').click())
    t.equal(failed.status, 400)
    const problem = JSON.parse(failed.text)
    const pointers = problem.errors.map((entry: any) => entry.pointer)
    t.ok(pointers.includes('#/items/0/name'), 'the API names row 0\'s name')
    t.ok(pointers.includes('#/items/1/params/length'), 'and row 1\'s length')
    for (const [pointer, id] of [['#/items/0/name', 'item-0-name'], ['#/items/1/params/length', 'item-1-param-length']]) {
      const detail = problem.errors.find((entry: any) => entry.pointer === pointer).detail
      await page.locator(`#${id}-error`).waitFor({ state: 'visible', timeout: 15_000 })
      t.equal(await page.locator(`#${id}-error`).textContent(), detail, `${pointer}: the API's German words beside #${id}`)
      t.equal(await page.locator(`#${id}`).getAttribute('aria-invalid'), 'true')
      t.match(await page.locator(`#${id}`).getAttribute('aria-describedby'), `${id}-error`)
    }
    t.equal(await page.locator('[data-env]').count(), 0, 'the .env shown before is gone')
    t.equal(await page.locator('[role=alert]').count(), 1, 'one alert')
  })
})

/** Presses Tab until the focused element's text or name matches (at most 120 times). */
async function tabTo (t: Test, page: Page, what: RegExp): Promise<boolean> {
  for (let presses = 0; presses < 120; presses++) {
    await page.keyboard.press('Tab')
    const focused: string = await page.evaluate(() => {
      const element = (globalThis as any).document.activeElement
      return `${element?.id ?? ''} ${(element?.textContent ?? '').trim()}`
    })
    if (what.test(focused)) return true
  }
  t.fail(`Tab never reached ${String(what)}`)
  return false
}

t.test('the keyboard alone adds a row, names it, removes another and generates', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    await openSet(session)
    t.same(await names(page), ['DB_PASSWORD', 'SECRET_KEY', 'API_TOKEN'], 'the set opens with an app\'s secrets')
    t.ok(await tabTo(t, page, /Add a secret/), 'Tab reaches "Add a secret"')
    await page.keyboard.press('Enter')
    t.equal(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'item-3-name', 'the new row\'s name has the focus')
    await page.keyboard.type('SESSION_SECRET')
    await page.locator('#item-0-name').focus()
    t.ok(await tabTo(t, page, /Remove secret 1/), 'Tab reaches "Remove secret 1"')
    await page.keyboard.press('Enter')
    t.same(await names(page), ['SECRET_KEY', 'API_TOKEN', 'SESSION_SECRET'], 'row 1 removed, the others kept in order')
    t.equal(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'item-0-name', 'the focus stays in the list')
    t.ok(await tabTo(t, page, /^ Generate$/), 'Tab reaches Generate')
    const answer = await generateSet(session, () => page.keyboard.press('Enter'))
    t.equal(answer.status, 200)
    t.same(answer.body.items.map((item: any) => item.name), ['SECRET_KEY', 'API_TOKEN', 'SESSION_SECRET'])
    t.equal(await envShown(page, answer.text), answer.text)
  })
})

t.test('axe-core finds nothing in light and dark; at 360 CSS pixels nothing scrolls sideways', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  for (const colorScheme of ['light', 'dark'] as const) {
    await withSession(t, served, { locale: 'en-US', colorScheme, viewport: { width: 360, height: 740 } }, async (session) => {
      const { page } = session
      const scrollWidth = async (): Promise<number> => await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)
      await openSet(session)
      t.same(await axeViolations(page), [], `${colorScheme}: the set as it opens`)
      t.ok(await scrollWidth() <= 360, `${colorScheme}: scrollWidth ${await scrollWidth()} ≤ 360`)
      await page.getByRole('button', { name: /Xray REALITY inbound/ }).click()
      const answer = await generateSet(session, () => generateButton(page).click())
      await envShown(page, answer.text)
      t.same(await axeViolations(page), [], `${colorScheme}: a .env shown`)
      t.ok(await scrollWidth() <= 360, `${colorScheme}: with the .env, scrollWidth ${await scrollWidth()} ≤ 360`)
      session.allowFailedLoad(/status of 400\b/, `${session.origin}/api/generate`)
      await page.locator('#item-0-name').fill('9LIVES')
      const failed = await generateSet(session, () => generateButton(page).click())
      t.equal(failed.status, 400)
      await page.locator('#item-0-name-error').waitFor({ state: 'visible', timeout: 15_000 })
      t.same(await axeViolations(page), [], `${colorScheme}: a problem shown beside its control`)
    })
  }
})
