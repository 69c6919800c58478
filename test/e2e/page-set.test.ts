// The page's set (CONTRACT §10, `/#set`) in Chromium: rows of name, generator and parameters; the
// starting sets are the catalog's recipes (§14.1), offered in one chooser grouped as the API
// lists them, read from the API and only filling rows, each row with its recipe's notes; one POST
// /api/generate with Accept: text/plain makes the .env, shown exactly as answered in `data-env`,
// copied and saved as `randgen.env` (a name Chromium keeps), with how to rename it beside the
// button; a row's hash (§12) gives its `_HASH` line, or the line its hashName names (§14.2); a jwt
// row (§14.2) signs with an earlier row's secret: Supabase's keys, picked and generated with the
// keyboard alone, verified by `jose` with JWT_SECRET's bytes; each problem beside the control its
// pointer names, which it names by its label; rows added and removed with the keyboard; axe-clean
// light and dark, nothing scrolling sideways at 360 CSS pixels.
import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'
import { errors as joseErrors, jwtVerify } from 'jose'
import type { Page, Response } from 'playwright-core'
import { asSent, axeViolations, browserSkip, chooseRecipe, clipboardAfter, CLIPBOARD, generateButton, rowsNamed, serve, withSession, type Session } from './page-browser.js'

const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'))

/** What each row's note says: `NAME — sentence` for each of its lines, in English. */
async function rowNotes (page: Page): Promise<Array<{ lang: string | null, lines: string[] } | null>> {
  return await page.locator('[data-item]').evaluateAll((rows: any[]) => rows.map((row) => {
    const note = row.querySelector(`#item-${row.dataset.item as string}-note`)
    return note === null ? null : { lang: note.getAttribute('lang'), lines: Array.from(note.querySelectorAll('p'), (line: any) => line.textContent) }
  }))
}

/** The notes a recipe's rows show: the note of each item's name and of its derived lines (the names GET /api/recipes lists after it). */
function notesOf (recipe: any, names: readonly string[]): Array<{ lang: string, lines: string[] }> {
  return recipe.items.map((item: any, index: number) => {
    const from = names.indexOf(item.name)
    const next = recipe.items[index + 1]
    const own = names.slice(from, next === undefined ? names.length : names.indexOf(next.name))
    return { lang: 'en', lines: own.map((name) => `${name} — ${recipe.notes[name] as string}`) }
  })
}

async function recipeNames (session: Session, id: string): Promise<string[]> {
  const { recipes } = await (await fetch(`${session.origin}/api/recipes`)).json() as any
  return recipes.find((recipe: any) => recipe.id === id).names
}

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

t.test('the chooser: "Start from", an empty first option, then every recipe GET /api/recipes lists, grouped apps, VPN, keys, by title', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, origin } = session
    const { recipes } = await (await fetch(`${origin}/api/recipes`)).json() as any
    await openSet(session)
    const chooser = page.getByLabel('Start from', { exact: true })
    t.equal(await chooser.evaluate((select: any) => `${select.tagName} ${select.id} ${select.name}`), 'SELECT recipe recipe', 'one native select, labelled "Start from"')
    await page.locator('#recipe optgroup').first().waitFor({ state: 'attached', timeout: 15_000 })
    const shown = await page.locator('#recipe').evaluate((select: any) => ({
      first: { value: select.options[0].value, text: select.options[0].textContent, inGroup: select.options[0].parentElement.tagName },
      groups: Array.from(select.querySelectorAll('optgroup'), (group: any) => ({ label: group.label, options: Array.from(group.children, (option: any) => `${option.value as string} ${option.textContent as string} ${option.lang as string}`) })),
      value: select.value
    }))
    t.same(shown.first, { value: '', text: 'Choose…', inGroup: 'SELECT' }, 'first, an empty option outside the groups')
    t.equal(shown.value, '', 'chosen at first: rows as the set opens')
    const want = ([['apps', 'Apps'], ['vpn', 'VPN'], ['keys', 'Keys']] as const)
      .map(([group, label]) => ({ label, options: recipes.filter((recipe: any) => recipe.group === group).sort((a: any, b: any) => a.title.localeCompare(b.title, 'en')).map((recipe: any) => `${recipe.id as string} ${recipe.title as string} en`) }))
      .filter((group) => group.options.length > 0)
    t.same(shown.groups, want, `every recipe once, under its group, by title: ${shown.groups.map((group) => `${group.label} (${group.options.length})`).join(', ')}`)
    t.equal(shown.groups.flatMap((group) => group.options).length, recipes.length, `all ${recipes.length} recipes of GET /api/recipes`)
    t.ok(recipes.some((recipe: any) => recipe.id === 'supabase'), 'Supabase among them')

    // Another language: the groups' words change, the choice and the rows it filled stay
    const supabase = await chooseRecipe(session, 'supabase')
    await page.locator('#page-language').selectOption('de')
    await page.getByLabel('Beginnen mit', { exact: true }).waitFor()
    await page.locator('#recipe optgroup[label="Anwendungen"]').waitFor({ state: 'attached', timeout: 15_000 })
    t.equal(await page.locator('#recipe').inputValue(), 'supabase', 'the chooser still says Supabase')
    t.same(await names(page), supabase.items.map((item: any) => item.name), 'and the rows are kept')
    t.same(await page.locator('#recipe optgroup').evaluateAll((groups: any[]) => groups.map((group) => group.label)), want.map(({ label }) => ({ Apps: 'Anwendungen', VPN: 'VPN', Keys: 'Schlüssel' } as Record<string, string>)[label]), 'the groups in German')
    t.match((await rowNotes(page))[0], { lang: 'en' }, 'the notes stay English, and say so')
  })
})

t.test('a catalog that cannot be read: said beside the chooser, the rows kept; read again when the set is drawn again', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, origin } = session
    session.allowFailedLoad(/status of 503\b/, `${origin}/api/recipes`)
    const unavailable = { status: 503, contentType: 'application/problem+json', body: JSON.stringify({ status: 503, detail: 'down' }) }
    await page.route(`${origin}/api/recipes`, (route) => route.fulfill(unavailable))
    await openSet(session)
    await page.locator('#recipe-error').waitFor({ state: 'visible', timeout: 15_000 })
    t.equal(await page.locator('#recipe-error').textContent(), 'The starting sets could not be read from the service. Try again later.')
    t.match(await page.locator('#recipe').getAttribute('aria-describedby'), /recipe-error/, 'told to screen readers with the chooser')
    t.equal(await page.locator('#recipe option').count(), 1, 'nothing to choose but the empty option')
    t.same(await names(page), ['DB_PASSWORD', 'SECRET_KEY', 'API_TOKEN'], 'the rows as they were')

    // The list answers again; a recipe's own read fails: said so, the rows kept
    await page.unroute(`${origin}/api/recipes`)
    await page.route(`${origin}/api/recipes/supabase`, (route) => route.fulfill(unavailable))
    await page.locator('#page-language').selectOption('en')
    await page.locator('#page-language').selectOption('de')
    await page.locator('#recipe option[value=supabase]').waitFor({ state: 'attached', timeout: 15_000 })
    t.ok(await page.locator('#recipe-error').isHidden(), 'drawn again, the list is read again')
    await page.locator('#recipe').selectOption('supabase')
    await page.locator('#recipe-error').waitFor({ state: 'visible', timeout: 15_000 })
    t.equal(await page.locator('#recipe-error').textContent(), 'Die Vorlagen konnten nicht vom Dienst gelesen werden. Bitte später erneut versuchen.')
    t.same(await names(page), ['DB_PASSWORD', 'SECRET_KEY', 'API_TOKEN'], 'the rows as they were')
    await page.unroute(`${origin}/api/recipes/supabase`)
    await page.locator('#recipe').selectOption('')
    await page.locator('#recipe').selectOption('supabase')
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#item-0-name')?.value === 'POSTGRES_PASSWORD', undefined, { timeout: 15_000 })
    t.ok(await page.locator('#recipe-error').isHidden(), 'chosen again, it is read again and fills the rows')
  })
})

t.test('a recipe fills rows, each with its notes; one POST with Accept: text/plain; the .env shown, copied and saved exactly as answered', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: CLIPBOARD }, async (session) => {
    const { page, origin } = session
    await openSet(session)
    t.equal(await page.locator('#generator').inputValue(), 'set', 'the generator chooser says "set"')
    const wireguard = await chooseRecipe(session, 'wireguard')
    t.same(await names(page), ['WG_PRIVATE_KEY', 'WG_PRESHARED_KEY'], 'the WireGuard peer fills two rows')
    t.same(await page.locator('[data-item] [name=type]').evaluateAll((selects: any[]) => selects.map((select) => select.value)), ['vpn', 'vpn'])
    t.same(await page.locator('[data-item] [name=protocol]').evaluateAll((selects: any[]) => selects.map((select) => select.value)), ['wireguard', 'wireguard-psk'])
    const notes = await rowNotes(page)
    t.same(notes, notesOf(wireguard, await recipeNames(session, 'wireguard')), 'each row shows its recipe\'s notes, in English')
    t.match(notes[0]?.lines, [/^WG_PRIVATE_KEY — /, /^WG_PUBLIC_KEY — /], 'the derived WG_PUBLIC_KEY\'s note beside the row that makes it')

    const answer = await generateSet(session, () => generateButton(page).click())
    t.equal(answer.status, 200)
    t.equal(answer.response.request().method(), 'POST')
    t.equal(answer.response.request().url(), `${origin}/api/generate`, 'no query string')
    t.match(answer.headers.accept, /^text\/plain/, 'Accept: text/plain')
    t.match(answer.headers['content-type'], /^application\/json/)
    t.same(answer.body, { items: [{ name: 'WG_PRIVATE_KEY', type: 'vpn', params: { protocol: 'wireguard' } }, { name: 'WG_PRESHARED_KEY', type: 'vpn', params: { protocol: 'wireguard-psk' } }] })
    t.same(answer.body.items, wireguard.items, 'exactly the recipe\'s items')
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

    // The rows the set opens with (no recipe): an app's usual three
    await openSet(session)
    t.same(await names(page), ['DB_PASSWORD', 'SECRET_KEY', 'API_TOKEN'], 'the set opens with an app\'s secrets')
    t.same(await rowNotes(page), [null, null, null], 'rows no recipe filled have no note')
    const app = await generateSet(session, () => generateButton(page).click())
    t.same(app.body.items, [
      { name: 'DB_PASSWORD', type: 'password', params: { length: 32, symbols: false } },
      { name: 'SECRET_KEY', type: 'seq' },
      { name: 'API_TOKEN', type: 'token' }
    ], 'parameters at their defaults are not sent (32 bytes in hex is seq\'s default)')
    t.match(app.text, /^DB_PASSWORD='[A-Za-z0-9]{32}'\nSECRET_KEY='[0-9a-f]{64}'\nAPI_TOKEN='[^'\n]+'\nAPI_TOKEN_HASH='[^'\n]+'\n$/)
    t.equal(await envShown(page, app.text), app.text)

    const reality = await chooseRecipe(session, 'reality')
    const realityAnswer = await generateSet(session, () => generateButton(page).click())
    t.same(realityAnswer.body.items, reality.items, 'exactly the REALITY recipe\'s items')
    t.match(realityAnswer.text, /^REALITY_PRIVATE_KEY='[A-Za-z0-9_-]{43}'\nREALITY_PUBLIC_KEY='[A-Za-z0-9_-]{43}'\nREALITY_SHORT_ID='[0-9a-f]{8}'\nCLIENT_ID='[0-9a-f-]{36}'\n$/)
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

t.test('the recipes with a hash: Vaultwarden\'s admin token (its hashName ADMIN_TOKEN) and a Mosquitto user (its _HASH line), each row with its notes', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    await openSet(session)

    const vaultwardenRecipe = await chooseRecipe(session, 'vaultwarden')
    t.same(await names(page), ['VAULTWARDEN_ADMIN_PASSWORD'], 'one row')
    t.equal(await page.locator('#item-0-type').inputValue(), 'passphrase')
    t.equal(await page.locator('#item-0-param-hash-algorithm').inputValue(), 'argon2id', 'hashed with Argon2id')
    t.same(await page.locator('#item-0-param-hash-memoryKiB, #item-0-param-hash-iterations, #item-0-param-hash-parallelism').evaluateAll((inputs: any[]) => inputs.map((input) => input.value)), ['65540', '3', '4'], 'at Vaultwarden\'s own parameters, as the recipe says')
    t.equal(await page.locator('#item-0-hashName').inputValue(), 'ADMIN_TOKEN', 'the hash line named ADMIN_TOKEN, in a control of its own')
    t.equal(await page.getByLabel('Variable name of its hash').getAttribute('id'), 'item-0-hashName', 'labelled')
    const described = await page.locator('#item-0-name').evaluate((input: any) => input.getAttribute('aria-describedby').split(' ').map((id: string) => input.ownerDocument.getElementById(id)?.textContent ?? '').join(' '))
    t.match(described, /ADMIN_TOKEN — .*Vaultwarden reads/, `the row says which line Vaultwarden reads, told to screen readers with its name: ${described}`)
    t.same(await rowNotes(page), notesOf(vaultwardenRecipe, await recipeNames(session, 'vaultwarden')), 'the passphrase\'s note and ADMIN_TOKEN\'s, beside the one row')
    const vaultwarden = await generateSet(session, () => generateButton(page).click())
    t.equal(vaultwarden.status, 200)
    t.same(vaultwarden.body.items, [{ name: 'VAULTWARDEN_ADMIN_PASSWORD', type: 'passphrase', params: { hash: { algorithm: 'argon2id', memoryKiB: 65540, iterations: 3, parallelism: 4 } }, hashName: 'ADMIN_TOKEN' }], 'Vaultwarden\'s parameters and the hashName sent')
    t.same(vaultwarden.body.items, vaultwardenRecipe.items, 'exactly the recipe\'s item')
    t.match(vaultwarden.text, /^VAULTWARDEN_ADMIN_PASSWORD='[a-z]+(-[a-z]+){5}'\nADMIN_TOKEN='\$argon2id\$v=19\$m=65540,t=3,p=4\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}'\n$/)
    t.equal(await envShown(page, vaultwarden.text), vaultwarden.text, 'data-env holds the answer exactly')

    const mosquittoRecipe = await chooseRecipe(session, 'mosquitto')
    t.same(await names(page), ['MQTT_PASSWORD'])
    t.equal(await page.locator('#item-0-type').inputValue(), 'password')
    t.equal(await page.locator('#item-0-param-hash-algorithm').inputValue(), 'mosquitto')
    t.equal(await page.locator('#item-0-hashName').inputValue(), '', 'no hashName: the line is MQTT_PASSWORD_HASH')
    t.same(await rowNotes(page), notesOf(mosquittoRecipe, await recipeNames(session, 'mosquitto')))
    const mosquitto = await generateSet(session, () => generateButton(page).click())
    t.equal(mosquitto.status, 200)
    t.same(mosquitto.body.items, [{ name: 'MQTT_PASSWORD', type: 'password', params: { length: 32, hash: { algorithm: 'mosquitto' } } }])
    t.same(mosquitto.body.items, mosquittoRecipe.items, 'exactly the recipe\'s item')
    t.match(mosquitto.text, /^MQTT_PASSWORD='[^'\n]{32}'\nMQTT_PASSWORD_HASH='\$7\$101\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{86}=='\n$/)
    t.equal(await envShown(page, mosquitto.text), mosquitto.text)

    // A note speaks of the generator its recipe chose: another generator, and it goes
    await chooseRecipe(session, 'vaultwarden')
    t.equal(await page.locator('[data-item="0"]').getAttribute('data-note'), 'VAULTWARDEN_ADMIN_PASSWORD ADMIN_TOKEN', 'the row says which lines its note names')
    await page.locator('#item-0-type').selectOption('uuid')
    t.equal(await page.locator('#item-0-note').count(), 0, 'the note goes with the generator it spoke of')
    t.equal(await page.locator('[data-item="0"]').getAttribute('data-note'), null)
    t.equal(await page.locator('#item-0-name').getAttribute('aria-describedby'), 'item-0-name-hint')
    t.ok(await page.locator('#item-0-hashName').isHidden(), 'a uuid has no hash line: no hashName')
  })
})

t.test('a row with a hash gives its _HASH line; a problem at #/items/0/params/hash/cost lands beside that row\'s cost control', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    session.allowFailedLoad(/status of 400\b/, `${session.origin}/api/generate`)
    await openSet(session)
    // hashName where the row has a hash line: a token always, a password once a hash is chosen; publicKeyName for key pairs only
    const hidden = async (): Promise<string[]> => await page.locator('[data-item] [data-line]').evaluateAll((boxes: any[]) => boxes.filter((box) => !box.hidden).map((box) => box.querySelector('input').id))
    t.same(await hidden(), ['item-2-hashName'], 'at first only the token\'s hashName')
    await page.locator('#item-0-param-hash-algorithm').selectOption('bcrypt')
    t.same(await hidden(), ['item-0-hashName', 'item-2-hashName'], 'a password with a hash: its hashName too')
    await page.locator('#item-1-type').selectOption('age-key')
    t.same(await hidden(), ['item-0-hashName', 'item-1-publicKeyName', 'item-2-hashName'], 'a key pair: its publicKeyName')
    await page.locator('#item-1-type').selectOption('seq')
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

    // CONTRACT §14.2: the hash's line named by hashName; a name the shell reserves refused beside that control
    await page.locator('#item-0-param-hash-cost').fill('4')
    await page.locator('#item-0-hashName').fill('DB_PASSWORD_BCRYPT')
    const named = await generateSet(session, () => generateButton(page).click())
    t.equal(named.status, 200)
    t.same(named.body.items[0], { name: 'DB_PASSWORD', type: 'password', params: { length: 32, symbols: false, hash: { algorithm: 'bcrypt', cost: 4 } }, hashName: 'DB_PASSWORD_BCRYPT' })
    t.match(named.text, /^DB_PASSWORD='[A-Za-z0-9]{32}'\nDB_PASSWORD_BCRYPT='\$2y\$04\$[./A-Za-z0-9]{53}'\n/, 'the hash on the line hashName names')
    await page.locator('#item-0-param-hash-algorithm').selectOption('')
    t.ok(await page.locator('#item-0-hashName').isHidden(), 'no hash: no hashName shown')
    const unhashed = await generateSet(session, () => generateButton(page).click())
    t.same(unhashed.body.items[0], { name: 'DB_PASSWORD', type: 'password', params: { length: 32, symbols: false } }, 'and none sent, though it is still filled')
    await page.locator('#item-2-hashName').fill('PATH')
    const reserved = await generateSet(session, () => generateButton(page).click())
    t.equal(reserved.status, 400)
    t.match(JSON.parse(reserved.text).errors, [{ pointer: '#/items/2/hashName', code: 'NOT_ALLOWED_VALUE' }])
    await page.locator('#item-2-hashName-error').waitFor({ state: 'visible', timeout: 15_000 })
    t.match(await page.locator('#item-2-hashName-error').textContent(), /“Variable name of its hash”/, 'beside the token\'s hashName, named by its label')
  })
})

/** Presses Tab until the focused element's id and text match (at most `most` times). */
async function tabTo (t: Test, page: Page, what: RegExp, most = 120): Promise<boolean> {
  for (let presses = 0; presses < most; presses++) {
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

t.test('as a new user: the keyboard alone picks "Supabase", generates and copies the .env; ANON_KEY and SERVICE_ROLE_KEY verify with JWT_SECRET (jose)', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: CLIPBOARD }, async (session) => {
    const { page, origin } = session
    const recipe = await (await fetch(`${origin}/api/recipes/supabase`)).json() as any
    await openSet(session)
    await page.locator('#recipe option[value=supabase]').waitFor({ state: 'attached', timeout: 15_000 })
    t.ok(await tabTo(t, page, /^recipe /), 'Tab reaches the chooser')
    // A closed native select takes type-ahead: the first option whose words begin so
    await page.keyboard.type('Supabase')
    await rowsNamed(page, recipe.items.map((item: any) => item.name))
    t.equal(await page.locator('#recipe').inputValue(), 'supabase', 'Supabase chosen by typing its name')
    t.same(await names(page), recipe.items.map((item: any) => item.name), `its ${recipe.items.length as number} rows`)
    t.equal(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'recipe', 'the focus stays on the chooser')
    t.same(await rowNotes(page), notesOf(recipe, await recipeNames(session, 'supabase')), 'each row with its note')
    const anon = recipe.items.findIndex((item: any) => item.name === 'ANON_KEY')
    t.equal(await page.locator(`#item-${anon}-type`).inputValue(), 'jwt', 'ANON_KEY: a jwt row')
    t.same(await page.locator(`#item-${anon}-param-signedWith, #item-${anon}-param-algorithm, #item-${anon}-param-claims, #item-${anon}-param-expiresInDays`).evaluateAll((controls: any[]) => controls.map((control) => control.value)),
      ['JWT_SECRET', '', '{"role":"anon","iss":"supabase"}', '1826'], 'signed with JWT_SECRET, the default algorithm, its claims as JSON, 1826 days')
    t.equal(await page.locator(`#item-${anon}-param-algorithm option:checked`).textContent(), 'Default: HS256 with a secret, a signing key’s own')

    t.ok(await tabTo(t, page, /^ Generate$/, 400), 'Tab reaches Generate, past every row')
    const answer = await generateSet(session, () => page.keyboard.press('Enter'))
    t.equal(answer.status, 200)
    t.same(answer.body.items, recipe.items.map(asSent), 'the recipe\'s items, each parameter at its default left out')
    t.same(answer.body.items[anon], recipe.items[anon], 'the jwt item exactly as the recipe has it')
    t.equal(await envShown(page, answer.text), answer.text, 'data-env holds the answer')
    t.ok(await tabTo(t, page, /Copy the \.env file/), 'Tab reaches "Copy the .env file"')
    await page.evaluate(() => (globalThis as any).navigator.clipboard.writeText('nothing copied yet'))
    await page.keyboard.press('Enter')
    const copied = await clipboardAfter(page, 'nothing copied yet')
    t.equal(copied, answer.text, 'copied exactly')

    const env = parseEnv(copied)
    const supabaseNames = await recipeNames(session, 'supabase')
    t.same(copied.split('\n').slice(0, -1).map((line) => line.slice(0, line.indexOf('='))), supabaseNames, 'a line for every name of the recipe, in its order')
    t.same(Object.keys(env).sort(), [...supabaseNames].sort(), 'util.parseEnv reads every one')
    t.match(env.JWT_SECRET, /^[A-Za-z0-9]{40}$/, 'JWT_SECRET: 40 letters and digits')
    const secret = new TextEncoder().encode(env.JWT_SECRET)
    for (const [name, role] of [['ANON_KEY', 'anon'], ['SERVICE_ROLE_KEY', 'service_role']] as const) {
      const { payload, protectedHeader } = await jwtVerify(env[name] as string, secret, { issuer: 'supabase', algorithms: ['HS256'] })
      t.same(protectedHeader, { alg: 'HS256', typ: 'JWT' }, `${name}: an HS256 JWT`)
      t.equal(payload.role, role, `${name}: role ${role}`)
      t.equal((payload.exp as number) - (payload.iat as number), 1826 * 86_400, `${name}: valid for 1826 days`)
      t.ok(Math.abs((payload.iat as number) - Date.now() / 1000) < 600, `${name}: issued now`)
      // the reader can fail: another secret is refused
      await t.rejects(jwtVerify(env[name] as string, new TextEncoder().encode(`${env.JWT_SECRET as string}x`)), joseErrors.JWSSignatureVerificationFailed, `${name}: refused with another secret`)
    }
  })
})

t.test('a jwt row\'s problems beside its controls: claims that are not a JSON object, expiresInDays out of the schema\'s bounds', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    session.allowFailedLoad(/status of 400\b/, `${session.origin}/api/generate`)
    await openSet(session)
    await chooseRecipe(session, 'supabase')
    const { maximum } = openapi.components.schemas.JwtParams.properties.expiresInDays
    t.equal(await page.locator('#item-2-param-expiresInDays').getAttribute('max'), String(maximum), `expiresInDays: at most ${maximum as number}, the schema's bound`)
    await page.locator('#item-2-param-claims').fill('role: anon')
    await page.locator('#item-3-param-expiresInDays').fill(String(maximum + 1))
    const failed = await generateSet(session, () => generateButton(page).click())
    t.equal(failed.status, 400)
    t.equal(failed.body.items[2].params.claims, 'role: anon', 'text that is not JSON is sent as it is, for the API to judge')
    const problem = JSON.parse(failed.text)
    for (const [pointer, id, label] of [['#/items/2/params/claims', 'item-2-param-claims', 'Claims'], ['#/items/3/params/expiresInDays', 'item-3-param-expiresInDays', 'Valid for (days; empty: no expiry)']]) {
      const entry = problem.errors.find((error: any) => error.pointer === pointer)
      t.ok(entry, `the API points at ${pointer}: ${entry?.code as string}`)
      await page.locator(`#${id}-error`).waitFor({ state: 'visible', timeout: 15_000 })
      t.match(await page.locator(`#${id}-error`).textContent(), `“${label}”`, `beside #${id}, named by its label`)
      t.equal(await page.locator(`#${id}`).getAttribute('aria-invalid'), 'true')
    }
    // Emptied: no claims and no exp, a token that never expires
    await page.locator('#item-2-param-claims').fill('')
    await page.locator('#item-3-param-expiresInDays').fill('')
    const ok = await generateSet(session, () => generateButton(page).click())
    t.equal(ok.status, 200)
    t.same(ok.body.items.slice(2, 4).map((item: any) => item.params), [{ signedWith: 'JWT_SECRET', expiresInDays: 1826 }, { signedWith: 'JWT_SECRET', claims: { role: 'service_role', iss: 'supabase' } }], 'what is empty is not sent')
  })
})

t.test('axe-core finds nothing in light and dark; at 360 CSS pixels nothing scrolls sideways', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  for (const colorScheme of ['light', 'dark'] as const) {
    await withSession(t, served, { locale: 'en-US', colorScheme, viewport: { width: 360, height: 740 } }, async (session) => {
      const { page } = session
      const scrollWidth = async (): Promise<number> => await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)
      await openSet(session)
      await page.locator('#recipe optgroup').first().waitFor({ state: 'attached', timeout: 15_000 })
      t.same(await axeViolations(page), [], `${colorScheme}: the set as it opens, the chooser filled`)
      t.ok(await scrollWidth() <= 360, `${colorScheme}: scrollWidth ${await scrollWidth()} ≤ 360`)
      await chooseRecipe(session, 'supabase')
      t.same(await axeViolations(page), [], `${colorScheme}: Supabase's rows, their notes and its jwt rows`)
      t.ok(await scrollWidth() <= 360, `${colorScheme}: with Supabase's rows, scrollWidth ${await scrollWidth()} ≤ 360`)
      const supabase = await generateSet(session, () => generateButton(page).click())
      await envShown(page, supabase.text)
      t.same(await axeViolations(page), [], `${colorScheme}: Supabase's .env shown`)
      t.ok(await scrollWidth() <= 360, `${colorScheme}: with its .env, scrollWidth ${await scrollWidth()} ≤ 360`)
      // The longest names of the catalog (Authelia's, 55 characters) in the notes and the .env
      await chooseRecipe(session, 'authelia')
      t.ok(await scrollWidth() <= 360, `${colorScheme}: with Authelia's names, scrollWidth ${await scrollWidth()} ≤ 360`)
      await chooseRecipe(session, 'reality')
      const answer = await generateSet(session, () => generateButton(page).click())
      await envShown(page, answer.text)
      t.same(await axeViolations(page), [], `${colorScheme}: a .env shown`)
      t.ok(await scrollWidth() <= 360, `${colorScheme}: with the .env, scrollWidth ${await scrollWidth()} ≤ 360`)
      await chooseRecipe(session, 'vaultwarden')
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
