// What a person reads on the page (issue 32's fixes, CONTRACT §8) in Chromium: a count in its
// language's plural form ("1 value generated."), a key pair's private value labelled as its public
// key is, choices in words while the identifier stays the value sent, and a string control that
// takes as many characters as the schema counts (code points: four emoji are four characters).
import t from 'tap'
import { browserSkip, generate, generateButton, openGenerator, serve, setControl, shownFor, shownOnce, withSession } from './page-browser.js'

t.test('counts, labels and choices in words; four emoji typed into a separator are four characters', { skip: browserSkip(t) }, async (t) => {
  const served = await serve(t)
  await withSession(t, served, { locale: 'en-US' }, async (session) => {
    const { page } = session
    await openGenerator(session, 'password')
    const one = await generate(session, () => generateButton(page).click())
    await shownOnce(page, shownFor(one.json))
    await page.getByRole('status').filter({ hasText: /^1 value generated\.$/ }).waitFor({ timeout: 15_000 })
    t.pass('"1 value generated."')
    await setControl(page, 'quantity', 2)
    const two = await generate(session, () => generateButton(page).click())
    await shownOnce(page, shownFor(two.json))
    await page.getByRole('status').filter({ hasText: /^2 values generated\.$/ }).waitFor({ timeout: 15_000 })
    t.pass('"2 values generated."')

    await openGenerator(session, 'vpn')
    const options = await page.locator('[name=protocol] option').evaluateAll((elements: any[]) => elements.map((option) => [option.value, option.textContent]))
    t.same(options.find(([value]) => value === 'wireguard'), ['wireguard', 'WireGuard key pair'], 'an identifier is the value, its words the text')
    t.same(options.find(([value]) => value === 'reality'), ['reality', 'Xray REALITY key pair (X25519)'])
    await setControl(page, 'protocol', 'wireguard')
    const pair = await generate(session, () => generateButton(page).click())
    t.same(JSON.parse(pair.request.postData() ?? 'null'), { protocol: 'wireguard' }, 'the identifier is sent')
    await shownOnce(page, shownFor(pair.json))
    const labels = await page.locator('.entry .sub-label').allTextContents()
    t.same(labels, ['Private key', 'Public key'], 'both halves of the key pair are labelled, the private one first')

    await openGenerator(session, 'passphrase')
    const separator = page.locator('[name=separator]')
    await separator.fill('')
    await separator.pressSequentially('🔑🎲🔐🧂🦀')
    t.equal(await separator.inputValue(), '🔑🎲🔐🧂', 'four emoji fit (the schema\'s maxLength 4), the fifth is cut')
    const emoji = await generate(session, () => generateButton(page).click())
    t.equal(emoji.status, 200, 'the API takes them')
    t.same(JSON.parse(emoji.request.postData() ?? 'null'), { separator: '🔑🎲🔐🧂' })
    t.ok(emoji.json.values[0].includes('🔑🎲🔐🧂'), 'the words joined by the four emoji')
  })
  await withSession(t, served, { locale: 'ru-RU' }, async (session) => {
    const { page } = session
    await openGenerator(session, 'uuid')
    for (const [quantity, words] of [[1, 'Создано 1 значение.'], [3, 'Создано 3 значения.'], [5, 'Создано 5 значений.']] as const) {
      await setControl(page, 'quantity', quantity)
      const answer = await generate(session, () => generateButton(page, 'Создать').click())
      await shownOnce(page, shownFor(answer.json))
      await page.getByRole('status').filter({ hasText: words }).waitFor({ timeout: 15_000 })
      t.pass(`${quantity}: "${words}"`)
    }
    const format = await page.locator('[name=format] option[value=v7]').textContent()
    t.equal(format, 'UUID версии 7 (упорядочен по времени)', 'choices in Russian words')
  })
})
