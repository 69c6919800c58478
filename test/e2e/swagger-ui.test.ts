// Swagger UI in a real browser (Debian's Chromium driven by playwright-core), with helmet's CSP on:
// the page renders from the service's own assets, lists every operation, and "Try it out" →
// "Execute" really calls the API, for a POST with its example body and a GET with its example X-Data,
// and asks for text/plain when that media type is chosen for the 200 (CONTRACT §1.2). With access
// keys required (CONTRACT §9), Authorize takes a key and Execute sends it as a bearer token.
import t from 'tap'
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { Locator } from 'playwright-core'
import { GENERATORS } from '../helper.js'
import { browserSkip, serve } from './page-browser.js'

// Screenshots for people to look at (scratch/ is git-ignored)
const SCREENSHOT_DIR = new URL('../../scratch/', import.meta.url)

// Under CI the browser is installed by .ci/run: its absence there is a failure, not a skip
const skip = browserSkip(t)

t.test('Swagger UI at /docs works in Chromium under the CSP', { skip }, async (t) => {
  const { browser, origin } = await serve(t)
  const page = await browser.newPage()
  const consoleErrors: string[] = []
  const foreignRequests: string[] = []
  page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()) })
  page.on('pageerror', (error) => consoleErrors.push(error.message))
  page.on('request', (request) => { if (!request.url().startsWith(`${origin}/`)) foreignRequests.push(request.url()) })
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));`
  })

  const docs = await page.goto(`${origin}/docs`)
  t.match(docs?.headers()['content-security-policy'], /script-src 'self'/, 'the page is served with a CSP')
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 })
  t.equal(await page.locator('.opblock').count(), GENERATORS.length * 2 + 7, `all ${GENERATORS.length * 2 + 7} operations are listed (${GENERATORS.length} generators and sets x POST and GET, /api/health, /livez, /readyz, the recipes' two)`)
  t.equal(await page.locator('.opblock-post').count(), GENERATORS.length + 1)
  t.equal(await page.locator('.opblock-get').count(), GENERATORS.length + 6)
  await page.screenshot({ path: fileURLToPath(new URL('swagger-ui.png', SCREENSHOT_DIR)), fullPage: true })

  async function execute (operation: Locator): Promise<{ status: string, body: any }> {
    await operation.locator('.opblock-summary').click()
    await operation.getByRole('button', { name: 'Try it out' }).click()
    await operation.getByRole('button', { name: 'Execute' }).click()
    const status = operation.locator('.live-responses-table tbody .response-col_status').first()
    await status.waitFor({ timeout: 30_000 })
    const body = await operation.locator('.live-responses-table .response-col_description pre').first().innerText()
    return { status: (await status.innerText()).trim(), body: JSON.parse(body) }
  }

  const post = page.locator('#operations-generators-generatePassword')
  const posted = await execute(post)
  t.equal(posted.status, '200', 'POST password: Execute shows 200')
  t.equal(posted.body.type, 'password')
  t.equal(posted.body.values.length, 2, 'the example body asks for 2 passwords')
  for (const value of posted.body.values) t.match(value, /^[A-Za-z0-9]{24}$/, 'generated with the example parameters')
  await post.screenshot({ path: fileURLToPath(new URL('swagger-ui-post.png', SCREENSHOT_DIR)) })

  const get = page.locator('#operations-generators-generateSeqWithHeader')
  await get.locator('.opblock-summary').click()
  await get.getByRole('button', { name: 'Try it out' }).click()
  const xData = get.locator('tr[data-param-name="X-Data"] input')
  const example = await xData.inputValue()
  t.same(JSON.parse(Buffer.from(example, 'base64').toString('utf8')), { byteLength: 16, encoding: 'base64url' }, 'X-Data is a text field holding the example')
  await get.getByRole('button', { name: 'Execute' }).click()
  const status = get.locator('.live-responses-table tbody .response-col_status').first()
  await status.waitFor({ timeout: 30_000 })
  t.equal((await status.innerText()).trim(), '200', 'GET seq with X-Data: Execute shows 200')
  const body = JSON.parse(await get.locator('.live-responses-table .response-col_description pre').first().innerText())
  t.equal(body.type, 'seq')
  t.match(body.values[0], /^[A-Za-z0-9_-]{22}$/, '16 bytes as base64url: the X-Data example was applied')
  await get.screenshot({ path: fileURLToPath(new URL('swagger-ui-get.png', SCREENSHOT_DIR)) })

  // Sets (CONTRACT §10): both methods with their examples, the item choice rendered from the discriminator
  const setPost = await execute(page.locator('#operations-generators-generateSet'))
  t.equal(setPost.status, '200', 'POST set: Execute shows 200')
  t.same(setPost.body.items.map((item: { name: string }) => item.name), ['POSTGRES_PASSWORD', 'WG_SERVER', 'WG_PSK', 'APP_TOKEN'], 'the example set, in its order')
  const setGet = await execute(page.locator('#operations-generators-generateSetWithHeader'))
  t.equal(setGet.status, '200', 'GET set with X-Data: Execute shows 200')
  t.equal(setGet.body.items.length, 4, 'the X-Data example was applied')

  // text/plain: the 200's media type selector controls the Accept header Swagger UI sends
  const text = page.locator('#operations-generators-generateShortId')
  await text.locator('.opblock-summary').click()
  await text.getByRole('button', { name: 'Try it out' }).click()
  const mediaType = text.locator('.response-control-media-type--accept-controller select')
  t.same(await mediaType.locator('option').allInnerTexts(), ['application/json', 'text/plain'], 'the 200 offers both media types')
  await mediaType.selectOption('text/plain')
  const sent = page.waitForRequest((request) => request.url() === `${origin}/api/generate/short-id` && request.method() === 'POST')
  await text.getByRole('button', { name: 'Execute' }).click()
  t.equal((await sent).headers().accept, 'text/plain', 'Swagger UI sends Accept: text/plain')
  const textStatus = text.locator('.live-responses-table tbody .response-col_status').first()
  await textStatus.waitFor({ timeout: 30_000 })
  t.equal((await textStatus.innerText()).trim(), '200', 'POST short-id as text/plain: Execute shows 200')
  const textBody = await text.locator('.live-responses-table .response-col_description pre').first().innerText()
  t.match(textBody, /^([0-9a-f]{16}\n?){3}$/, 'the example asks for 3 short IDs of 16 characters: shown one per line')
  t.match(await text.locator('.live-responses-table tbody .response-col_description').first().innerText(), /content-type: text\/plain; charset=utf-8/, 'the response headers say text/plain')
  await text.screenshot({ path: fileURLToPath(new URL('swagger-ui-text.png', SCREENSHOT_DIR)) })

  t.same(await page.evaluate('window.cspViolations'), [], 'no CSP violation')
  t.same(consoleErrors, [], 'no error in the console')
  t.same(foreignRequests, [], 'every asset and call comes from the service (no CDN)')
})

t.test('Swagger UI\'s Authorize sends the access key as a bearer token (CONTRACT §9)', { skip }, async (t) => {
  const key = 'rg_SwaggerAuthorizeKey5e2b9c7d01'
  const { browser, origin } = await serve(t, { API_KEY_HASHES: createHash('sha256').update(key).digest('hex') })
  const page = await browser.newPage()
  const consoleErrors: string[] = []
  page.on('pageerror', (error) => consoleErrors.push(error.message))
  await page.goto(`${origin}/docs`)
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 })

  const operation = page.locator('#operations-generators-generateUuid')
  await operation.locator('.opblock-summary').click()
  await operation.getByRole('button', { name: 'Try it out' }).click()
  const executeAndWait = async (): Promise<{ status: string, authorization?: string }> => {
    const sent = page.waitForRequest((request) => request.url() === `${origin}/api/generate/uuid` && request.method() === 'POST')
    const answered = page.waitForResponse((response) => response.url() === `${origin}/api/generate/uuid` && response.request().method() === 'POST')
    await operation.getByRole('button', { name: 'Execute' }).click()
    const request = await sent
    const response = await answered
    return { status: String(response.status()), authorization: request.headers().authorization }
  }
  const before = await executeAndWait()
  t.equal(before.status, '401', 'without a key: 401')
  t.equal(before.authorization, undefined, 'no Authorization sent')

  // The Authorize dialog lists the bearer scheme the document declares
  await page.locator('.auth-wrapper .authorize').click()
  const dialog = page.locator('.dialog-ux .modal-ux')
  await dialog.waitFor({ timeout: 10_000 })
  t.match(await dialog.innerText(), /bearerAuth/, 'the dialog offers bearerAuth')
  await dialog.locator('input').first().fill(key)
  // The dialog's submit button ("Authorize", labelled "Apply credentials"), then its close button
  await dialog.locator('button.modal-btn.authorize').click()
  await dialog.locator('button.btn-done').click()

  const after = await executeAndWait()
  t.equal(after.authorization, `Bearer ${key}`, 'Execute sends Authorization: Bearer <key>')
  t.equal(after.status, '200', 'with the key: 200')
  t.same(consoleErrors, [], 'no error in the page')
})
