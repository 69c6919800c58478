// Signing keys on the page (CONTRACT §13, §8) in Chromium, at /#signing-key: the form sends only
// what was changed (`modulusBits` shown and sent for RS256/PS256 alone, the formats offered those
// the algorithm takes); each private key in `data-value` and its public key in `data-public-key`,
// each with its own Copy; PEM keys saved as private.pem and public.pem, byte for byte; the JWK Set
// of the keys shown in `data-jwk-set` with its Copy, the API's JWK Set for those keys; the two
// recipes for an OpenID Connect provider and web push (CONTRACT §14.1); a problem beside its control;
// axe-clean light and dark, nothing scrolling sideways at 360 CSS pixels.
import t from 'tap'
import { createPublicKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Page, Response } from 'playwright-core'
import { thumbprint } from '../../src/keys/jwk.js'
import { axeViolations, browserSkip, chooseRecipe, CLIPBOARD, copied, generate, generateButton, openGenerator, serve, setControl, shownFor, shownOnce, withSession, type Session } from './page-browser.js'

const body = (generated: { request: { postData: () => string | null } }): unknown => JSON.parse(generated.request.postData() ?? 'null')
const options = async (page: Page, name: string): Promise<string[]> => await page.locator(`[name="${name}"] option`).evaluateAll((all: any[]) => all.map((option) => option.value))

/** The JWK Set shown once the answer is drawn ('(none)' when there is none). */
async function jwkSetShown (page: Page): Promise<string> {
  return await page.evaluate(() => (globalThis as any).document.querySelector('[data-jwk-set]')?.textContent ?? '(none)')
}

/** The public JWK the API writes (members compared, not their order) for a key node:crypto reads from `publicKey`: SPKI PEM or a JWK line. */
function publicJwk (publicKey: string, alg: string): Record<string, string> {
  const key = publicKey.startsWith('{') ? createPublicKey({ key: JSON.parse(publicKey), format: 'jwk' }) : createPublicKey(publicKey)
  const { kty, ...members } = key.export({ format: 'jwk' }) as Record<string, string>
  return { kty: kty as string, ...members, alg, use: 'sig', kid: thumbprint(kty as 'OKP' | 'EC' | 'RSA', members) }
}

t.test('the form sends what was changed: {} at the defaults, modulusBits for RSA alone, the formats the algorithm takes', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    await openGenerator(session, 'signing-key')
    t.equal(await page.locator('#generator').inputValue(), 'signing-key', 'the generator chooser says signing-key')
    t.equal(await page.locator('[name=algorithm]').inputValue(), 'EdDSA', 'EdDSA by default')
    t.equal(await page.locator('[name=modulusBits]').isVisible(), false, 'modulusBits hidden for EdDSA')
    t.same(await options(page, 'format'), ['jwk', 'pem', 'synapse'], 'EdDSA: JWK, PEM and Synapse, no VAPID')

    const defaults = await generate(session, () => generateButton(page).click())
    t.same(body(defaults), {}, 'EdDSA, JWK, one key: {}')
    t.equal(defaults.status, 200)
    t.same(await shownOnce(page, shownFor(defaults.json)), shownFor(defaults.json), 'the private JWK in data-value, the public one in data-public-key')

    await setControl(page, 'algorithm', 'RS256')
    t.ok(await page.locator('[name=modulusBits]').isVisible(), 'RS256: modulusBits shown')
    t.equal(await page.locator('[name=modulusBits]').inputValue(), '2048', 'at 2048, what the route takes when it is left out')
    t.same(await options(page, 'modulusBits'), ['2048', '3072', '4096'])
    t.same(await options(page, 'format'), ['jwk', 'pem'], 'RS256: JWK and PEM')
    const rsaDefault = await generate(session, () => generateButton(page).click())
    t.same(body(rsaDefault), { algorithm: 'RS256' }, '2048 is not sent')
    await setControl(page, 'modulusBits', 3072)
    const rsa = await generate(session, () => generateButton(page).click())
    t.same(body(rsa), { algorithm: 'RS256', modulusBits: 3072 }, 'RS256 with 3072 sends modulusBits, as an integer')
    t.equal(rsa.status, 200)
    t.equal(rsa.json.entropyBits, 128, 'a 3072-bit key came back')
    t.same(await shownOnce(page, shownFor(rsa.json)), shownFor(rsa.json), 'the RSA key shown as answered')

    await setControl(page, 'algorithm', 'ES256')
    t.equal(await page.locator('[name=modulusBits]').isVisible(), false, 'ES256: modulusBits hidden')
    t.same(await options(page, 'format'), ['jwk', 'pem', 'vapid'], 'ES256: JWK, PEM and VAPID')
    const ec = await generate(session, () => page.locator('[name=quantity]').press('Enter'))
    t.same(body(ec), { algorithm: 'ES256' }, 'switching to ES256 drops modulusBits')
    t.equal(ec.status, 200)

    await setControl(page, 'format', 'vapid')
    const vapid = await generate(session, () => generateButton(page).click())
    t.same(body(vapid), { algorithm: 'ES256', format: 'vapid' })
    t.match(vapid.json, { values: [/^[A-Za-z0-9_-]{43}$/], publicKeys: [/^B[A-Za-z0-9_-]{86}$/] }, 'a VAPID pair')
    t.same(await shownOnce(page, shownFor(vapid.json)), shownFor(vapid.json))

    // An HMAC key has no PEM or VAPID form: the format falls back to JWK, and nothing else is sent
    await setControl(page, 'algorithm', 'HS256')
    t.same(await options(page, 'format'), ['jwk'], 'HS256: JWK only')
    t.equal(await page.locator('[name=format]').inputValue(), 'jwk', 'VAPID, which HS256 has not, became JWK')
    const hmac = await generate(session, () => generateButton(page).click())
    t.same(body(hmac), { algorithm: 'HS256' })
    t.equal(hmac.json.publicKeys, undefined, 'no public key answered')
    t.same(await shownOnce(page, shownFor(hmac.json)), shownFor(hmac.json), 'the secret JWK alone')
    t.equal(await jwkSetShown(page), '(none)', 'no JWK Set for a shared secret')
    t.equal(await page.getByRole('button', { name: /^Save / }).count(), 0, 'nothing to save as a file')

    // PEM, kept when the next algorithm takes it too
    await setControl(page, 'algorithm', 'PS256')
    await setControl(page, 'format', 'pem')
    await setControl(page, 'algorithm', 'EdDSA')
    t.equal(await page.locator('[name=format]').inputValue(), 'pem', 'PEM stays chosen from PS256 to EdDSA')
    const pem = await generate(session, () => generateButton(page).click())
    t.same(body(pem), { format: 'pem' })
    t.match(pem.json.values[0], /^-----BEGIN PRIVATE KEY-----\n/)

    // The page's language changes: what the controls hold stays, the formats still limited
    await setControl(page, 'algorithm', 'RS256')
    await setControl(page, 'modulusBits', 4096)
    await page.locator('#page-language').selectOption('de')
    await page.getByRole('button', { name: 'Erzeugen', exact: true }).waitFor()
    t.equal(await page.locator('[name=algorithm]').inputValue(), 'RS256')
    t.equal(await page.locator('[name=modulusBits]').inputValue(), '4096')
    t.ok(await page.locator('[name=modulusBits]').isVisible(), 'modulusBits still shown')
    t.equal(await page.locator('[name=format]').inputValue(), 'pem')
    t.same(await options(page, 'format'), ['jwk', 'pem'])
    t.equal(await page.locator('label[for=param-modulusBits]').textContent(), 'RSA-Schlüssellänge (Bit)', 'labelled in German')
    t.equal(await page.locator('[name=algorithm] option[value=HS256]').textContent(), 'HS256 (HMAC, gemeinsames Geheimnis)', 'the choices in German words')
  })
})

t.test('each key and its public key with its own Copy; the JWK Set of the keys shown, with Copy', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: CLIPBOARD }, async (session) => {
    const { page } = session
    await openGenerator(session, 'signing-key')
    await setControl(page, 'quantity', 2)
    const { json } = await generate(session, () => generateButton(page).click())
    t.same(await shownOnce(page, shownFor(json)), shownFor(json), 'two private JWKs in data-value, their public JWKs in data-public-key')
    for (const index of [0, 1]) {
      t.equal(await copied(page, `Copy value ${index + 1}`), json.values[index], `"Copy value ${index + 1}" copies exactly private key ${index + 1}`)
      t.equal(await copied(page, `Copy public key ${index + 1}`), json.publicKeys[index], `"Copy public key ${index + 1}" copies exactly public key ${index + 1}`)
    }
    const set = await jwkSetShown(page)
    t.same(JSON.parse(set), { keys: json.publicKeys.map((key: string) => JSON.parse(key)) }, 'the JWK Set shown is {"keys": [the public keys]}')
    t.equal(set, `{"keys":[${json.publicKeys.join(',')}]}`, 'written as the API writes it, each JWK as it came')
    t.equal(await copied(page, 'Copy the JWK Set'), set, '"Copy the JWK Set" copies exactly the JWK Set')
    t.equal(await page.locator('[data-jwk-set]').evaluate((element: any) => [element.translate, element.spellcheck]).then(String), 'false,false', 'translate="no", spellcheck="false"')

    // What the API answers to Accept: application/jwk-set+json (for other keys: it makes new ones) has the same shape
    const asked = await fetch(`${session.origin}/api/generate/signing-key`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/jwk-set+json' }, body: JSON.stringify({ quantity: 2 }) })
    const apiSet: any = await asked.json()
    t.same(Object.keys(JSON.parse(set)), Object.keys(apiSet), 'the API\'s JWK Set: {"keys": ...}')
    t.same(JSON.parse(set).keys.map(Object.keys), apiSet.keys.map(Object.keys), 'each key with the API\'s members, in its order')
  })
})

t.test('PEM: saved as private.pem and public.pem byte for byte; the JWK Set read from the PEMs', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: CLIPBOARD }, async (session) => {
    const { page } = session
    await openGenerator(session, 'signing-key')
    await setControl(page, 'algorithm', 'ES256')
    await setControl(page, 'format', 'pem')
    await setControl(page, 'quantity', 2)
    const { json } = await generate(session, () => generateButton(page).click())
    t.same(await shownOnce(page, shownFor(json)), shownFor(json), 'each PEM shown as answered, line breaks kept')
    const whiteSpace = await page.locator('[data-value]').first().evaluate((element: any) => element.ownerDocument.defaultView.getComputedStyle(element).whiteSpace)
    t.match(whiteSpace, /^(pre|pre-wrap|break-spaces)$/, `the PEM's lines are shown (white-space: ${whiteSpace})`)
    t.equal(await copied(page, 'Copy value 2'), json.values[1], 'Copy copies the PEM exactly, its final line feed included')
    t.equal(await copied(page, 'Copy public key 1'), json.publicKeys[0])
    for (const [index, n] of [[0, 1], [1, 2]] as const) {
      for (const [name, content] of [['private.pem', json.values[index]], ['public.pem', json.publicKeys[index]]] as const) {
        const download = page.waitForEvent('download')
        await page.getByRole('button', { name: `Save ${name} (key ${n})`, exact: true }).click()
        const file = await download
        t.equal(file.suggestedFilename(), name, `key ${n}: saved as ${name}`)
        t.equal(readFileSync(await file.path(), 'utf8'), content, `key ${n}: ${name} holds exactly the ${name === 'public.pem' ? 'public' : 'private'} key`)
      }
    }
    t.equal(await page.getByRole('button', { name: 'Save private.pem (key 1)', exact: true }).textContent(), 'Save private.pem', 'the button says the file; its name says which key')
    t.same(JSON.parse(await jwkSetShown(page)), { keys: json.publicKeys.map((pem: string) => publicJwk(pem, 'ES256')) }, 'the JWK Set: each PEM\'s key as node:crypto reads it, alg, use, kid (RFC 7638)')
    t.equal(await copied(page, 'Copy the JWK Set'), await jwkSetShown(page))

    // One key: the buttons' names are their words; RSA keys say which JWS algorithm they are for
    await setControl(page, 'algorithm', 'PS256')
    await setControl(page, 'quantity', 1)
    const rsa = (await generate(session, () => generateButton(page).click())).json
    await shownOnce(page, shownFor(rsa))
    for (const [name, content] of [['private.pem', rsa.values[0]], ['public.pem', rsa.publicKeys[0]]] as const) {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Save ${name}`, exact: true }).click()])
      t.equal(file.suggestedFilename(), name)
      t.equal(readFileSync(await file.path(), 'utf8'), content, `PS256: ${name} exactly`)
    }
    t.same(JSON.parse(await jwkSetShown(page)), { keys: [publicJwk(rsa.publicKeys[0], 'PS256')] }, 'PS256: n and e of the PEM, alg PS256')
  })
})

t.test('VAPID: the JWK Set of the P-256 points shown', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    await openGenerator(session, 'signing-key')
    await setControl(page, 'algorithm', 'ES256')
    await setControl(page, 'format', 'vapid')
    await setControl(page, 'quantity', 3)
    const { json } = await generate(session, () => generateButton(page).click())
    t.same(await shownOnce(page, shownFor(json)), shownFor(json))
    const keys = json.publicKeys.map((point: string) => {
      const bytes = Buffer.from(point, 'base64url')
      return publicJwk(JSON.stringify({ kty: 'EC', crv: 'P-256', x: bytes.subarray(1, 33).toString('base64url'), y: bytes.subarray(33).toString('base64url') }), 'ES256')
    })
    t.same(JSON.parse(await jwkSetShown(page)), { keys }, 'each point as an ES256 JWK, kid its thumbprint')
    t.equal(await page.getByRole('button', { name: /^Save / }).count(), 0, 'one-line keys: nothing to save as a file')
  })
})

t.test('Synapse (CONTRACT §14.2): the key line and its verify key shown, each with Copy; the JWK Set of the Ed25519 keys', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: CLIPBOARD }, async (session) => {
    const { page } = session
    await openGenerator(session, 'signing-key')
    await setControl(page, 'format', 'synapse')
    await setControl(page, 'quantity', 2)
    const generated = await generate(session, () => generateButton(page).click())
    t.same(body(generated), { format: 'synapse', quantity: 2 }, 'EdDSA left out, as its default')
    const { json } = generated
    t.match(json, { values: [/^ed25519 a_[A-Za-z0-9]{4} [A-Za-z0-9+/]{43}$/, /^ed25519 a_/], publicKeys: [/^ed25519:a_[A-Za-z0-9]{4} [A-Za-z0-9+/]{43}$/, /^ed25519:a_/] })
    t.same(await shownOnce(page, shownFor(json)), shownFor(json), 'each key line in data-value, its verify key in data-public-key')
    t.equal(await copied(page, 'Copy value 1'), json.values[0], 'Copy copies the key line exactly')
    t.equal(await copied(page, 'Copy public key 2'), json.publicKeys[1])
    // The verify key's 32 bytes as OpenSSL reads them from an SPKI (RFC 8410), not as the page does
    const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')
    const keys = json.publicKeys.map((publicKey: string) => {
      const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKey.split(' ')[1] as string, 'base64')]), format: 'der', type: 'spki' })
      return publicJwk(key.export({ type: 'spki', format: 'pem' }) as string, 'EdDSA')
    })
    t.same(JSON.parse(await jwkSetShown(page)), { keys }, 'each verify key as an EdDSA JWK, kid its thumbprint')
    t.equal(await page.getByRole('button', { name: /^Save / }).count(), 0, 'one-line keys: nothing to save as a file')
    // Another algorithm has no Synapse form: the format falls back to JWK
    await setControl(page, 'algorithm', 'ES256')
    t.equal(await page.locator('[name=format]').inputValue(), 'jwk', 'Synapse, which ES256 has not, became JWK')
  })
})

t.test('a problem beside the control its pointer names: RSA keys over 5', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    session.allowFailedLoad(/status of 400\b/)
    await openGenerator(session, 'signing-key')
    await setControl(page, 'algorithm', 'RS256')
    await setControl(page, 'quantity', 6)
    const failed = await generate(session, () => generateButton(page).click())
    t.equal(failed.status, 400)
    t.match(failed.json.errors, [{ pointer: '#/quantity', code: 'TOO_MANY_VALUES' }])
    await page.locator('#param-quantity-error').waitFor({ state: 'visible', timeout: 15_000 })
    t.match(await page.locator('#param-quantity-error').textContent(), /“How many”/, 'beside quantity, named by its label')
    t.equal(await page.locator('[data-value]').count(), 0, 'no values')
  })
})

/** Does `act`, then returns the set request's answer: its status, body text and the request's body. */
async function generateSet (session: Session, act: () => Promise<void>): Promise<{ response: Response, status: number, text: string, body: any }> {
  const { page, origin } = session
  const answered = page.waitForResponse((response) => response.url() === `${origin}/api/generate`)
  await act()
  const response = await answered
  return { response, status: response.status(), text: await response.text(), body: JSON.parse(response.request().postData() ?? 'null') }
}

async function envShown (page: Page, want: string): Promise<string> {
  await page.waitForFunction((want) => (globalThis as any).document.querySelector('[data-env]')?.textContent === want, want, { timeout: 15_000 }).catch(() => {})
  return await page.evaluate(() => (globalThis as any).document.querySelector('[data-env]')?.textContent ?? '(none)')
}

t.test('recipes: an OpenID Connect provider (a JWK and an HMAC secret) and web push (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY)', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, origin } = session
    await page.goto(`${origin}/#set`)
    await page.locator('#item-0-name').waitFor({ state: 'visible' })

    const oidcRecipe = await chooseRecipe(session, 'oidc')
    t.equal(await page.locator('#item-0-type').inputValue(), 'signing-key')
    t.equal(await page.locator('#item-0-param-algorithm').inputValue(), 'RS256')
    t.same(await page.locator('#item-0-param-format option').evaluateAll((all: any[]) => all.map((option) => option.value)), ['jwk', 'pem'], 'the row offers RS256\'s formats')
    t.match(await page.locator('#item-0-note').textContent(), /Authelia/, 'the row says where the key goes')
    const oidc = await generateSet(session, () => generateButton(page).click())
    t.equal(oidc.status, 200)
    t.same(oidc.body.items, [
      { name: 'OIDC_PRIVATE_KEY', type: 'signing-key', params: { algorithm: 'RS256' } },
      { name: 'OIDC_HMAC_SECRET', type: 'password', params: { length: 64, symbols: false } }
    ], 'an RS256 JWK and a 64-character HMAC secret')
    t.same(oidc.body.items, oidcRecipe.items, 'exactly the recipe\'s items')
    const lines = /^OIDC_PRIVATE_KEY='(\{[^'\n]+\})'\nOIDC_PUBLIC_KEY='(\{[^'\n]+\})'\nOIDC_HMAC_SECRET='[A-Za-z0-9]{64}'\n$/.exec(oidc.text)
    t.ok(lines, `OIDC_PRIVATE_KEY, OIDC_PUBLIC_KEY (CONTRACT §10's rule), OIDC_HMAC_SECRET:\n${oidc.text.replace(/'[^']{24}[^']*'/g, '\'…\'')}`)
    if (lines !== null) {
      const [privateJwk, publicJwkLine] = [JSON.parse(lines[1] as string), JSON.parse(lines[2] as string)]
      t.match(privateJwk, { kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB', d: /./ }, 'a private RSA JWK for RS256')
      t.same(publicJwkLine, publicJwk(lines[1] as string, 'RS256'), 'and its public JWK, the private key\'s own')
      t.equal(publicJwkLine.kid, privateJwk.kid)
    }
    t.equal(await envShown(page, oidc.text), oidc.text, 'data-env holds the answer exactly')

    const vapidRecipe = await chooseRecipe(session, 'vapid')
    t.equal(await page.locator('#item-0-name').inputValue(), 'VAPID_PRIVATE_KEY')
    t.match(await page.locator('#item-0-note').textContent(), /VAPID_PUBLIC_KEY — /, 'the row says where the derived public key goes')
    t.equal(await page.locator('#item-0-param-format').inputValue(), 'vapid')
    const vapid = await generateSet(session, () => generateButton(page).click())
    t.same(vapid.body.items, [{ name: 'VAPID_PRIVATE_KEY', type: 'signing-key', params: { algorithm: 'ES256', format: 'vapid' } }])
    t.same(vapid.body.items, vapidRecipe.items, 'exactly the recipe\'s item')
    t.match(vapid.text, /^VAPID_PRIVATE_KEY='[A-Za-z0-9_-]{43}'\nVAPID_PUBLIC_KEY='B[A-Za-z0-9_-]{86}'\n$/, 'VAPID_PRIVATE_KEY= and VAPID_PUBLIC_KEY= lines, as Mastodon reads them')
    t.equal(await envShown(page, vapid.text), vapid.text)

    // The .env form refuses a PEM (CONTRACT §13): the problem beside the row's format
    session.allowFailedLoad(/status of 400\b/, `${origin}/api/generate`)
    await page.locator('#item-0-param-format').selectOption('pem')
    const refused = await generateSet(session, () => generateButton(page).click())
    t.equal(refused.status, 400)
    t.match(JSON.parse(refused.text).errors, [{ pointer: '#/items/0/params/format', code: 'NOT_REPRESENTABLE' }])
    await page.locator('#item-0-param-format-error').waitFor({ state: 'visible', timeout: 15_000 })
    t.pass('shown beside the row\'s format')
  })
})

t.test('axe-core finds nothing on /#signing-key with keys, files and the JWK Set shown, light and dark; at 360 CSS pixels nothing scrolls sideways', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  for (const colorScheme of ['light', 'dark'] as const) {
    await withSession(t, served, { locale: 'en-US', colorScheme, viewport: { width: 360, height: 740 } }, async (session) => {
      const { page } = session
      const scrollWidth = async (): Promise<number> => await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)
      await openGenerator(session, 'signing-key')
      await setControl(page, 'algorithm', 'RS256')
      t.same(await axeViolations(page), [], `${colorScheme}: the form, modulusBits shown`)
      for (const format of ['jwk', 'pem']) {
        await setControl(page, 'format', format)
        const { json } = await generate(session, () => generateButton(page).click())
        await shownOnce(page, shownFor(json))
        await page.locator('[data-jwk-set]').waitFor()
        t.same(await axeViolations(page), [], `${colorScheme}: RS256 ${format} keys and the JWK Set`)
        t.ok(await scrollWidth() <= 360, `${colorScheme}: RS256 ${format}, scrollWidth ${await scrollWidth()} ≤ 360`)
      }
      await page.locator('#page-language').selectOption('ru')
      await page.locator('[data-jwk-set]').waitFor()
      t.ok(await scrollWidth() <= 360, `${colorScheme}: in Russian, scrollWidth ${await scrollWidth()} ≤ 360`)
    })
  }
})
