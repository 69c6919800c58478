// The page (CONTRACT §8) in Chromium, generator by generator: each of the 14 from its `/#<type>`,
// at its defaults and with one parameter changed through its control, shows exactly what the API
// answered to the request it sent (captured from the network), and that request is the §8 one:
// POST, JSON body holding only the parameters set, no query, the page's language. Then every
// control against openapi.json, so a parameter the page forgets fails here.
import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { browserSkip, generate, generateButton, leadingLanguage, openGenerator, pageLanguage, serve, setControl, shownFor, shownOnce, withSession, type Session } from './page-browser.js'
import { DEFAULT_MODULUS_BITS } from '../../schemas/signing-key.js'
import { PADDING_WHEN_LEFT_OUT } from '../../schemas/seq.js'
import { GENERATORS, type Generator } from '../helper.js'

const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'))

/** One non-default parameter per generator, as set through its control, and what the body must then hold. */
const CHANGED: Record<Generator, { control: string, value: unknown, body: Record<string, unknown> }> = {
  password: { control: 'length', value: 32, body: { length: 32 } },
  passphrase: { control: 'wordList', value: 'bip39-spanish', body: { wordList: 'bip39-spanish' } },
  // one text control, items separated by commas or white space (§8)
  number: { control: 'exclusions', value: '5, 7 9', body: { exclusions: ['5', '7', '9'] } },
  // a key pair with the longest public key (2,603 characters); `length` (shadowsocks only) not sent
  vpn: { control: 'protocol', value: 'mldsa65', body: { protocol: 'mldsa65' } },
  uuid: { control: 'format', value: 'v7', body: { format: 'v7' } },
  phrase: { control: 'words', value: 24, body: { words: 24 } },
  seq: { control: 'encoding', value: 'base64', body: { encoding: 'base64' } },
  'short-id': { control: 'length', value: 16, body: { length: 16 } },
  pin: { control: 'avoidWeak', value: false, body: { avoidWeak: false } },
  'ssh-key': { control: 'comment', value: 'deploy@ci', body: { comment: 'deploy@ci' } },
  'age-key': { control: 'quantity', value: 3, body: { quantity: 3 } },
  token: { control: 'prefix', value: 'myapp', body: { prefix: 'myapp' } },
  totp: { control: 'digits', value: 8, body: { digits: 8 } },
  'signing-key': { control: 'algorithm', value: 'ES256', body: { algorithm: 'ES256' } }
}

/** `exclusions` may go as strings or JSON integers (§2); compared as the strings they stand for. */
function normalised (body: any): unknown {
  return Array.isArray(body?.exclusions) ? { ...body, exclusions: body.exclusions.map(String) } : body
}

/** The schema components of openapi.json are named after the type: `short-id` → ShortIdParams. */
function paramsSchema (type: string): any {
  const name = type.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('') + 'Params'
  return openapi.components.schemas[name]
}

async function checkGeneration (t: Test, session: Session, type: string, body: Record<string, unknown>): Promise<void> {
  const { page, origin } = session
  const before = session.apiRequests.length
  const generated = await generate(session, () => generateButton(page).click())
  const { request, json } = generated
  t.equal(generated.status, 200, `${type} ${JSON.stringify(body)}: the API answers 200`)
  t.equal(request.method(), 'POST', 'POST')
  t.equal(request.url(), `${origin}/api/generate/${type}`, 'to the same origin, no query string')
  t.match(generated.requestHeaders['content-type'], /^application\/json\b/, 'Content-Type: application/json')
  t.same(normalised(JSON.parse(request.postData() ?? 'null')), body, `body ${JSON.stringify(body)}: what was set, defaults left out`)
  const lang = await pageLanguage(page)
  t.equal(lang, 'en', '<html lang="en"> for an en-US browser')
  t.equal(leadingLanguage(generated.requestHeaders['accept-language']), lang, `Accept-Language (${generated.requestHeaders['accept-language']}) leads with the page's language`)
  t.equal(json.type, type)
  t.same(await shownOnce(page, shownFor(json)), shownFor(json), `${type}: data-value / data-public-key / data-hash / data-entropy-bits are exactly what the API answered`)
  t.equal(session.apiRequests.length, before + 1, 'one request per Generate')
  // §8: what holds a value is kept from autofill, spell checkers and page translators
  const careless = await page.locator('[data-value], [data-public-key], [data-hash]').evaluateAll((elements: any[]) => elements
    .filter((element) => element.translate !== false || element.spellcheck !== false || ('autocomplete' in element && element.autocomplete !== 'off'))
    .map((element) => element.outerHTML.slice(0, 80)))
  t.same(careless, [], 'every element holding a value: translate="no", spellcheck="false" (autocomplete="off" on a form control)')
  if (type === 'ssh-key') {
    const whiteSpace = await page.locator('[data-value]').first().evaluate((element: any) => element.ownerDocument.defaultView.getComputedStyle(element).whiteSpace)
    t.match(whiteSpace, /^(pre|pre-wrap|pre-line|break-spaces)$/, `ssh-key: the private key's line breaks are shown (white-space: ${whiteSpace})`)
  }
}

t.test('every generator at its defaults and with one parameter changed shows exactly what the API answered', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    for (const type of GENERATORS) {
      await openGenerator(session, type)
      await checkGeneration(t, session, type, {})
      const changed = CHANGED[type]
      await setControl(session.page, changed.control, changed.value)
      await checkGeneration(t, session, type, changed.body)

      if (type === 'ssh-key') {
        // multi-line values keep their line breaks (checked above); the files as §8 names them
        const json = (await generate(session, () => generateButton(session.page).click())).json
        await shownOnce(session.page, shownFor(json))
        for (const [name, content] of [['id_ed25519', json.values[0]], ['id_ed25519.pub', json.publicKeys[0]]]) {
          const download = session.page.waitForEvent('download')
          const named = new RegExp(`${name.replace('.', '\\.')}(?!\\.pub)`)
          await session.page.locator(`[download="${name}"]`).or(session.page.getByRole('button', { name: named })).first().click()
          const file = await download
          t.equal(file.suggestedFilename(), name, `ssh-key: saved as ${name}`)
          const saved = readFileSync(await file.path(), 'utf8')
          t.equal(saved.replace(/\n$/, ''), content.replace(/\n$/, ''), `${name} holds exactly the ${name.endsWith('.pub') ? 'public' : 'private'} key`)
        }
      }
    }
  })
})

/** A schema of openapi.json, its `$ref` (if any) followed. */
function resolved (schema: any): any {
  return typeof schema?.$ref === 'string' ? openapi.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema
}

/**
 * An object parameter chosen by a discriminator (`hash`, CONTRACT §12): a chooser named
 * `<name>.<property>` offering "none" (absent, the default) and every choice; choosing one shows
 * that choice's fields, `<name>.<field>`, each with its schema's bounds and default.
 */
async function checkChoiceByDiscriminator (t: Test, page: Page, what: string, name: string, schema: any): Promise<void> {
  const property: string = schema.discriminator.propertyName
  const chooserName = `${name}.${property}`
  const chooser = page.locator(`[name="${chooserName}"]`)
  t.equal(await chooser.count(), 1, `${what}: one chooser named ${chooserName}`)
  if (await chooser.count() !== 1) return
  const branches: any[] = schema.oneOf.map(resolved)
  const choiceOf = (branch: any) => branch.properties[property].const ?? branch.properties[property].enum?.[0]
  const seen = await chooser.evaluate((element: any) => ({ tag: element.tagName.toLowerCase(), value: element.value, options: Array.from(element.options, (option: any) => option.value), labelled: (element.labels?.length ?? 0) > 0 }))
  t.match(seen, { tag: 'select', value: '', labelled: true }, `${what}: a labelled choice, none by default`)
  t.same(seen.options, ['', ...branches.map(choiceOf)], `${what}: "none" and the document's choices`)
  for (const branch of branches) {
    await chooser.selectOption(choiceOf(branch))
    for (const [field, fieldSchema] of Object.entries<any>(branch.properties)) {
      if (field === property) continue
      const control = page.locator(`[name="${name}.${field}"]`)
      t.equal(await control.count(), 1, `${what} ${choiceOf(branch)}: one control named ${name}.${field}`)
      if (await control.count() !== 1) continue
      const state = await control.evaluate((element: any) => ({ type: element.type, min: element.getAttribute('min'), max: element.getAttribute('max'), value: element.value, labelled: (element.labels?.length ?? 0) > 0 }))
      t.equal(fieldSchema.type, 'integer', `${what}.${field}: an integer in the document (teach this test any other kind)`)
      t.same(state, { type: 'number', min: String(fieldSchema.minimum), max: String(fieldSchema.maximum), value: String(fieldSchema.default), labelled: true }, `${what} ${choiceOf(branch)}.${field}: ${fieldSchema.minimum}..${fieldSchema.maximum}, default ${fieldSchema.default}, labelled`)
    }
  }
  await chooser.selectOption('')
}

/** Parameters shown only once another is set (§8 and issue 25): control → [what enables it, value]. */
const ENABLED_BY: Record<string, Record<string, [string, unknown]>> = {
  uuid: { length: ['format', 'alphanumeric'] },
  // CONTRACT §13: RSA's alone
  'signing-key': { modulusBits: ['algorithm', 'RS256'] },
  // CONTRACT §14.2: hex has no padding
  seq: { padding: ['encoding', 'base64'] }
}

/** Choices whose options depend on another control: [the control, values with which every option is offered between them]. */
const ALL_CHOICES_WITH: Record<string, Record<string, [string, readonly unknown[]]>> = {
  // CONTRACT §13: vapid only for ES256, pem not for HMAC keys; §14.2: synapse only for EdDSA
  'signing-key': { format: ['algorithm', ['ES256', 'EdDSA']] }
}

/** Optional parameters without a schema default: shown at the value their route takes when left out (padding: with ENABLED_BY's base64). */
const LEFT_OUT: Record<string, Record<string, unknown>> = { 'signing-key': { modulusBits: DEFAULT_MODULUS_BITS }, seq: { padding: PADDING_WHEN_LEFT_OUT.base64 } }

t.test('every parameter of openapi.json has its control, with the same bounds, choices and default', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    for (const type of GENERATORS) {
      const schema = paramsSchema(type)
      t.ok(schema, `openapi.json has the parameters of ${type}`)
      await openGenerator(session, type)
      for (const [name, property] of Object.entries<any>(schema.properties)) {
        if (resolved(property).discriminator !== undefined) {
          await checkChoiceByDiscriminator(t, page, `${type}.${name}`, name, resolved(property))
          continue
        }
        const control = page.locator(`[name="${name}"]`)
        const enabler = ENABLED_BY[type]?.[name]
        if (enabler !== undefined) {
          t.equal(await control.isVisible(), false, `${type}.${name} is hidden until ${enabler[0]} is ${String(enabler[1])}`)
          await setControl(page, enabler[0], enabler[1])
        }
        const offering = ALL_CHOICES_WITH[type]?.[name]
        // Every option offered with some value of the other control; the state checked below is the last value's
        const offered = new Set<string>()
        for (const value of offering?.[1] ?? []) {
          await setControl(page, offering?.[0] as string, value)
          for (const option of await control.locator('option').evaluateAll((all: any[]) => all.map((element) => element.value as string))) offered.add(option)
        }
        t.equal(await control.count(), 1, `${type}: one control named ${name}`)
        if (await control.count() !== 1) continue
        t.ok(await control.isVisible(), `${type}.${name} is shown`)
        const seen = await control.evaluate((element: any) => ({
          tag: element.tagName.toLowerCase(),
          type: element.type,
          value: element.value,
          checked: element.checked,
          min: element.getAttribute('min'),
          max: element.getAttribute('max'),
          minLength: element.minLength,
          maxLength: element.maxLength,
          maxCodePoints: element.getAttribute('data-max-code-points'),
          options: element.tagName === 'SELECT' ? Array.from(element.options, (option: any) => option.value) : null,
          labelled: (element.labels?.length ?? 0) > 0 || element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby')
        }))
        const what = `${type}.${name}`
        t.ok(seen.labelled, `${what} has a label`)
        if (Array.isArray(property.enum)) {
          t.equal(seen.tag, 'select', `${what}: a choice`)
          t.same(offering === undefined ? seen.options : property.enum.map(String).filter((choice: string) => offered.has(choice)), property.enum.map(String), `${what}: the same choices${offering === undefined ? '' : ` between ${offering[0]} ${offering[1].join(' and ')}`}`)
          if (offering !== undefined) t.same([...offered].filter((choice) => !property.enum.map(String).includes(choice)), [], `${what}: no other choice`)
          const shownDefault = property.default ?? LEFT_OUT[type]?.[name]
          t.equal(seen.value, String(shownDefault), `${what}: default ${shownDefault}${property.default === undefined ? ' (taken when left out)' : ''}`)
        } else if (property.type === 'boolean') {
          t.equal(seen.type, 'checkbox', `${what}: a checkbox`)
          const shownDefault = property.default ?? LEFT_OUT[type]?.[name]
          t.equal(seen.checked, shownDefault, `${what}: default ${shownDefault}${property.default === undefined ? ' (taken when left out)' : ''}`)
        } else if (property.type === 'integer') {
          t.equal(seen.type, 'number', `${what}: a number field`)
          t.equal(Number(seen.min), property.minimum, `${what}: min ${property.minimum}`)
          t.equal(Number(seen.max), property.maximum, `${what}: max ${property.maximum}`)
          t.equal(seen.value, String(property.default), `${what}: default ${property.default}`)
        } else if (property.type === 'string') {
          // The schema counts code points, maxlength UTF-16 units: the page cuts at the code points
          // (test/e2e/page-words.test.ts types emoji), the attribute allows what they can take
          t.equal(Number(seen.maxCodePoints), property.maxLength, `${what}: at most ${property.maxLength} characters (code points)`)
          t.equal(seen.maxLength, 2 * property.maxLength, `${what}: maxlength ${2 * property.maxLength} UTF-16 units`)
          t.equal(Math.max(seen.minLength, 0), property.minLength ?? 0, `${what}: minLength ${property.minLength ?? 0}`)
          t.equal(seen.value, property.default, `${what}: default ${JSON.stringify(property.default)}`)
        } else if (property.type === 'array') {
          t.ok(seen.tag === 'textarea' || seen.type === 'text', `${what}: one text control`)
          t.equal(seen.value, property.default.join(' '), `${what}: default empty`)
        } else {
          t.fail(`${what}: a parameter of a kind this test does not know (${String(property.type)}); teach it`)
        }
      }
    }

    // Shown only when they apply: password minimums for enabled sets, vpn length for shadowsocks
    await openGenerator(session, 'password')
    await setControl(page, 'symbols', false)
    t.equal(await page.locator('[name=minSymbols]').isVisible(), false, 'password.minSymbols hidden while symbols is off')
    await openGenerator(session, 'vpn')
    await setControl(page, 'protocol', 'wireguard')
    t.equal(await page.locator('[name=length]').isVisible(), false, 'vpn.length hidden for wireguard')
  })
})

t.test('/ opens password, /#<type> opens that generator, choosing one on the page replaces the fragment', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page, origin } = session
    await page.goto(`${origin}/`)
    await page.locator('[name=quantity]').waitFor({ state: 'visible' })
    t.equal(await page.locator('[name=symbolSet]').count(), 1, 'no fragment: the password generator')
    // the chooser is the select offering every generator (whatever its own name)
    const chooser = page.locator('select:has(option[value="short-id"]):has(option[value="age-key"])')
    t.equal(await chooser.count(), 1, 'one generator chooser')
    const entries = await page.evaluate(() => (globalThis as any).history.length)
    await chooser.selectOption('totp')
    await page.waitForURL(`${origin}/#totp`)
    await page.locator('[name=issuer]').waitFor({ state: 'visible' })
    t.equal(await page.locator('[name=symbolSet]').count(), 0, 'totp chosen: its controls, and only its')
    t.equal(await page.evaluate(() => (globalThis as any).history.length), entries, 'the history entry is replaced, not added')
    const { json } = await generate(session, () => generateButton(page).click())
    t.equal(json.type, 'totp', 'Generate asks the chosen generator')
    // a fragment changed from outside (a link, the address bar) opens that generator too
    await page.evaluate(() => { (globalThis as any).location.hash = 'uuid' })
    await page.locator('[name=format]').waitFor({ state: 'visible' })
    t.equal(await chooser.inputValue(), 'uuid', 'the chooser follows the fragment')
  })
})

t.test('seq (CONTRACT §14.2): padding shown where it applies, following the encoding\'s default, sent only when changed; a prefix sent as typed', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    const padding = page.locator('[name=padding]')
    const sent = async (): Promise<{ body: unknown, value: string }> => {
      const { request, json } = await generate(session, () => generateButton(page).click())
      return { body: JSON.parse(request.postData() ?? 'null'), value: json.values[0] }
    }
    await openGenerator(session, 'seq')
    t.equal(await padding.isVisible(), false, 'hex: no padding to choose')
    await setControl(page, 'encoding', 'base64url')
    t.same([await padding.isVisible(), await padding.isChecked()], [true, false], 'base64url: shown, unpadded as the route takes it')
    t.match(await sent(), { body: { encoding: 'base64url' }, value: /^[A-Za-z0-9_-]{43}$/ }, 'padding at its default is not sent')
    await setControl(page, 'padding', true)
    t.match(await sent(), { body: { encoding: 'base64url', padding: true }, value: /^[A-Za-z0-9_-]{43}=$/ }, 'a Fernet key\'s form: padding sent')
    await setControl(page, 'encoding', 'base64')
    t.equal(await padding.isChecked(), true, 'base64: ticked, its default')
    t.match(await sent(), { body: { encoding: 'base64' }, value: /^[A-Za-z0-9+/]{43}=$/ })
    await setControl(page, 'padding', false)
    await setControl(page, 'prefix', 'base64:')
    t.match(await sent(), { body: { encoding: 'base64', padding: false, prefix: 'base64:' }, value: /^base64:[A-Za-z0-9+/]{43}$/ })
    // The page's language changes: what the controls hold stays
    await page.locator('#page-language').selectOption('de')
    await page.getByRole('button', { name: 'Erzeugen', exact: true }).waitFor()
    t.same([await padding.isVisible(), await padding.isChecked(), await page.locator('[name=prefix]').inputValue()], [true, false, 'base64:'], 'unticked and the prefix kept')
    await page.locator('#page-language').selectOption('en')
    await generateButton(page).waitFor()
    await setControl(page, 'encoding', 'base32')
    t.equal(await padding.isChecked(), false, 'base32: unticked, its default')
    await setControl(page, 'encoding', 'hex')
    t.equal(await padding.isVisible(), false, 'hex: hidden again')
    t.match(await sent(), { body: { prefix: 'base64:' }, value: /^base64:[0-9a-f]{64}$/ }, 'hex: padding not sent')
  })
})
