// The page (CONTRACT §8): one generator's form at a time, or a set of them as a .env file (§10,
// `/#set`), chosen by the URL's fragment, one POST per Generate, the answer shown exactly as sent. What it holds lives in this module's variables
// only: nothing is written to storage, cookies, the URL (beyond `#<type>`), the title or history.
import { generate, generateSet, listRecipes, readRecipe, type GenerationResult, type Outcome, type RecipeDetail, type RecipeSummary } from './api.js'
import { copyText } from './clipboard.js'
import { el } from './dom.js'
import { saveFile } from './download.js'
import type { FormSpec, GeneratorSpec, SetFormSpec } from './form-spec.js'
import { buildFields, rawValues, requestBody, restoreValues, updateApplicable, type Raw } from './form.js'
import { preferredLanguage, translator, type Translate } from './i18n.js'
import { LANGUAGE_NAMES, PAGE_LANGUAGES, type MessageKey, type PageLanguage } from './messages.js'
import { alertBox, clearFieldErrors, envSection, paramControl, resultSection, showFieldErrors, type ResultActions } from './render.js'
import { FIRST_ROWS, itemControl, SetEditor, type Catalog, type SetRow } from './set-form.js'

/** Every generator's parameters, read from the route schemas when the page was bundled (src/build/form-spec.ts). */
declare const FORM_SPEC: FormSpec
/** What a set's rows take beyond them (the `jwt` item, the names' bound), read from the set's schemas likewise. */
declare const SET_SPEC: SetFormSpec

const SPECS = new Map(FORM_SPEC.map((spec) => [spec.type, spec]))
const DEFAULT_TYPE = 'password'
/** The fragment of the set's view, and its choice in the generator chooser. */
const SET = 'set'

const typeFromFragment = (): string => {
  const name = location.hash.slice(1)
  return SPECS.has(name) || name === SET ? name : DEFAULT_TYPE
}

let language: PageLanguage = preferredLanguage(navigator.languages)
let t: Translate = translator(language)
let type = typeFromFragment()
/** CONTRACT §9: the access key, once asked for, lives in this variable for the tab's life and nowhere else. */
let accessKey: string | undefined
let askingForKey = false
/** The answer on screen (and what the form held when it was asked for), so a change of language can show it again in the new words. */
let shown: { result: GenerationResult, sent: Raw } | string | undefined
/** The set's rows while another generator is shown or the page is drawn again; they start as an app's secrets. */
let setRows: SetRow[] = [...FIRST_ROWS]
/** The recipe the set's chooser shows. */
let setRecipe = ''
let setEditor: SetEditor | undefined
/** Counts requests: an answer that arrives after a newer request was sent (or the generator changed) is dropped. */
let latest = 0

const spec = (): GeneratorSpec => SPECS.get(type) as GeneratorSpec

/**
 * The recipes (CONTRACT §14.1), read from the API the first time the set is shown and each
 * recipe when it is first chosen, then kept for the tab (they hold no secret); a failed read is
 * tried again the next time.
 */
let recipeList: Promise<RecipeSummary[] | undefined> | undefined
const recipeDetails = new Map<string, Promise<RecipeDetail | undefined>>()
const catalog: Catalog = {
  list: () => {
    recipeList ??= listRecipes().then((list) => {
      if (list === undefined) recipeList = undefined
      return list
    })
    return recipeList
  },
  recipe: (id) => {
    const known = recipeDetails.get(id)
    if (known !== undefined) return known
    const reading = readRecipe(id).then((detail) => {
      if (detail === undefined) recipeDetails.delete(id)
      return detail
    })
    recipeDetails.set(id, reading)
    return reading
  }
}

/** Keeps what the set's editor holds, for when it is drawn again. */
function keepSet (): void {
  if (setEditor === undefined) return
  setRows = setEditor.rows()
  setRecipe = setEditor.recipe
}

// The page's parts, made by render()
let form: HTMLFormElement
let fields: HTMLElement
let keyField: HTMLElement
let keyInput: HTMLInputElement
let output: HTMLElement
let status: HTMLElement

function clearOutput (): void {
  latest++
  shown = undefined
  output.replaceChildren()
  status.textContent = ''
  clearFieldErrors(form)
}

const actions: ResultActions = {
  copy: (text) => { copyText(text).then((copied) => { status.textContent = t(copied ? 'copied' : 'copyFailed') }, () => {}) },
  save: saveFile
}

/** A generator's values, or a set's .env text. */
function showResult (result: { result: GenerationResult, sent: Raw } | string): void {
  shown = result
  output.replaceChildren(typeof result === 'string' ? envSection(result, t, actions) : resultSection(result.result, result.sent, t, actions))
}

function showOutcome (outcome: Outcome, sent: Raw): void {
  switch (outcome.kind) {
    case 'values':
      showResult({ result: outcome.result, sent })
      status.textContent = t.plural('generated', outcome.result.values.length)
      return
    case 'env':
      showResult(outcome.text)
      status.textContent = t.plural('setGenerated', outcome.text.split('\n').length - 1)
      return
    case 'problem': {
      if (outcome.status === 401) {
        // The key sent (if any) was refused: ask for one
        accessKey = undefined
        askingForKey = true
        keyField.hidden = false
      }
      const unplaced = showFieldErrors(form, outcome.problem, t, type === SET ? itemControl : paramControl)
      output.replaceChildren(alertBox(outcome.problem.detail as string, unplaced))
      if (outcome.status === 401) keyInput.focus()
      return
    }
    case 'rate-limited':
      output.replaceChildren(alertBox(outcome.wait === undefined ? t('rateLimitedSoon') : t('rateLimited', outcome.wait)))
      return
    case 'unexpected':
      output.replaceChildren(alertBox(t('unexpectedAnswer', outcome.status)))
      return
    case 'network':
      output.replaceChildren(alertBox(t('networkError')))
  }
}

async function onSubmit (event: SubmitEvent): Promise<void> {
  event.preventDefault()
  if (askingForKey && keyInput.value !== '') {
    accessKey = keyInput.value
    keyInput.value = ''
  }
  const items = setEditor?.items()
  const body = items === undefined ? requestBody(form, spec()) : undefined
  const sent = items === undefined ? rawValues(form, spec()) : {}
  // Values shown before go before anything else can happen (CONTRACT §8: never values and an error at once)
  clearOutput()
  const ticket = latest
  const outcome = items !== undefined ? await generateSet(items, language, accessKey) : await generate(type, body ?? {}, language, accessKey)
  if (ticket !== latest) return
  if (outcome.kind === 'values' && askingForKey) {
    askingForKey = false
    keyField.hidden = true
  }
  showOutcome(outcome, sent)
}

function renderFields (): void {
  if (type === SET) {
    setEditor = new SetEditor(FORM_SPEC, SET_SPEC, t, catalog, setRows, setRecipe)
    fields.replaceChildren(el('h2', { class: 'items-heading' }, t('items')), setEditor.element)
    return
  }
  setEditor = undefined
  const params = el('fieldset', { class: 'params' }, el('legend', {}, t('parameters')), ...buildFields(spec(), t))
  fields.replaceChildren(params)
  updateApplicable(params, spec())
}

function chooseGenerator (next: string): void {
  keepSet()
  type = next
  renderFields()
  clearOutput()
}

function languageChooser (): HTMLElement {
  const select = el('select', { id: 'page-language', name: 'pageLanguage' })
  for (const code of PAGE_LANGUAGES) {
    const option = el('option', { value: code, lang: code }, LANGUAGE_NAMES[code])
    option.selected = code === language
    select.append(option)
  }
  select.addEventListener('change', () => {
    language = select.value as PageLanguage
    render()
    document.getElementById('page-language')?.focus()
  })
  return el('div', { class: 'language' }, el('label', { for: 'page-language' }, t('pageLanguage')), select)
}

function generatorChooser (): HTMLElement {
  const select = el('select', { id: 'generator', name: 'generator' })
  for (const name of [...SPECS.keys(), SET]) {
    const option = el('option', { value: name }, t(`gen.${name}` as MessageKey))
    option.selected = name === type
    select.append(option)
  }
  select.addEventListener('change', () => {
    // Replaces the history entry: choosing a generator is not a navigation (and leaves no trail)
    history.replaceState(null, '', `#${select.value}`)
    chooseGenerator(select.value)
  })
  return el('div', { class: 'field' }, el('label', { for: 'generator' }, t('generator')), select)
}

/** The whole page in the current language, keeping what the fields hold and the values shown. */
function render (): void {
  keepSet()
  const kept = form === undefined || type === SET ? undefined : rawValues(form, spec())
  const again = shown
  t = translator(language)
  document.documentElement.lang = language

  fields = el('div', { class: 'fields' })
  keyInput = el('input', { id: 'access-key', name: 'accessKey', type: 'password', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'access-key-hint' })
  keyField = el('div', { class: 'field access-key' },
    el('label', { for: 'access-key' }, t('accessKey')), keyInput,
    el('p', { id: 'access-key-hint', class: 'hint' }, t('accessKeyHint')))
  keyField.hidden = !askingForKey
  form = el('form', { novalidate: '', autocomplete: 'off' }, generatorChooser(), fields, keyField,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'generate' }, t('generate'))))
  form.addEventListener('submit', (event) => { onSubmit(event).catch(() => {}) })
  form.addEventListener('change', () => { if (type !== SET) updateApplicable(form, spec()) })
  output = el('div', { class: 'output' })
  status = el('p', { role: 'status', class: 'status' })

  renderFields()
  if (kept !== undefined) {
    restoreValues(form, kept)
    updateApplicable(form, spec())
  }
  document.body.replaceChildren(
    el('header', {},
      el('div', { class: 'title' }, el('h1', { translate: 'no' }, 'randgen'), el('p', { class: 'tagline' }, t('tagline'))),
      languageChooser()),
    el('main', {}, form, status, output),
    el('footer', {}, el('a', { href: '/docs' }, t('apiDocs'))))
  if (again !== undefined) showResult(again)
}

render()

addEventListener('hashchange', () => {
  const next = typeFromFragment()
  if (next === type) return
  const chooser = form.querySelector<HTMLSelectElement>('#generator')
  if (chooser !== null) chooser.value = next
  chooseGenerator(next)
})
// CONTRACT §8: values do not outlive the page being hidden, nor come back from the back/forward cache
addEventListener('pagehide', () => clearOutput())
addEventListener('pageshow', (event) => { if (event.persisted) clearOutput() })
