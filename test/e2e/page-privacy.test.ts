// What the page keeps and hands over (CONTRACT §8) in Chromium: nothing stored, nothing in the URL,
// title or history state after every generator ran; values gone on pagehide, on a back/forward
// restore and after navigating away and back; Copy and Copy all put exactly the values on the
// clipboard; each TOTP QR code, screenshotted and decoded by an independent decoder (zbarimg),
// is exactly its URI.
import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { hasTool } from '../tools.js'
import { GENERATORS } from '../helper.js'
import { browserSkip, copied, generate, generateButton, openGenerator, serve, setControl, shownFor, shownOnce, withSession } from './page-browser.js'

const run = promisify(execFile)

/** Everything of the page's state a value could end up in, as text. */
async function keptState (page: Page): Promise<Record<string, unknown>> {
  return await page.evaluate(async () => {
    const w = globalThis as any
    const databases = typeof w.indexedDB.databases === 'function' ? await w.indexedDB.databases() : []
    return {
      localStorage: w.localStorage.length,
      sessionStorage: w.sessionStorage.length,
      indexedDB: databases.map((database: any) => database.name),
      cacheStorage: await w.caches.keys(),
      serviceWorkers: (await w.navigator.serviceWorker.getRegistrations()).length,
      href: w.location.href,
      title: w.document.title,
      historyState: JSON.stringify(w.history.state) ?? 'undefined'
    }
  })
}

async function bodyText (page: Page): Promise<string> {
  return await page.evaluate(() => {
    const document = (globalThis as any).document
    // text, and what form controls hold (a value could hide in an <input>'s value)
    return document.body.innerText + '\n' + Array.from(document.querySelectorAll('input, textarea'), (control: any) => control.value).join('\n')
  })
}

t.test('after every generator ran: no storage, cookie, IndexedDB, URL, title or history state holds a value; values go on pagehide, bfcache restore and back', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, context, origin } = session
    await openGenerator(session, 'password')
    const titleAtLoad = await page.title()
    const secrets: string[] = []
    let last: any
    for (const type of GENERATORS) {
      await page.goto(`${origin}/#${type}`)
      await page.locator('[name=quantity]').waitFor({ state: 'visible' })
      if (type === 'totp') {
        // parameters must not be kept either
        await setControl(page, 'issuer', 'Exämple Co')
        await setControl(page, 'account', 'alice-kept-nowhere@example.com')
        secrets.push('Exämple', 'Ex%C3%A4mple', 'alice-kept-nowhere')
      }
      last = (await generate(session, () => generateButton(page).click())).json
      await shownOnce(page, shownFor(last))
      secrets.push(...last.values, ...(last.publicKeys ?? []), ...(last.hashes ?? []))
    }
    const state = await keptState(page)
    t.same({ ...state, href: undefined, title: undefined, historyState: undefined }, { localStorage: 0, sessionStorage: 0, indexedDB: [], cacheStorage: [], serviceWorkers: 0 }, 'no localStorage, sessionStorage, IndexedDB, Cache Storage or service worker')
    t.same(await context.cookies(), [], 'no cookie')
    t.equal(state.href, `${origin}/#${GENERATORS.at(-1) as string}`, 'the URL holds the generator\'s name and nothing else')
    t.equal(state.title, titleAtLoad, `the title is what it was (${titleAtLoad})`)
    const leaked = (where: string, text: string): string[] => secrets.filter((secret) => secret.length >= 6 && text.includes(secret)).map((secret) => `${where}: ${secret.slice(0, 16)}…`)
    t.same([...leaked('title', String(state.title)), ...leaked('history.state', String(state.historyState)), ...leaked('URL', decodeURIComponent(String(state.href)))], [], 'no value or parameter in the title or the history state')

    const value = last.values[0] as string
    t.ok((await bodyText(page)).includes(value), 'the last value is shown before the page is hidden')
    await page.evaluate(() => (globalThis as any).dispatchEvent(new (globalThis as any).PageTransitionEvent('pagehide', { persisted: true })))
    t.equal(await page.locator('[data-value]').count(), 0, 'pagehide: the values are removed')
    t.equal(await page.locator('[data-public-key], [data-jwk-set]').count(), 0, 'and the public keys and the JWK Set with them')
    t.notOk((await bodyText(page)).includes(value), 'pagehide: no value left anywhere in the page\'s text or fields')

    // `/` is no-store, which keeps Chromium from putting it in the back/forward cache at all; the
    // restore's handler is driven by its event
    const again = (await generate(session, () => generateButton(page).click())).json
    await shownOnce(page, shownFor(again))
    await page.evaluate(() => (globalThis as any).dispatchEvent(new (globalThis as any).PageTransitionEvent('pageshow', { persisted: true })))
    t.equal(await page.locator('[data-value]').count(), 0, 'pageshow from the back/forward cache: the values are removed')
    t.notOk((await bodyText(page)).includes(again.values[0]), 'no value left after the restore')

    const third = (await generate(session, () => generateButton(page).click())).json
    await shownOnce(page, shownFor(third))
    // Chromium asks a JSON document for /favicon.ico, which the API answers 404: that page's line, not ours
    session.allowFailedLoad(/status of 404\b/, `${origin}/favicon.ico`)
    await page.goto(`${origin}/api/health`)
    await page.goBack()
    await page.locator('[name=quantity]').waitFor({ state: 'visible' })
    t.equal(await page.locator('[data-value]').count(), 0, 'away to /api/health and back: no value shown')
    t.notOk((await bodyText(page)).includes(third.values[0]), 'and none anywhere in the page')
  })
})

t.test('Copy value N and Copy all put exactly the values on the clipboard', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] }, async (session) => {
    const { page } = session
    for (const type of ['password', 'ssh-key']) {
      await openGenerator(session, type)
      await setControl(page, 'quantity', 3)
      const json = (await generate(session, () => generateButton(page).click())).json
      t.same(await shownOnce(page, shownFor(json)), shownFor(json), `${type}: 3 values shown`)
      for (const [index, value] of (json.values as string[]).entries()) {
        t.equal(await copied(page, `Copy value ${index + 1}`), value, `${type}: "Copy value ${index + 1}" copies exactly value ${index + 1}`)
      }
      // "one per line" as §1.2's text form has it: each value ends in a line feed (an ssh-key
      // already does, so it gets no second one)
      const lines = (json.values as string[]).map((value) => value.endsWith('\n') ? value : `${value}\n`).join('')
      t.equal(await copied(page, 'Copy all'), lines, `${type}: "Copy all" copies the values, one per line`)
    }
  })
})

t.test('each TOTP QR code, screenshotted and decoded by zbarimg, is exactly its URI (light and dark)', { skip: browserSkip(t) }, async (t) => {
  if (!hasTool(t, 'zbarimg', 'zbar-tools')) return
  const directory = await mkdtemp(join(tmpdir(), 'randgen-qr-'))
  t.teardown(() => rm(directory, { recursive: true, force: true }))
  const served = await serve(t)
  for (const colorScheme of ['light', 'dark'] as const) {
    await withSession(t, served, { locale: 'en-US', colorScheme }, async (session) => {
      const { page } = session
      await openGenerator(session, 'totp')
      await setControl(page, 'issuer', 'Exämple Co')
      await setControl(page, 'account', 'alice@example.com')
      await setControl(page, 'quantity', 2)
      const before = session.requests.length
      const json = (await generate(session, () => generateButton(page).click())).json
      t.same(await shownOnce(page, shownFor(json)), shownFor(json), `${colorScheme}: the URIs are shown`)
      t.match(json.values[0], /^otpauth:\/\/totp\/Ex%C3%A4mple%20Co:alice%40example\.com\?secret=[A-Z2-7]+&issuer=Ex%C3%A4mple%20Co&/, 'issuer and account percent-encoded in the URI')
      const codes = page.locator('[data-qr]')
      await codes.nth(1).waitFor({ state: 'visible' })
      t.equal(await codes.count(), 2, 'a QR code for each URI')
      for (const [index, uri] of (json.values as string[]).entries()) {
        const file = join(directory, `${colorScheme}-${index}.png`)
        await writeFile(file, await codes.nth(index).screenshot())
        const decoded = await run('zbarimg', ['--raw', '-q', file]).then(({ stdout }) => stdout, (error) => `zbarimg found no code (exit ${String(error.code)})`)
        t.equal(decoded.replace(/\n$/, ''), uri, `${colorScheme}: QR code ${index + 1} decodes to exactly URI ${index + 1}`)
      }
      // the encoder may come as a script of the page's own; the picture itself is never fetched
      const fetched = session.requests.slice(before).filter((request) => request.resourceType() !== 'script').map((request) => `${request.method()} ${request.url()}`)
      t.same(fetched, [`POST ${session.origin}/api/generate/totp`], 'drawn by the page: nothing fetched but the one POST (and perhaps a script)')
    })
  }
})
