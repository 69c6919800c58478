// A generator's parameters as form controls, from the form spec the build read off the route
// schemas (src/build/form-spec.ts): bounds, choices and defaults are the schema's, never restated here.
import { el, VALUE_ATTRIBUTES } from './dom.js'
import type { GeneratorSpec, ParamSpec } from './form-spec.js'
import type { Translate } from './i18n.js'

type Control = HTMLInputElement | HTMLSelectElement
type Raw = Record<string, string | boolean>

/** Formats of uuid that take `length` (CONTRACT §2: the compact ones). */
const COMPACT_UUID_FORMATS = ['numeric', 'alpha', 'alphanumeric', 'urlsafe']
const PASSWORD_MINIMUMS: Record<string, string> = { minUppercase: 'uppercase', minLowercase: 'lowercase', minNumbers: 'numbers', minSymbols: 'symbols' }

/**
 * Parameters that only mean something while another one has a given value (CONTRACT §2): hidden
 * and not sent otherwise, as the API would ignore them.
 */
export function applies (type: string, name: string, raw: Raw): boolean {
  if (type === 'password' && name in PASSWORD_MINIMUMS) return raw[PASSWORD_MINIMUMS[name] as string] === true
  if (type === 'uuid' && name === 'length') return COMPACT_UUID_FORMATS.includes(String(raw.format))
  if (type === 'vpn' && name === 'length') return raw.protocol === 'shadowsocks'
  return true
}

export const controlId = (name: string) => `param-${name}`
export const errorId = (name: string) => `param-${name}-error`

function control (param: ParamSpec): Control {
  const common = { id: controlId(param.name), name: param.name }
  switch (param.kind) {
    case 'boolean': {
      const input = el('input', { ...common, type: 'checkbox' })
      input.defaultChecked = param.default
      return input
    }
    case 'integer':
      return el('input', { ...common, type: 'number', inputmode: 'numeric', step: '1', min: String(param.minimum), max: String(param.maximum), value: String(param.default) })
    case 'choice': {
      const select = el('select', { ...common, translate: 'no' })
      for (const choice of param.choices) {
        const option = el('option', { value: String(choice) }, String(choice))
        option.defaultSelected = choice === param.default
        select.append(option)
      }
      return select
    }
    case 'string':
      return el('input', {
        ...common,
        type: 'text',
        ...VALUE_ATTRIBUTES,
        autocapitalize: 'off',
        maxlength: String(param.maxLength),
        ...(param.minLength !== undefined ? { minlength: String(param.minLength) } : {}),
        value: param.default
      })
    case 'list':
      // No numeric keypad: items need commas, spaces and minus signs
      return el('input', { ...common, type: 'text', ...VALUE_ATTRIBUTES, autocapitalize: 'off', 'aria-describedby': `${controlId(param.name)}-hint` })
  }
}

/** One field per parameter: its label, its control, and (for lists) how to separate items. */
export function buildFields (spec: GeneratorSpec, t: Translate): HTMLElement[] {
  return spec.params.map((param) => {
    const input = control(param)
    const label = el('label', { for: input.id }, t(`param.${param.name}` as Parameters<Translate>[0]))
    const field = el('div', { class: param.kind === 'boolean' ? 'field check' : 'field', 'data-param': param.name })
    if (param.kind === 'boolean') field.append(input, label)
    else field.append(label, input)
    if (param.kind === 'list') field.append(el('p', { id: `${input.id}-hint`, class: 'hint' }, t('exclusionsHint')))
    return field
  })
}

function controlOf (form: HTMLFormElement, name: string): Control | undefined {
  const found = form.querySelector<Control>(`#${CSS.escape(controlId(name))}`)
  return found ?? undefined
}

/** What each control holds now, as typed (checkboxes as booleans). */
export function rawValues (form: HTMLFormElement, spec: GeneratorSpec): Raw {
  const raw: Raw = {}
  for (const param of spec.params) {
    const input = controlOf(form, param.name)
    if (input === undefined) continue
    raw[param.name] = input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value
  }
  return raw
}

/** Puts values read by rawValues back (the form is rebuilt when the page's language changes). */
export function restoreValues (form: HTMLFormElement, raw: Raw): void {
  for (const [name, value] of Object.entries(raw)) {
    const input = controlOf(form, name)
    if (input === undefined) continue
    if (typeof value === 'boolean') (input as HTMLInputElement).checked = value
    else input.value = value
  }
}

/** Hides the fields that do not apply to what the others say now. */
export function updateApplicable (form: HTMLFormElement, spec: GeneratorSpec): void {
  const raw = rawValues(form, spec)
  for (const param of spec.params) {
    const field = form.querySelector<HTMLElement>(`[data-param="${CSS.escape(param.name)}"]`)
    if (field !== null) field.hidden = !applies(spec.type, param.name, raw)
  }
}

/**
 * The request body: every parameter that applies and differs from its default (CONTRACT §8: a
 * parameter left at its default is not sent). What was typed is sent as typed, in the schema's
 * JSON type, so the API (not the page) judges it and answers in the page's language: an integer
 * out of range goes out as that integer. An empty number field means the default.
 */
export function requestBody (form: HTMLFormElement, spec: GeneratorSpec): Record<string, unknown> {
  const raw = rawValues(form, spec)
  const body: Record<string, unknown> = {}
  for (const param of spec.params) {
    const value = raw[param.name]
    if (value === undefined || !applies(spec.type, param.name, raw)) continue
    switch (param.kind) {
      case 'boolean':
        if (value !== param.default) body[param.name] = value
        break
      case 'integer': {
        const text = String(value).trim()
        if (text === '') break
        const number = Number(text)
        if (number !== param.default) body[param.name] = Number.isFinite(number) ? number : text
        break
      }
      case 'choice': {
        const choice = typeof param.default === 'number' ? Number(value) : String(value)
        if (choice !== param.default) body[param.name] = choice
        break
      }
      case 'string':
        if (value !== param.default) body[param.name] = value
        break
      case 'list': {
        const items = String(value).split(/[\s,]+/).filter((item) => item !== '')
        if (items.length > 0) body[param.name] = items
        break
      }
    }
  }
  return body
}
