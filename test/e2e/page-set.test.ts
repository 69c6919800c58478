// The page's set (CONTRACT §10, `/#set`) in Chromium: rows of name, generator and parameters; the
// starting sets only fill rows; one POST /api/generate with Accept: text/plain makes the .env,
// shown exactly as answered in `data-env`, copied and saved as `randgen.env` (a name Chromium
// keeps), with how to rename it beside the button; a row's hash (§12) gives its `_HASH` line;
// each problem beside the control its pointer names, which it names by its label; rows added and
// removed with the keyboard; axe-clean light and dark, nothing scrolling sideways at 360 CSS pixels.
import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import type { Page, Response } from 'playwright-core'
import { axeViolations, browserSkip, generateButton, serve, withSession, type Session } from './page-browser.js'

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
    // CONTRACT §10: a name ending in _PRIVATE_KEY derives <stem>_PUBLIC_KEY (not WG_PRIVATE_KEY_PUBLIC_KEY)
    t.match(answer.text, /^WG_PRIVATE_KEY='[A-Za-z0-9+/]{43}='\nWG_PUBLIC_KEY='[A-Za-z0-9+/]{43}='\nWG_PRESHARED_KEY='[A-Za-z0-9+/]{43}='\n$/)
    t.equal(await envShown(page, answer.text), answer.text, 'data-env holds the answer exactly')
    await page.getByRole('status').filter({ hasText: '3 lines of .env written.' }).waitFor({ timeout: 15_000 })

    await page.getByRole('button', { name: 'Copy the .env file' }).click()
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor({ timeout: 15_000 })
    t.equal(await page.evaluate(async () => await (globalThis as any).navigator.clipboard.readText()), answer.text, 'Copy copies the .env exactly')
    // Chromium drops a download name's leading dot (`.env` lands as `env`, as `.gitignore` as
    // `gitignore`): the page names the file randgen.env, which survives, and says how to rename it
    const save = page.getByRole('button', { name: 'Save as randgen.env', exact: true })
    const [download] = await Promise.all([page.waitForEvent('download'), save.click()])
    t.equal(download.suggestedFilename(), 'randgen.env', 'Chromium saves it as randgen.env')
    t.equal(readFileSync(await download.path(), 'utf8'), answer.text, 'and it holds the .env exactly')
    const hint = await save.evaluate((button: any) => button.ownerDocument.getElementById(button.getAttribute('aria-describedby'))?.textContent ?? '')
    t.match(hint, /mv randgen\.env \.env/, `beside the button, how to rename it: ${hint}`)
    t.ok(await page.getByText(hint).isVisible(), 'shown, not only told to screen readers')

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
    t.match(reality.text, /^REALITY_PRIVATE_KEY='[A-Za-z0-9_-]{43}'\nREALITY_PUBLIC_KEY='[A-Za-z0-9_-]{43}'\nREALITY_SHORT_ID='[0-9a-f]{8}'\nCLIENT_ID='[0-9a-f-]{36}'\n$/)
  })
})

t.test('each problem beside the control its pointer names, named there by its label; nothing shown from before', { skip: browserSkip(t) }, async (t) => {
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
    // The API names a field by its path („items[0].name“); beside a control labelled
    // "Variablenname" the page names it so, in the API's German words otherwise
    for (const [pointer, id, apiName, label] of [['#/items/0/name', 'item-0-name', 'items[0].name', 'Variablenname'], ['#/items/1/params/length', 'item-1-param-length', 'items[1].params.length', 'Länge']]) {
      const detail: string = problem.errors.find((entry: any) => entry.pointer === pointer).detail
      t.ok(detail.includes(`„${apiName}“`), `the API says „${apiName}“: ${detail}`)
      await page.locator(`#${id}-error`).waitFor({ state: 'visible', timeout: 15_000 })
      t.equal(await page.locator(`#${id}-error`).textContent(), detail.replace(`„${apiName}“`, `„${label}“`), `${pointer}: the API's German words beside #${id}, naming its label „${label}“`)
      t.equal(await page.locator(`label[for="${id}"]`).textContent(), label, `#${id} is labelled ${label}`)
      t.equal(await page.locator(`#${id}`).getAttribute('aria-invalid'), 'true')
      t.match(await page.locator(`#${id}`).getAttribute('aria-describedby'), `${id}-error`)
    }
    t.equal(await page.locator('[data-env]').count(), 0, 'the .env shown before is gone')
    t.equal(await page.locator('[role=alert]').count(), 1, 'one alert')
    t.ok((await page.locator('[role=alert]').textContent())?.includes(problem.detail), `the alert keeps the API's detail: ${problem.detail}`)
  })
})

t.test('the starting sets with a hash: Vaultwarden\'s admin token and a Mosquitto user, each hash on its _HASH line', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    await openSet(session)

    await page.getByRole('button', { name: /Vaultwarden/ }).click()
    t.same(await names(page), ['VAULTWARDEN_ADMIN'], 'one row')
    t.equal(await page.locator('#item-0-type').inputValue(), 'passphrase')
    t.equal(await page.locator('#item-0-param-hash-algorithm').inputValue(), 'argon2id', 'hashed with Argon2id')
    const note = await page.locator('#item-0-name').evaluate((input: any) => input.getAttribute('aria-describedby').split(' ').map((id: string) => input.ownerDocument.getElementById(id)?.textContent ?? '').join(' '))
    t.match(note, /ADMIN_TOKEN takes this secret’s _HASH line/, `the row says which line Vaultwarden reads: ${note}`)
    const vaultwarden = await generateSet(session, () => generateButton(page).click())
    t.equal(vaultwarden.status, 200)
    t.same(vaultwarden.body.items, [{ name: 'VAULTWARDEN_ADMIN', type: 'passphrase', params: { hash: { algorithm: 'argon2id' } } }], 'Argon2id at its defaults: only the algorithm sent')
    t.match(vaultwarden.text, /^VAULTWARDEN_ADMIN='[a-z]+(-[a-z]+){5}'\nVAULTWARDEN_ADMIN_HASH='\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}'\n$/)
    t.equal(await envShown(page, vaultwarden.text), vaultwarden.text, 'data-env holds the answer exactly')

    await page.getByRole('button', { name: /Mosquitto user/ }).click()
    t.same(await names(page), ['MQTT_PASSWORD'])
    t.equal(await page.locator('#item-0-type').inputValue(), 'password')
    t.equal(await page.locator('#item-0-param-hash-algorithm').inputValue(), 'mosquitto')
    const mosquitto = await generateSet(session, () => generateButton(page).click())
    t.equal(mosquitto.status, 200)
    t.same(mosquitto.body.items, [{ name: 'MQTT_PASSWORD', type: 'password', params: { length: 32, hash: { algorithm: 'mosquitto' } } }])
    t.match(mosquitto.text, /^MQTT_PASSWORD='[^'\n]{32}'\nMQTT_PASSWORD_HASH='\$7\$101\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{86}=='\n$/)
    t.equal(await envShown(page, mosquitto.text), mosquitto.text)

    // A note speaks of the generator its starting set chose: another generator, and it goes
    await page.getByRole('button', { name: /Vaultwarden/ }).click()
    await page.locator('#item-0-type').selectOption('uuid')
    t.equal(await page.locator('#item-0-note').count(), 0, 'the note goes with the generator it spoke of')
    t.equal(await page.locator('#item-0-name').getAttribute('aria-describedby'), 'item-0-name-hint')
  })
})

t.test('a row with a hash gives its _HASH line; a problem at #/items/0/params/hash/cost lands beside that row\'s cost control', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    session.allowFailedLoad(/status of 400\b/, `${session.origin}/api/generate`)
    await openSet(session)
    await page.getByRole('button', { name: /An app/ }).click()
    await page.locator('#item-0-param-hash-algorithm').selectOption('bcrypt')
    await page.locator('#item-0-param-hash-cost').fill('4')
    const hashed = await generateSet(session, () => generateButton(page).click())
    t.equal(hashed.status, 200)
    t.same(hashed.body.items[0], { name: 'DB_PASSWORD', type: 'password', params: { length: 32, symbols: false, hash: { algorithm: 'bcrypt', cost: 4 } } })
    t.match(hashed.text, /^DB_PASSWORD='[A-Za-z0-9]{32}'\nDB_PASSWORD_HASH='\$2y\$04\$[./A-Za-z0-9]{53}'\nSECRET_KEY='[0-9a-f]{64}'\nAPI_TOKEN='[^'\n]+'\nAPI_TOKEN_HASH='[0-9a-f]{64}'\n$/, 'NAME_HASH right after NAME')
    t.equal(await envShown(page, hashed.text), hashed.text)

    await page.locator('#item-0-param-hash-cost').fill('99')
    const failed = await generateSet(session, () => generateButton(page).click())
    t.equal(failed.status, 400)
    const problem = JSON.parse(failed.text)
    const entry = problem.errors.find((error: any) => error.pointer === '#/items/0/params/hash/cost')
    t.ok(entry, 'the API points at #/items/0/params/hash/cost')
    await page.locator('#item-0-param-hash-cost-error').waitFor({ state: 'visible', timeout: 15_000 })
    t.equal(await page.locator('#item-0-param-hash-cost-error').textContent(), entry.detail.replace('“items[0].params.hash.cost”', '“Cost (log2 of the rounds)”'), 'beside row 1\'s cost control, named by its label')
    t.equal(await page.locator('#item-0-param-hash-cost').getAttribute('aria-invalid'), 'true')
    t.equal(await page.locator('[data-env]').count(), 0, 'the .env shown before is gone')
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
      await page.getByRole('button', { name: /Vaultwarden/ }).click()
      const hashed = await generateSet(session, () => generateButton(page).click())
      await envShown(page, hashed.text)
      t.same(await axeViolations(page), [], `${colorScheme}: a row with a hash and its note, a .env with a _HASH line`)
      t.ok(await scrollWidth() <= 360, `${colorScheme}: with an Argon2id hash, scrollWidth ${await scrollWidth()} ≤ 360`)
      session.allowFailedLoad(/status of 400\b/, `${session.origin}/api/generate`)
      await page.locator('#item-0-name').fill('9LIVES')
      const failed = await generateSet(session, () => generateButton(page).click())
      t.equal(failed.status, 400)
      await page.locator('#item-0-name-error').waitFor({ state: 'visible', timeout: 15_000 })
      t.same(await axeViolations(page), [], `${colorScheme}: a problem shown beside its control`)
    })
  }
})
