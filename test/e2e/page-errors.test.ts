// The page's errors (CONTRACT §8) in Chromium: a value out of range typed into a field goes to the
// API as typed, and its problem document is shown — `detail` in role="alert", each field message
// beside its control (naming it by its label, not by the API's path to it), the values shown
// before removed — in English and, for a German browser, in German; with no network, a message
// and no values.
import { createHash } from 'node:crypto'
import t, { type Test } from 'tap'
import { browserSkip, generate, generateButton, leadingLanguage, openGenerator, pageLanguage, serve, shownFor, shownOnce, withSession, type Served, type Session } from './page-browser.js'

/** The text the page shows for the control named `name` besides its label: what aria-describedby / aria-errormessage point to, or its own container's text. */
async function besideControl (session: Session, name: string): Promise<string> {
  return await session.page.locator(`[name="${name}"]`).evaluate((control: any) => {
    const document = control.ownerDocument
    const ids = [control.getAttribute('aria-describedby'), control.getAttribute('aria-errormessage')].join(' ').split(/\s+/).filter(Boolean)
    const described = ids.map((id: string) => document.getElementById(id)?.textContent ?? '').join(' ')
    return `${described} ${control.parentElement?.textContent ?? ''}`
  })
}

/** The length control's label and quotation marks in each language the test uses, as the page and the API write them. */
const LENGTH: Record<string, { label: string, quotes: readonly [string, string] }> = {
  en: { label: 'Length', quotes: ['“', '”'] },
  de: { label: 'Länge', quotes: ['„', '“'] }
}

async function outOfRange (t: Test, served: Served, locale: string, language: string, act: (session: Session) => Promise<void>): Promise<string> {
  let detail = ''
  await withSession(t, served, { locale }, async (session) => {
    const { page } = session
    session.allowFailedLoad(/status of 400\b/)
    await openGenerator(session, 'password')
    t.equal(await pageLanguage(page), language, `<html lang="${language}"> for a ${locale} browser`)

    // values first, so the test sees them go
    const first = await generate(session, () => page.locator('[name=length]').press('Enter'))
    t.equal(first.status, 200, 'Enter in a field generates')
    t.same(await shownOnce(page, shownFor(first.json)), shownFor(first.json), 'values shown')

    await page.locator('[name=length]').fill('500')
    const failed = await generate(session, () => act(session))
    t.equal(failed.status, 400, 'the API refuses length 500')
    t.same(JSON.parse(failed.request.postData() ?? 'null'), { length: 500 }, 'the page sends the value as typed (the API judges it)')
    t.equal(leadingLanguage(failed.requestHeaders['accept-language']), language, `Accept-Language asks for ${language}`)
    t.equal(failed.response.headers()['content-language'], language, `the API answered in ${language}`)
    const problem = failed.json
    t.equal(problem.errors?.[0]?.pointer, '#/length')
    detail = problem.detail

    const alert = page.locator('[role=alert]').filter({ hasText: problem.detail })
    await alert.first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {})
    t.ok(await alert.first().isVisible(), `role="alert" shows the API's detail: ${problem.detail}`)
    const { label, quotes: [open, close] } = LENGTH[language] as (typeof LENGTH)[string]
    t.ok(problem.errors[0].detail.includes(`${open}length${close}`), `the API names the field by its path: ${problem.errors[0].detail}`)
    const labelled = problem.errors[0].detail.replace(`${open}length${close}`, `${open}${label}${close}`)
    t.ok((await besideControl(session, 'length')).includes(labelled), `the field message is beside [name=length], naming its label: ${labelled}`)
    t.equal(await page.locator('[data-value]').count(), 0, 'no value shown with an error')
    t.equal(await page.locator('[data-entropy-bits]').count(), 0, 'no entropy shown with an error')

    // and the other way round: values again, the error gone
    await page.locator('[name=length]').fill('32')
    const fixed = await generate(session, () => page.locator('[name=length]').press('Enter'))
    t.equal(fixed.status, 200, 'length 32 is accepted')
    t.same(await shownOnce(page, shownFor(fixed.json)), shownFor(fixed.json), 'values shown again')
    t.equal(await page.locator('[role=alert]').filter({ hasText: problem.detail }).count(), 0, 'the error is gone')
    t.notOk((await besideControl(session, 'length')).includes(labelled), 'the field message is gone')
  })
  return detail
}

t.test('a value out of range: the API\'s own message, beside its field, no values; in English and in German', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  const english = await outOfRange(t, served, 'en-US', 'en', (session) => generateButton(session.page).click())
  // the German button's name is the German word: the test does not guess it, Enter works everywhere
  const german = await outOfRange(t, served, 'de-DE', 'de', (session) => session.page.locator('[name=length]').press('Enter'))
  t.not(german, english, `the German message is not the English one (${german})`)
  t.match(german, /„length“/, 'German quotation marks around the parameter\'s name, as the API\'s German catalog writes them')
})

t.test('no network: a message in role="alert", no values', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, context } = session
    session.allowFailedLoad(/net::ERR_INTERNET_DISCONNECTED/)
    await openGenerator(session, 'password')
    const first = await generate(session, () => generateButton(page).click())
    await shownOnce(page, shownFor(first.json))
    await context.route('**/api/generate/**', (route) => route.abort('internetdisconnected'))
    const failed = page.waitForEvent('requestfailed')
    await generateButton(page).click()
    await failed
    const alert = page.locator('[role=alert]')
    await alert.first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {})
    t.ok(await alert.first().isVisible(), 'role="alert" is shown')
    t.not((await alert.first().textContent())?.trim() ?? '', '', `with a message: ${await alert.first().textContent()}`)
    t.equal(await page.locator('[data-value]').count(), 0, 'no value shown')
  })
})

t.test('429: the wait from Retry-After', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, context } = session
    session.allowFailedLoad(/status of 429\b/)
    await openGenerator(session, 'password')
    // The service's own limit is off by default (§5): the edge's answer is stood in for here
    await context.route('**/api/generate/**', (route) => route.fulfill({
      status: 429,
      headers: { 'content-type': 'application/problem+json; charset=utf-8', 'retry-after': '37', 'content-language': 'en' },
      body: JSON.stringify({ title: 'Too Many Requests', status: 429, code: 'RATE_LIMITED', detail: 'Too many requests.' })
    }))
    const answered = page.waitForResponse((response) => response.status() === 429)
    await generateButton(page).click()
    await answered
    const alert = page.locator('[role=alert]').filter({ hasText: '37' })
    await alert.first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {})
    t.ok(await alert.first().isVisible(), `role="alert" says how long to wait (37 s from Retry-After): ${await page.locator('[role=alert]').allTextContents()}`)
    t.equal(await page.locator('[data-value]').count(), 0, 'no value shown')
  })
})

t.test('a language chosen on the page: <html lang>, Accept-Language and the API\'s message follow it', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    session.allowFailedLoad(/status of 400\b/)
    await openGenerator(session, 'password')
    // the chooser is the select offering the five page languages (whatever its own name)
    const chooser = page.locator('select:has(option[value=fr]):has(option[value=de]):has(option[value=ru])')
    t.equal(await chooser.count(), 1, 'one language chooser')
    await chooser.selectOption('fr')
    t.equal(await pageLanguage(page), 'fr', '<html lang="fr">')
    await page.locator('[name=length]').fill('500')
    const failed = await generate(session, () => page.locator('[name=length]').press('Enter'))
    t.equal(leadingLanguage(failed.requestHeaders['accept-language']), 'fr', `Accept-Language: ${failed.requestHeaders['accept-language']}`)
    t.equal(failed.response.headers()['content-language'], 'fr', 'the API answered in French')
    const alert = page.locator('[role=alert]').filter({ hasText: failed.json.detail })
    await alert.first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {})
    t.ok(await alert.first().isVisible(), `role="alert" shows the French detail: ${failed.json.detail}`)
    t.equal(await page.locator('[data-value]').count(), 0, 'no value shown')
  })
})

t.test('401: the page asks for an access key, sends it as a Bearer token, keeps it for this tab only and stores it nowhere', { skip: browserSkip(t) }, async (t) => {
  const key = 'rg_pageTestAccessKey0123456789'
  // The service itself requires the key (CONTRACT §9): only its SHA-256 is configured
  const served = await serve(t, { API_KEY_HASHES: createHash('sha256').update(key).digest('hex') })
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, context } = session
    session.allowFailedLoad(/status of 401\b/)
    await openGenerator(session, 'password')
    const refused = await generate(session, () => generateButton(page).click())
    t.equal(refused.status, 401)
    t.equal(refused.json.code, 'UNAUTHORIZED')
    t.match(refused.response.headers()['www-authenticate'], /^Bearer realm="randgen"/)
    const alert = page.locator('[role=alert]').filter({ hasText: refused.json.detail })
    await alert.first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {})
    t.ok(await alert.first().isVisible(), `the API's detail is shown: ${refused.json.detail}`)
    const keyField = page.locator('input[type=password]')
    t.ok(await keyField.isVisible(), 'a field for the key is shown')
    await keyField.fill(key)
    const accepted = await generate(session, () => keyField.press('Enter'))
    t.equal(accepted.requestHeaders.authorization, `Bearer ${key}`, 'the key goes as a Bearer token')
    t.equal(accepted.status, 200)
    t.same(await shownOnce(page, shownFor(accepted.json)), shownFor(accepted.json), 'the values are shown')
    const again = await generate(session, () => generateButton(page).click())
    t.equal(again.requestHeaders.authorization, `Bearer ${key}`, 'the key is kept for the next Generate')
    const kept = await page.evaluate(() => {
      const w = globalThis as any
      const fields = Array.from(w.document.querySelectorAll('input, textarea'), (control: any) => control.value).join('\n')
      return `${w.localStorage.length} ${w.sessionStorage.length} ${w.location.href} ${w.document.title} ${JSON.stringify(w.history.state)} ${w.document.body.innerText} ${fields}`
    })
    t.notOk(kept.includes('pageTestAccessKey'), 'the key is in no storage, URL, title, history state, page text or field')
    t.same(await context.cookies(), [], 'nor in a cookie')

    // another tab of the same browser: asked again
    const other = await context.newPage()
    await other.goto(page.url())
    await other.locator('[name=quantity]').waitFor({ state: 'visible' })
    const elsewhere = await generate({ ...session, page: other }, () => generateButton(other).click())
    t.equal(elsewhere.requestHeaders.authorization, undefined, 'another tab does not have the key')
    t.equal(elsewhere.status, 401, 'and the service refuses it')
    await other.close()
  })
})
