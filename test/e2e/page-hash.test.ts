// Password hashes on the page (CONTRACT §12, §8) in Chromium: the password and passphrase forms
// have a hash chooser ("none" by default: no `hash` sent) followed by the chosen algorithm's
// fields, with the schema's bounds and defaults (a field at its default is not sent); each value's
// hash is shown in `data-hash` with its own Copy; a problem at `#/hash/cost` lands beside the cost
// control, named by its label; axe-clean light and dark, nothing scrolling sideways at 360 px.
import t from 'tap'
import type { Page } from 'playwright-core'
import { HASH_BRANCHES, HASHED_VALUES_MAX } from '../../schemas/hash.js'
import { axeViolations, browserSkip, CLIPBOARD, copied, generate, generateButton, openGenerator, serve, setControl, shownFor, shownOnce, withSession } from './page-browser.js'

/** What the control named `name` carries: its value, bounds and options. */
async function controlState (page: Page, name: string): Promise<{ count: number, value?: string, min?: string | null, max?: string | null, options?: string[] | null, label?: string }> {
  const control = page.locator(`[name="${name}"]`)
  const count = await control.count()
  if (count !== 1) return { count }
  return {
    count,
    ...await control.evaluate((element: any) => ({
      value: element.value,
      min: element.getAttribute('min'),
      max: element.getAttribute('max'),
      options: element.tagName === 'SELECT' ? Array.from(element.options, (option: any) => option.value) : null,
      label: Array.from(element.labels ?? [], (label: any) => label.textContent).join(' ')
    }))
  }
}

const hashNames = (page: Page) => page.locator('[name^="hash."]').evaluateAll((controls: any[]) => controls.map((control) => control.name))

t.test('password: "none" by default; each algorithm\'s fields from its schema; the hash sent, shown in data-hash and copied', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: CLIPBOARD }, async (session) => {
    const { page } = session
    await openGenerator(session, 'password')
    const chooser = await controlState(page, 'hash.algorithm')
    t.equal(chooser.count, 1, 'one hash chooser, named hash.algorithm')
    t.equal(chooser.value, '', 'none chosen')
    t.same(chooser.options, ['', ...HASH_BRANCHES.map((branch) => branch.properties.algorithm.const)], '"none", then the five algorithms in the schema\'s order')
    t.equal(chooser.label, 'Hash of each value', 'labelled')
    t.same(await hashNames(page), ['hash.algorithm'], 'no algorithm\'s field while none is chosen')

    const plain = await generate(session, () => generateButton(page).click())
    t.same(JSON.parse(plain.request.postData() ?? 'null'), {}, 'none: no hash sent')
    t.equal(plain.json.hashes, undefined, 'and none answered')
    t.same(await shownOnce(page, shownFor(plain.json)), shownFor(plain.json), 'no data-hash shown')

    // Every algorithm's fields, with the bounds and defaults of its schema (schemas/hash.ts)
    for (const branch of HASH_BRANCHES) {
      const { algorithm, ...fields } = branch.properties
      await setControl(page, 'hash.algorithm', algorithm.const)
      t.same(await hashNames(page), ['hash.algorithm', ...Object.keys(fields).map((field) => `hash.${field}`)], `${algorithm.const}: its fields, and only its`)
      for (const [field, schema] of Object.entries<any>(fields)) {
        const state = await controlState(page, `hash.${field}`)
        t.match(state, { count: 1, value: String(schema.default), min: String(schema.minimum), max: String(schema.maximum) }, `${algorithm.const}.${field}: default ${schema.default}, ${schema.minimum}..${schema.maximum}`)
        t.not(state.label, '', `${algorithm.const}.${field} is labelled (${state.label})`)
      }
    }

    await setControl(page, 'hash.algorithm', 'argon2id')
    const argon = await generate(session, () => generateButton(page).click())
    t.same(JSON.parse(argon.request.postData() ?? 'null'), { hash: { algorithm: 'argon2id' } }, 'fields at their defaults are not sent')
    t.match(argon.json.hashes, [/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/])
    t.same(await shownOnce(page, shownFor(argon.json)), shownFor(argon.json), 'the Argon2id hash shown in data-hash')

    await setControl(page, 'hash.algorithm', 'bcrypt')
    await setControl(page, 'hash.cost', 4)
    await setControl(page, 'quantity', 2)
    const bcrypt = await generate(session, () => generateButton(page).click())
    t.equal(bcrypt.status, 200)
    t.same(JSON.parse(bcrypt.request.postData() ?? 'null'), { quantity: 2, hash: { algorithm: 'bcrypt', cost: 4 } }, 'the algorithm and the field changed')
    t.equal(bcrypt.json.hashes.length, 2, 'a hash per value')
    t.same(await shownOnce(page, shownFor(bcrypt.json)), shownFor(bcrypt.json), 'each value\'s hash in data-hash, in order')
    t.same(await page.locator('.entry .sub-label').allTextContents(), ['Hash (what a configuration file stores)', 'Hash (what a configuration file stores)'], 'labelled as a password\'s hash, not a token\'s SHA-256')
    for (const [index, hash] of (bcrypt.json.hashes as string[]).entries()) {
      t.match(hash, /^\$2y\$04\$/)
      t.equal(await copied(page, `Copy hash ${index + 1}`), hash, `"Copy hash ${index + 1}" copies exactly hash ${index + 1}`)
    }
    t.equal(await copied(page, 'Copy value 2'), bcrypt.json.values[1], 'Copy value still copies the value')

    // The page's language changes: the chooser, the chosen field and its value stay
    await page.locator('#page-language').selectOption('de')
    t.equal((await controlState(page, 'hash.algorithm')).value, 'bcrypt', 'a new language keeps the algorithm')
    t.match(await controlState(page, 'hash.cost'), { value: '4', label: 'Kosten (log2 der Runden)' }, 'and its field, now labelled in German')
    t.same(await shownOnce(page, shownFor(bcrypt.json)), shownFor(bcrypt.json), 'and the hashes shown')

    await setControl(page, 'hash.algorithm', '')
    t.same(await hashNames(page), ['hash.algorithm'], 'back to none: the fields go')
    const none = await generate(session, () => page.locator('[name=length]').press('Enter'))
    t.same(JSON.parse(none.request.postData() ?? 'null'), { quantity: 2 }, 'and no hash is sent')
  })
})

t.test('passphrase: a hash sent with a changed field, shown and copied', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US', permissions: CLIPBOARD }, async (session) => {
    const { page } = session
    await openGenerator(session, 'passphrase')
    t.equal((await controlState(page, 'hash.algorithm')).value, '', 'none chosen')
    await setControl(page, 'hash.algorithm', 'sha512-crypt')
    await setControl(page, 'hash.rounds', 6000)
    const crypt = await generate(session, () => generateButton(page).click())
    t.equal(crypt.status, 200)
    t.same(JSON.parse(crypt.request.postData() ?? 'null'), { hash: { algorithm: 'sha512-crypt', rounds: 6000 } })
    t.match(crypt.json.hashes, [/^\$6\$rounds=6000\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/])
    t.same(await shownOnce(page, shownFor(crypt.json)), shownFor(crypt.json), 'the hash shown in data-hash')
    t.equal(await copied(page, 'Copy hash 1'), crypt.json.hashes[0], '"Copy hash 1" copies exactly the hash')

    await setControl(page, 'hash.algorithm', 'scram-sha-256')
    await setControl(page, 'quantity', 3)
    const scram = await generate(session, () => generateButton(page).click())
    t.same(JSON.parse(scram.request.postData() ?? 'null'), { quantity: 3, hash: { algorithm: 'scram-sha-256' } }, 'iterations at its default: not sent')
    t.same(await shownOnce(page, shownFor(scram.json)), shownFor(scram.json), 'three values, three hashes')
    t.equal(await copied(page, 'Copy hash 3'), scram.json.hashes[2], '"Copy hash 3" copies the third')
  })
})

t.test('a problem at #/hash/cost beside the cost control, named by its label; too many values beside quantity', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  for (const [locale, label, quoted] of [['en-US', 'Cost (log2 of the rounds)', ['“', '”']], ['de-DE', 'Kosten (log2 der Runden)', ['„', '“']]] as const) {
    await withSession(t, served, { locale }, async (session) => {
      const { page } = session
      session.allowFailedLoad(/status of 400\b/)
      await openGenerator(session, 'password')
      await setControl(page, 'hash.algorithm', 'bcrypt')
      await setControl(page, 'hash.cost', 99)
      const failed = await generate(session, () => page.locator('[name="hash.cost"]').press('Enter'))
      t.equal(failed.status, 400)
      t.same(JSON.parse(failed.request.postData() ?? 'null'), { hash: { algorithm: 'bcrypt', cost: 99 } }, 'sent as typed: the API judges it')
      const entry = failed.json.errors.find((error: any) => error.pointer === '#/hash/cost')
      t.ok(entry, `${locale}: the API points at #/hash/cost`)
      const beside = page.locator('#param-hash-cost-error')
      await beside.waitFor({ state: 'visible', timeout: 15_000 })
      const apiName = `${quoted[0]}hash.cost${quoted[1]}`
      t.ok(entry.detail.includes(apiName), `the API says ${apiName}: ${entry.detail}`)
      t.equal(await beside.textContent(), entry.detail.replace(apiName, `${quoted[0]}${label}${quoted[1]}`), `${locale}: beside the cost control, named by its label`)
      t.equal(await page.locator('[name="hash.cost"]').getAttribute('aria-invalid'), 'true')
      t.match(await page.locator('[name="hash.cost"]').getAttribute('aria-describedby'), 'param-hash-cost-error')
      t.ok((await page.locator('[role=alert]').textContent())?.includes(failed.json.detail), 'role="alert" keeps the API\'s detail')

      // CONTRACT §12: at most 5 values hashed; the problem lands beside quantity
      await setControl(page, 'hash.cost', 4)
      await setControl(page, 'quantity', HASHED_VALUES_MAX + 1)
      const many = await generate(session, () => generateButton(page, locale === 'en-US' ? 'Generate' : 'Erzeugen').click())
      t.equal(many.status, 400)
      t.same(many.json.errors.map((error: any) => error.pointer), ['#/quantity'])
      await page.locator('#param-quantity-error').waitFor({ state: 'visible', timeout: 15_000 })
      t.equal(await page.locator('#param-hash-cost-error').count(), 0, 'the cost\'s message is gone')
    })
  }
})

t.test('axe-core finds nothing with a hash chosen and shown, light and dark; at 360 CSS pixels nothing scrolls sideways', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  for (const colorScheme of ['light', 'dark'] as const) {
    await withSession(t, served, { locale: 'en-US', colorScheme, viewport: { width: 360, height: 740 } }, async (session) => {
      const { page } = session
      const scrollWidth = async (): Promise<number> => await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)
      await openGenerator(session, 'password')
      await setControl(page, 'hash.algorithm', 'argon2id')
      t.same(await axeViolations(page), [], `${colorScheme}: Argon2id's fields shown`)
      await setControl(page, 'quantity', 2)
      const { json } = await generate(session, () => generateButton(page).click())
      await shownOnce(page, shownFor(json))
      t.same(await axeViolations(page), [], `${colorScheme}: values and their hashes`)
      t.ok(await scrollWidth() <= 360, `${colorScheme}: scrollWidth ${await scrollWidth()} ≤ 360`)
      await openGenerator(session, 'passphrase')
      await setControl(page, 'hash.algorithm', 'scram-sha-256')
      await setControl(page, 'hash.iterations', 100000)
      const scram = await generate(session, () => generateButton(page).click())
      await shownOnce(page, shownFor(scram.json))
      t.ok(await scrollWidth() <= 360, `${colorScheme}: a SCRAM verifier at 100000 iterations, scrollWidth ${await scrollWidth()} ≤ 360`)
    })
  }
})
