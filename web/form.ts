// A generator's parameters as form controls, from the form spec the build read off the route
// schemas (src/build/form-spec.ts): bounds, choices and defaults are the schema's, never restated here.
import { el, VALUE_ATTRIBUTES } from './dom.js'
import type { FieldSpec, GeneratorSpec, ParamSpec } from './form-spec.js'
import type { Translate } from './i18n.js'
import type { MessageKey } from './messages.js'

type Control = HTMLInputElement | HTMLSelectElement
type HashSpec = Extract<ParamSpec, { kind: 'hash' }>
export type Raw = Record<string, string | boolean>

/** Formats of uuid that take `length` (CONTRACT §2: the compact ones). */
const COMPACT_UUID_FORMATS = ['numeric', 'alpha', 'alphanumeric', 'urlsafe']
const PASSWORD_MINIMUMS: Record<string, string> = { minUppercase: 'uppercase', minLowercase: 'lowercase', minNumbers: 'numbers', minSymbols: 'symbols' }

/**
 * Parameters that only mean something while another one has a given value (CONTRACT §2): hidden
 * and not sent otherwise, as the API would ignore them (or refuse them: signing-key's
 * `modulusBits`, whose rule the form spec carries from the route).
 */
export function applies (type: string, param: ParamSpec, raw: Raw): boolean {
  const { name } = param
  if ('appliesWith' in param && param.appliesWith !== undefined) {
    const { param: other, values } = param.appliesWith
    return values.some((value) => String(value) === String(raw[other]))
  }
  if (type === 'password' && name in PASSWORD_MINIMUMS) return raw[PASSWORD_MINIMUMS[name] as string] === true
  if (type === 'uuid' && name === 'length') return COMPACT_UUID_FORMATS.includes(String(raw.format))
  if (type === 'vpn' && name === 'length') return raw.protocol === 'shadowsocks'
  return true
}

/**
 * The `name` of a control inside `hash` (CONTRACT §12): `hash.algorithm`, `hash.cost`, ... — the
 * parameter's path, so each control says which field of the object it sets, and one name holds
 * one control at a time (only the chosen algorithm's fields are on the page).
 */
export const hashControlName = (field: string) => `hash.${field}`

/** A parameter's control: `param-length`, `param-hash-cost`, or `item-2-param-length` in row 2 of a set (`prefix` `item-2-`). */
export const controlId = (name: string, prefix = '') => `${prefix}param-${name.replace('.', '-')}`

/**
 * The control a problem's pointer names, from its tokens after `#/` (or `#/items/N/params/`):
 * `length`; `exclusions/3` → exclusions; `hash/cost` → `hash.cost`, and `hash` itself its
 * chooser. RFC 6901: `~1` is `/`, `~0` is `~`.
 */
export function pointedControlId (tokens: readonly string[], prefix = ''): string | undefined {
  const [first, second] = tokens.map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
  if (first === undefined || first === '') return undefined
  return controlId(first === 'hash' ? hashControlName(second ?? 'algorithm') : first, prefix)
}

/**
 * The schema counts a string's length in code points (AJV); `maxlength` counts UTF-16 units, in
 * which an emoji takes two, so a four-emoji separator could not be typed. The attribute gets the
 * most units `maxLength` code points can take, and input past `maxLength` code points is cut here.
 */
function limitCodePoints (input: HTMLInputElement, maxLength: number): void {
  input.addEventListener('input', () => {
    const codePoints = [...input.value]
    if (codePoints.length > maxLength) input.value = codePoints.slice(0, maxLength).join('')
  })
}

function control (param: FieldSpec, name: string, t: Translate, prefix: string): Control {
  const common = { id: controlId(name, prefix), name }
  switch (param.kind) {
    case 'boolean': {
      const input = el('input', { ...common, type: 'checkbox' })
      // One whose default follows another parameter is set by followDefaults once the fields exist
      input.defaultChecked = param.default ?? false
      return input
    }
    case 'integer':
      return el('input', { ...common, type: 'number', inputmode: 'numeric', step: '1', min: String(param.minimum), max: String(param.maximum), value: param.default === undefined ? '' : String(param.default) })
    case 'choice': {
      const select = el('select', common)
      for (const choice of param.choices) {
        // Words for the choice where it has some; the identifier stays the value sent. `''`: the
        // parameter left out, for its route to decide
        const words = choice === '' ? t(`leftOut.${name}` as MessageKey) : t.choice(name, choice)
        const option = el('option', { value: String(choice), ...(words === undefined ? { translate: 'no' } : {}) }, words ?? String(choice))
        option.defaultSelected = choice === param.default
        select.append(option)
      }
      if (param.choicesWith !== undefined) everyOption.set(select, [...select.options])
      return select
    }
    case 'string': {
      const input = el('input', {
        ...common,
        type: 'text',
        ...VALUE_ATTRIBUTES,
        autocapitalize: 'off',
        maxlength: String(2 * param.maxLength),
        'data-max-code-points': String(param.maxLength),
        ...(param.minLength !== undefined ? { minlength: String(param.minLength) } : {}),
        value: param.default
      })
      limitCodePoints(input, param.maxLength)
      return input
    }
    case 'list':
      // No numeric keypad: items need commas, spaces and minus signs
      return el('input', { ...common, type: 'text', ...VALUE_ATTRIBUTES, autocapitalize: 'off', 'aria-describedby': `${common.id}-hint` })
    case 'json':
      return el('input', { ...common, type: 'text', ...VALUE_ATTRIBUTES, autocapitalize: 'off', 'aria-describedby': `${common.id}-hint` })
  }
}

/** What a text control of a list or a JSON object says of the text it takes. */
const TEXT_HINTS: Partial<Record<FieldSpec['kind'], MessageKey>> = { list: 'exclusionsHint', json: 'jsonHint' }

/** One field: its label, its control, and (for lists) how to separate items. `name` is the control's (`hash.cost` inside `hash`). */
function field (param: FieldSpec, t: Translate, prefix: string, name = param.name): HTMLElement {
  const input = control(param, name, t, prefix)
  const label = el('label', { for: input.id }, t(`param.${name}` as MessageKey))
  const box = el('div', { class: param.kind === 'boolean' ? 'field check' : 'field', 'data-param': name })
  if (param.kind === 'boolean') box.append(input, label)
  else box.append(label, input)
  const hint = TEXT_HINTS[param.kind]
  if (hint !== undefined) box.append(el('p', { id: `${input.id}-hint`, class: 'hint' }, t(hint)))
  return box
}

/**
 * Every option of a choice whose options depend on another parameter (`choicesWith`): the
 * select holds only those that apply now (a hidden option still shows in some browsers' menus),
 * and takes them all back to be given any value by restoreValues.
 */
const everyOption = new WeakMap<HTMLSelectElement, HTMLOptionElement[]>()

/** What draws the chosen algorithm's fields again, by its chooser (restoreValues needs it before the fields' values). */
const hashFieldsOf = new WeakMap<HTMLSelectElement, () => void>()

/**
 * CONTRACT §12's `hash`: a chooser ("none" first and by default: nothing sent), then the chosen
 * algorithm's fields at their defaults. Both flow in the parameters' grid as the other fields do.
 */
function hashChooser (param: HashSpec, t: Translate, prefix: string): HTMLElement {
  const name = hashControlName('algorithm')
  const id = controlId(name, prefix)
  const select = el('select', { id, name, 'aria-describedby': `${id}-hint` }, el('option', { value: '' }, t('hashNone')))
  for (const { algorithm } of param.algorithms) select.append(el('option', { value: algorithm }, t.choice(name, algorithm) ?? algorithm))
  const fields = el('div', { class: 'hash-fields' })
  const drawFields = (): void => {
    const chosen = param.algorithms.find(({ algorithm }) => algorithm === select.value)
    fields.replaceChildren(...(chosen?.fields ?? []).map((spec) => field(spec, t, prefix, hashControlName(spec.name))))
  }
  select.addEventListener('change', drawFields)
  hashFieldsOf.set(select, drawFields)
  return el('div', { class: 'hash' },
    el('div', { class: 'field', 'data-param': name }, el('label', { for: id }, t(`param.${name}` as MessageKey)), select, el('p', { id: `${id}-hint`, class: 'hint' }, t('hashHint', param.maxValues))),
    fields)
}

/** One field per parameter (`hash`: its chooser and the chosen algorithm's fields). */
export function buildFields (spec: GeneratorSpec, t: Translate, prefix = ''): HTMLElement[] {
  const fields = spec.params.map((param) => (param.kind === 'hash' ? hashChooser(param, t, prefix) : field(param, t, prefix)))
  followDefaults(spec, fields, prefix)
  return fields
}

/** The value a parameter's route takes when it is left out, with the other controls as `raw` holds them. */
function defaultOf (param: FieldSpec, raw: Raw): unknown {
  if (param.defaultWith === undefined) return param.default
  return param.defaultWith.defaults[String(raw[param.defaultWith.param])] ?? param.default
}

/** What puts a checkbox whose default follows another control (`defaultWith`) at that default, by the checkbox. */
const followDefault = new WeakMap<HTMLInputElement, () => void>()

/**
 * A checkbox with `defaultWith` starts at the default for its driver's default and takes the
 * default of each value the person then chooses (seq: padding on for base64, off for base64url).
 * Programmatic changes (restoreValues) fire no event: what is restored stays as it was.
 */
function followDefaults (spec: GeneratorSpec, fields: readonly HTMLElement[], prefix: string): void {
  const find = (name: string): Control | undefined => {
    for (const box of fields) {
      const found = box.querySelector<Control>(`#${CSS.escape(controlId(name, prefix))}`)
      if (found !== null) return found
    }
    return undefined
  }
  for (const param of spec.params) {
    if (param.kind !== 'boolean' || param.defaultWith === undefined) continue
    const { param: driverName, defaults } = param.defaultWith
    const input = find(param.name)
    const driver = find(driverName)
    if (!(input instanceof HTMLInputElement) || driver === undefined) continue
    const follow = (): void => { input.checked = defaults[driver.value] ?? param.default ?? false }
    input.defaultChecked = defaults[String(spec.params.find(({ name }) => name === driverName)?.default)] ?? param.default ?? false
    driver.addEventListener('change', follow)
    followDefault.set(input, follow)
  }
}

function controlOf (root: ParentNode, name: string, prefix: string): Control | undefined {
  const found = root.querySelector<Control>(`#${CSS.escape(controlId(name, prefix))}`)
  return found ?? undefined
}

/** The names of a parameter's controls on the page now: its own, or `hash`'s chooser and the chosen algorithm's fields. */
function controlNames (root: ParentNode, param: ParamSpec, prefix: string): string[] {
  if (param.kind !== 'hash') return [param.name]
  const algorithm = controlOf(root, hashControlName('algorithm'), prefix)?.value
  const chosen = param.algorithms.find((spec) => spec.algorithm === algorithm)
  return [hashControlName('algorithm'), ...(chosen?.fields ?? []).map((spec) => hashControlName(spec.name))]
}

/** What each control holds now, as typed (checkboxes as booleans), by control name. */
export function rawValues (root: ParentNode, spec: GeneratorSpec, prefix = ''): Raw {
  const raw: Raw = {}
  for (const param of spec.params) {
    for (const name of controlNames(root, param, prefix)) {
      const input = controlOf(root, name, prefix)
      if (input === undefined) continue
      raw[name] = input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value
    }
  }
  return raw
}

/**
 * Puts values read by rawValues back (the form is rebuilt when the page's language changes; a
 * recipe fills a row). A hash algorithm first, so its fields are there to take theirs.
 */
export function restoreValues (root: ParentNode, raw: Raw, prefix = ''): void {
  const entries = Object.entries(raw)
  const choosers = entries.filter(([name]) => name === hashControlName('algorithm'))
  for (const [name, value] of [...choosers, ...entries.filter((entry) => !choosers.includes(entry))]) {
    const input = controlOf(root, name, prefix)
    if (input === undefined) continue
    if (typeof value === 'boolean') (input as HTMLInputElement).checked = value
    else {
      const options = input instanceof HTMLSelectElement ? everyOption.get(input) : undefined
      if (options !== undefined) input.replaceChildren(...options)
      input.value = value
    }
    if (input instanceof HTMLSelectElement) hashFieldsOf.get(input)?.()
  }
  // A checkbox that follows another control and was not among the values takes that control's default (a starting set's row)
  for (const input of root.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) {
    if (!(input.name in raw)) followDefault.get(input)?.()
  }
}

/**
 * A set item's JSON `params` (a recipe's, CONTRACT §14.1) as the controls hold them, for
 * restoreValues: numbers as text, `hash` as `hash.algorithm` and `hash.<field>`, a list's items
 * separated by commas, an object as JSON text. A parameter no control takes is left out.
 */
export function rawFromParams (spec: GeneratorSpec, params: Readonly<Record<string, unknown>>): Raw {
  const raw: Raw = {}
  const text = (value: unknown): string | boolean => (typeof value === 'boolean' ? value : String(value))
  for (const param of spec.params) {
    const value = params[param.name]
    if (value === undefined) continue
    if (param.kind === 'hash') {
      if (typeof value !== 'object' || value === null) continue
      for (const [field, fieldValue] of Object.entries(value)) raw[hashControlName(field)] = text(fieldValue)
    } else if (param.kind === 'json') raw[param.name] = JSON.stringify(value)
    else if (param.kind === 'list' && Array.isArray(value)) raw[param.name] = value.join(', ')
    else raw[param.name] = text(value)
  }
  return raw
}

/**
 * A choice offers only the options its route takes with what the other controls hold now
 * (CONTRACT §13: `pem` not for HMAC keys, `vapid` for ES256 alone); a value it no longer offers
 * becomes the default, or the first option left.
 */
function limitChoices (root: ParentNode, spec: GeneratorSpec, prefix: string): void {
  const raw = rawValues(root, spec, prefix)
  for (const param of spec.params) {
    if (param.kind !== 'choice' || param.choicesWith === undefined) continue
    const select = controlOf(root, param.name, prefix)
    if (!(select instanceof HTMLSelectElement)) continue
    const options = everyOption.get(select)
    if (options === undefined) continue
    const allowed = (param.choicesWith.choices[String(raw[param.choicesWith.param])] ?? param.choices).map(String)
    const value = select.value
    const kept = options.filter((option) => allowed.includes(option.value))
    const shown = [...select.options]
    if (kept.length === shown.length && kept.every((option, index) => shown[index] === option)) continue
    select.replaceChildren(...kept)
    select.value = allowed.includes(value) ? value : allowed.includes(String(param.default)) ? String(param.default) : (kept[0]?.value ?? '')
  }
}

/** Hides the fields that do not apply to what the others say now, and the choices that do not. */
export function updateApplicable (root: ParentNode, spec: GeneratorSpec, prefix = ''): void {
  limitChoices(root, spec, prefix)
  const raw = rawValues(root, spec, prefix)
  for (const param of spec.params) {
    const box = controlOf(root, param.name, prefix)?.closest<HTMLElement>('[data-param]') ?? null
    if (box !== null) box.hidden = !applies(spec.type, param, raw)
  }
}

/**
 * What a control's value is sent as, or undefined when it is not sent (at its default, or an
 * empty number field, which means the default). What was typed is sent as typed, in the schema's
 * JSON type, so the API (not the page) judges it and answers in the page's language: an integer
 * out of range goes out as that integer.
 */
function sent (param: FieldSpec, value: string | boolean, raw: Raw): unknown {
  switch (param.kind) {
    case 'boolean':
      return value !== (defaultOf(param, raw) ?? false) ? value : undefined
    case 'integer': {
      const text = String(value).trim()
      if (text === '') return undefined
      const number = Number(text)
      if (number === param.default) return undefined
      return Number.isFinite(number) ? number : text
    }
    case 'choice': {
      const choice = typeof param.default === 'number' ? Number(value) : String(value)
      return choice !== param.default ? choice : undefined
    }
    case 'string':
      return value !== param.default ? value : undefined
    case 'list': {
      const items = String(value).split(/[\s,]+/).filter((item) => item !== '')
      return items.length > 0 ? items : undefined
    }
    case 'json': {
      const text = String(value).trim()
      if (text === '') return undefined
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        // Not JSON: sent as the text it is, and the API says beside the control that it takes an object
        return text
      }
      return JSON.stringify(parsed) === JSON.stringify(param.default) ? undefined : parsed
    }
  }
}

/** `hash` as CONTRACT §12 takes it: absent for "none"; else the algorithm and its fields that differ from their defaults. */
function sentHash (param: HashSpec, raw: Raw): Record<string, unknown> | undefined {
  const algorithm = raw[hashControlName('algorithm')]
  const chosen = param.algorithms.find((spec) => spec.algorithm === algorithm)
  if (chosen === undefined) return undefined
  const hash: Record<string, unknown> = { algorithm: chosen.algorithm }
  for (const spec of chosen.fields) {
    const value = raw[hashControlName(spec.name)]
    const sending = value === undefined ? undefined : sent(spec, value, raw)
    if (sending !== undefined) hash[spec.name] = sending
  }
  return hash
}

/** The request body: every parameter that applies and differs from its default (CONTRACT §8: a parameter left at its default is not sent). */
export function requestBody (root: ParentNode, spec: GeneratorSpec, prefix = ''): Record<string, unknown> {
  const raw = rawValues(root, spec, prefix)
  const body: Record<string, unknown> = {}
  for (const param of spec.params) {
    if (!applies(spec.type, param, raw)) continue
    const value = param.kind === 'hash' ? sentHash(param, raw) : raw[param.name] === undefined ? undefined : sent(param, raw[param.name] as string | boolean, raw)
    if (value !== undefined) body[param.name] = value
  }
  return body
}
