// A generator's parameters as form controls, from the form spec the build read off the route
// schemas (src/build/form-spec.ts): bounds, choices and defaults are the schema's, never restated here.
import { el, VALUE_ATTRIBUTES } from './dom.js'
import type { GeneratorSpec, ParamSpec } from './form-spec.js'
import type { Translate } from './i18n.js'

type Control = HTMLInputElement | HTMLSelectElement
export type Raw = Record<string, string | boolean>

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

/** A parameter's control: `param-length`, or `item-2-param-length` in row 2 of a set (`prefix` `item-2-`). */
export const controlId = (name: string, prefix = '') => `${prefix}param-${name}`

/** The control of the parameter a JSON Pointer token names (RFC 6901: `~1` is `/`, `~0` is `~`). */
export const pointedControlId = (token: string, prefix = '') => controlId(token.replaceAll('~1', '/').replaceAll('~0', '~'), prefix)

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

function control (param: ParamSpec, t: Translate, prefix: string): Control {
  const common = { id: controlId(param.name, prefix), name: param.name }
  switch (param.kind) {
    case 'boolean': {
      const input = el('input', { ...common, type: 'checkbox' })
      input.defaultChecked = param.default
      return input
    }
    case 'integer':
      return el('input', { ...common, type: 'number', inputmode: 'numeric', step: '1', min: String(param.minimum), max: String(param.maximum), value: String(param.default) })
    case 'choice': {
      const select = el('select', common)
      for (const choice of param.choices) {
        // Words for the choice where it has some; the identifier stays the value sent
        const words = t.choice(param.name, choice)
        const option = el('option', { value: String(choice), ...(words === undefined ? { translate: 'no' } : {}) }, words ?? String(choice))
        option.defaultSelected = choice === param.default
        select.append(option)
      }
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
  }
}

/** One field per parameter: its label, its control, and (for lists) how to separate items. */
export function buildFields (spec: GeneratorSpec, t: Translate, prefix = ''): HTMLElement[] {
  return spec.params.map((param) => {
    const input = control(param, t, prefix)
    const label = el('label', { for: input.id }, t(`param.${param.name}` as Parameters<Translate>[0]))
    const field = el('div', { class: param.kind === 'boolean' ? 'field check' : 'field', 'data-param': param.name })
    if (param.kind === 'boolean') field.append(input, label)
    else field.append(label, input)
    if (param.kind === 'list') field.append(el('p', { id: `${input.id}-hint`, class: 'hint' }, t('exclusionsHint')))
    return field
  })
}

function controlOf (root: ParentNode, name: string, prefix: string): Control | undefined {
  const found = root.querySelector<Control>(`#${CSS.escape(controlId(name, prefix))}`)
  return found ?? undefined
}

/** What each control holds now, as typed (checkboxes as booleans). */
export function rawValues (root: ParentNode, spec: GeneratorSpec, prefix = ''): Raw {
  const raw: Raw = {}
  for (const param of spec.params) {
    const input = controlOf(root, param.name, prefix)
    if (input === undefined) continue
    raw[param.name] = input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value
  }
  return raw
}

/** Puts values read by rawValues back (the form is rebuilt when the page's language changes). */
export function restoreValues (root: ParentNode, raw: Raw, prefix = ''): void {
  for (const [name, value] of Object.entries(raw)) {
    const input = controlOf(root, name, prefix)
    if (input === undefined) continue
    if (typeof value === 'boolean') (input as HTMLInputElement).checked = value
    else input.value = value
  }
}

/** Hides the fields that do not apply to what the others say now. */
export function updateApplicable (root: ParentNode, spec: GeneratorSpec, prefix = ''): void {
  const raw = rawValues(root, spec, prefix)
  for (const param of spec.params) {
    const field = controlOf(root, param.name, prefix)?.closest<HTMLElement>('[data-param]') ?? null
    if (field !== null) field.hidden = !applies(spec.type, param.name, raw)
  }
}

/**
 * The request body: every parameter that applies and differs from its default (CONTRACT §8: a
 * parameter left at its default is not sent). What was typed is sent as typed, in the schema's
 * JSON type, so the API (not the page) judges it and answers in the page's language: an integer
 * out of range goes out as that integer. An empty number field means the default.
 */
export function requestBody (root: ParentNode, spec: GeneratorSpec, prefix = ''): Record<string, unknown> {
  const raw = rawValues(root, spec, prefix)
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
