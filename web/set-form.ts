// The set's rows (CONTRACT §10, the page at /#set): each a `name` control, a generator chooser
// named `type` and that generator's parameters, built by form.ts as a generator's form is. Row N's
// controls carry ids `item-N-…`, so a problem's pointer (`#/items/N/params/length`) names one.
import { el, VALUE_ATTRIBUTES } from './dom.js'
import type { FormSpec, GeneratorSpec } from './form-spec.js'
import { buildFields, pointedControlId, rawValues, requestBody, restoreValues, updateApplicable, type Raw } from './form.js'
import type { Translate } from './i18n.js'
import type { MessageKey } from './messages.js'

/** A row as the person left it: what is typed, not yet what is sent. */
export interface SetRow {
  name: string
  type: string
  raw?: Raw
  /** What a starting set says of the row beside its name (where a program reads its values); dropped when the generator changes. */
  note?: NoteKey
}

export type PresetName = 'app' | 'wireguard' | 'reality' | 'vaultwarden' | 'mosquitto' | 'oidc' | 'vapid'
type NoteKey = Extract<MessageKey, `note.${string}`>

/**
 * Starting sets: they only fill rows, which the person then changes at will. Every value here
 * can be written to a .env file (no quantity over 1, no symbol a shell or reader would take).
 */
export const PRESETS: Readonly<Record<PresetName, readonly SetRow[]>> = {
  app: [
    { name: 'DB_PASSWORD', type: 'password', raw: { length: '32', symbols: false } },
    { name: 'SECRET_KEY', type: 'seq', raw: { byteLength: '32', encoding: 'hex' } },
    { name: 'API_TOKEN', type: 'token' }
  ],
  wireguard: [
    { name: 'WG_PRIVATE_KEY', type: 'vpn', raw: { protocol: 'wireguard' } },
    { name: 'WG_PRESHARED_KEY', type: 'vpn', raw: { protocol: 'wireguard-psk' } }
  ],
  reality: [
    { name: 'REALITY_PRIVATE_KEY', type: 'vpn', raw: { protocol: 'reality' } },
    { name: 'REALITY_SHORT_ID', type: 'short-id' },
    { name: 'CLIENT_ID', type: 'uuid' }
  ],
  // CONTRACT §12: Vaultwarden reads an Argon2id PHC string in ADMIN_TOKEN, which the .env's
  // VAULTWARDEN_ADMIN_HASH line holds; the passphrase is what is typed on its /admin page
  vaultwarden: [
    { name: 'VAULTWARDEN_ADMIN', type: 'passphrase', raw: { 'hash.algorithm': 'argon2id' }, note: 'note.vaultwarden' }
  ],
  // Mosquitto's password_file holds `<user>:<hash>` lines in its PBKDF2-SHA512 `$7$` format
  mosquitto: [
    { name: 'MQTT_PASSWORD', type: 'password', raw: { length: '32', 'hash.algorithm': 'mosquitto' }, note: 'note.mosquitto' }
  ],
  // CONTRACT §13: an OpenID Connect provider's RS256 signing key as a JWK (the .env form takes
  // JWK lines, never a multi-line PEM), OIDC_PUBLIC_KEY its public JWK; and the HMAC secret of
  // Authelia's `hmac_secret` (at least 64 random characters)
  oidc: [
    { name: 'OIDC_PRIVATE_KEY', type: 'signing-key', raw: { algorithm: 'RS256' }, note: 'note.oidc' },
    { name: 'OIDC_HMAC_SECRET', type: 'password', raw: { length: '64', symbols: false } }
  ],
  // Web push: the .env derives VAPID_PUBLIC_KEY from the name (CONTRACT §10), the pair Mastodon reads
  vapid: [
    { name: 'VAPID_PRIVATE_KEY', type: 'signing-key', raw: { algorithm: 'ES256', format: 'vapid' }, note: 'note.vapid' }
  ]
}

export const itemPrefix = (index: number) => `item-${index}-`

/** The control a problem's pointer names in the set's form, by CONTRACT §10's pointers into `items` (`#/items/0/params/hash/cost` → `item-0-param-hash-cost`). */
export function itemControl (pointer: string | undefined): string | undefined {
  const match = /^#\/items\/(\d+)\/(?:(name|type)(?:\/|$)|params\/(.*)$)/.exec(pointer ?? '')
  if (match === null) return undefined
  const prefix = itemPrefix(Number(match[1]))
  const params = match[3]
  return params === undefined ? `${prefix}${match[2] as string}` : pointedControlId(params.split('/'), prefix)
}

export class SetEditor {
  readonly element: HTMLElement
  private readonly specs: ReadonlyMap<string, GeneratorSpec>
  private readonly list: HTMLElement

  constructor (private readonly formSpec: FormSpec, private readonly t: Translate, rows: readonly SetRow[]) {
    this.specs = new Map(formSpec.map((spec) => [spec.type, spec]))
    this.list = el('div', { class: 'set-rows' })
    const add = el('button', { type: 'button', class: 'add-item' }, t('addItem'))
    add.addEventListener('click', () => {
      const kept = this.rows()
      this.render([...kept, { name: '', type: 'password' }])
      this.list.querySelector<HTMLInputElement>(`#${itemPrefix(kept.length)}name`)?.focus()
    })
    this.element = el('div', { class: 'set' }, this.presetButtons(), this.list, el('div', { class: 'actions' }, add))
    this.render(rows)
  }

  private spec (type: string): GeneratorSpec {
    return this.specs.get(type) ?? (this.formSpec[0] as GeneratorSpec)
  }

  private presetButtons (): HTMLElement {
    const group = el('div', { class: 'presets actions', role: 'group', 'aria-labelledby': 'presets-label' }, el('span', { id: 'presets-label', class: 'presets-label' }, this.t('presets')))
    for (const name of Object.keys(PRESETS) as PresetName[]) {
      const button = el('button', { type: 'button', 'data-preset': name }, this.t(`preset.${name}`))
      button.addEventListener('click', () => {
        this.render(PRESETS[name])
        this.list.querySelector<HTMLInputElement>(`#${itemPrefix(0)}name`)?.focus()
      })
      group.append(button)
    }
    return group
  }

  /** What every row holds now. */
  rows (): SetRow[] {
    return [...this.list.querySelectorAll<HTMLElement>('[data-item]')].map((row, index) => {
      const prefix = itemPrefix(index)
      const type = (row.querySelector<HTMLSelectElement>(`#${prefix}type`) as HTMLSelectElement).value
      const note = row.dataset.note as NoteKey | undefined
      return { name: (row.querySelector<HTMLInputElement>(`#${prefix}name`) as HTMLInputElement).value, type, raw: rawValues(row, this.spec(type), prefix), ...(note === undefined ? {} : { note }) }
    })
  }

  /** The request's `items`: each row's name and type, and its parameters that differ from their defaults. */
  items (): Array<{ name: string, type: string, params?: Record<string, unknown> }> {
    const rows = this.rows()
    return [...this.list.querySelectorAll<HTMLElement>('[data-item]')].map((row, index) => {
      const { name, type } = rows[index] as SetRow
      const params = requestBody(row, this.spec(type), itemPrefix(index))
      return Object.keys(params).length === 0 ? { name, type } : { name, type, params }
    })
  }

  render (rows: readonly SetRow[]): void {
    this.list.replaceChildren(...rows.map((row, index) => this.row(row, index, rows.length)))
  }

  private row (row: SetRow, index: number, count: number): HTMLElement {
    const { t } = this
    const prefix = itemPrefix(index)
    const n = index + 1
    const noteId = `${prefix}note`
    const nameInput = el('input', { id: `${prefix}name`, name: 'name', type: 'text', ...VALUE_ATTRIBUTES, autocapitalize: 'off', maxlength: '64', 'aria-describedby': row.note === undefined ? `${prefix}name-hint` : `${prefix}name-hint ${noteId}`, value: row.name })
    const typeSelect = el('select', { id: `${prefix}type`, name: 'type' })
    for (const { type } of this.formSpec) {
      const option = el('option', { value: type }, t(`gen.${type}` as MessageKey))
      option.selected = type === row.type
      typeSelect.append(option)
    }
    const params = el('div', { class: 'params' })
    const fillParams = (raw?: Raw): void => {
      const spec = this.spec(typeSelect.value)
      params.replaceChildren(...buildFields(spec, t, prefix))
      if (raw !== undefined) restoreValues(params, raw, prefix)
      updateApplicable(params, spec, prefix)
    }
    const note = row.note === undefined ? undefined : el('p', { id: noteId, class: 'hint note' }, t(row.note))
    typeSelect.addEventListener('change', () => {
      fillParams()
      // the note spoke of the generator the starting set chose
      if (note === undefined) return
      note.remove()
      delete fieldset.dataset.note
      nameInput.setAttribute('aria-describedby', `${prefix}name-hint`)
    })
    params.addEventListener('change', () => updateApplicable(params, this.spec(typeSelect.value), prefix))
    fillParams(row.raw)
    const remove = el('button', { type: 'button', class: 'remove-item' }, t('removeItem', n))
    remove.disabled = count === 1
    remove.addEventListener('click', () => {
      const kept = this.rows()
      kept.splice(index, 1)
      this.render(kept)
      const next = Math.min(index, kept.length - 1)
      this.list.querySelector<HTMLInputElement>(`#${itemPrefix(next)}name`)?.focus()
    })
    const fieldset = el('fieldset', { class: 'params item', 'data-item': String(index), ...(row.note === undefined ? {} : { 'data-note': row.note }) },
      el('legend', {}, t('itemN', n)),
      ...(note === undefined ? [] : [note]),
      el('div', { class: 'field' }, el('label', { for: nameInput.id }, t('itemName')), nameInput, el('p', { id: `${prefix}name-hint`, class: 'hint' }, t('itemNameHint'))),
      el('div', { class: 'field' }, el('label', { for: typeSelect.id }, t('generator')), typeSelect),
      params,
      el('div', { class: 'actions' }, remove))
    return fieldset
  }
}
