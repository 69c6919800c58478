// The set's rows (CONTRACT §10, the page at /#set): each a `name` control, a generator chooser
// named `type` (the generators, and §14.2's `jwt`) and that generator's parameters, built by
// form.ts as a generator's form is, then the names of its derived lines. Row N's controls carry
// ids `item-N-…`, so a problem's pointer (`#/items/N/params/length`) names one. The starting sets
// are the catalog's recipes (§14.1), read from the API when one is chosen: none is written here.
import type { RecipeDetail, RecipeSummary, SetItem } from './api.js'
import { el, VALUE_ATTRIBUTES } from './dom.js'
import type { FormSpec, GeneratorSpec, SetFormSpec } from './form-spec.js'
import { buildFields, hashControlName, pointedControlId, rawFromParams, rawValues, requestBody, restoreValues, updateApplicable, type Raw } from './form.js'
import type { Translate } from './i18n.js'
import type { MessageKey } from './messages.js'

/** What a recipe says of one of a row's lines: where the app reads it (one English sentence). */
export interface RowNote {
  name: string
  text: string
}

/** A row as the person left it: what is typed, not yet what is sent. */
export interface SetRow {
  name: string
  type: string
  raw?: Raw
  /** The names typed for its derived lines (CONTRACT §14.2); sent only when filled and the line exists. */
  hashName?: string
  publicKeyName?: string
  /** What its recipe says of each of its lines; dropped when the generator changes. */
  notes?: readonly RowNote[]
}

/**
 * The rows /#set opens with, before any recipe is chosen: an app's usual three (every value fit
 * for a .env file). The recipes, every app's own, come from the catalog.
 */
export const FIRST_ROWS: readonly SetRow[] = [
  { name: 'DB_PASSWORD', type: 'password', raw: { length: '32', symbols: false } },
  { name: 'SECRET_KEY', type: 'seq', raw: { byteLength: '32', encoding: 'hex' } },
  { name: 'API_TOKEN', type: 'token' }
]

/** The catalog as the page reads it (CONTRACT §14.1), each answer kept for the tab by main.ts. */
export interface Catalog {
  list: () => Promise<RecipeSummary[] | undefined>
  recipe: (id: string) => Promise<RecipeDetail | undefined>
}

export const itemPrefix = (index: number) => `item-${index}-`

/** The control a problem's pointer names in the set's form, by CONTRACT §10's pointers into `items` (`#/items/0/params/hash/cost` → `item-0-param-hash-cost`). */
export function itemControl (pointer: string | undefined): string | undefined {
  const match = /^#\/items\/(\d+)\/(?:(name|type|hashName|publicKeyName)(?:\/|$)|params\/(.*)$)/.exec(pointer ?? '')
  if (match === null) return undefined
  const prefix = itemPrefix(Number(match[1]))
  const params = match[3]
  return params === undefined ? `${prefix}${match[2] as string}` : pointedControlId(params.split('/'), prefix)
}

/**
 * A recipe's items as rows, each with the notes of its lines: its own name's and its derived
 * lines' (`ADMIN_TOKEN` beside Vaultwarden's passphrase), which the recipe's `names` list right
 * after the item's own name.
 */
export function recipeRows (names: readonly string[], detail: RecipeDetail, spec: (type: string) => GeneratorSpec): SetRow[] {
  const itemNames = new Set(detail.items.map(({ name }) => name))
  const lines = new Map<string, string[]>()
  let owner: string | undefined
  for (const name of names) {
    if (itemNames.has(name)) owner = name
    if (owner !== undefined) lines.set(owner, [...(lines.get(owner) ?? []), name])
  }
  return detail.items.map((item: SetItem) => {
    const notes = (lines.get(item.name) ?? [item.name]).flatMap((name) => {
      const text = detail.notes[name]
      return text === undefined ? [] : [{ name, text }]
    })
    return {
      name: item.name,
      type: item.type,
      raw: rawFromParams(spec(item.type), item.params ?? {}),
      ...(item.hashName === undefined ? {} : { hashName: item.hashName }),
      ...(item.publicKeyName === undefined ? {} : { publicKeyName: item.publicKeyName }),
      ...(notes.length === 0 ? {} : { notes })
    }
  })
}

/** A row's controls for the names of its derived lines, and whether each applies now. */
interface LineNames {
  hashName: HTMLInputElement
  publicKeyName: HTMLInputElement
  update: () => void
}

export class SetEditor {
  readonly element: HTMLElement
  private readonly specs: ReadonlyMap<string, GeneratorSpec>
  private readonly list: HTMLElement
  private readonly recipeSelect: HTMLSelectElement
  private readonly notes = new WeakMap<HTMLElement, readonly RowNote[]>()
  private readonly lineNames = new WeakMap<HTMLElement, LineNames>()
  private summaries: readonly RecipeSummary[] = []
  /** Counts choices of a recipe: a recipe that arrives after another was chosen is dropped. */
  private choosing = 0

  constructor (private readonly formSpec: FormSpec, private readonly setSpec: SetFormSpec, private readonly t: Translate, private readonly catalog: Catalog, rows: readonly SetRow[], recipe = '') {
    this.specs = new Map([...formSpec, setSpec.jwt].map((spec) => [spec.type, spec]))
    this.list = el('div', { class: 'set-rows' })
    const add = el('button', { type: 'button', class: 'add-item' }, t('addItem'))
    add.addEventListener('click', () => {
      const kept = this.rows()
      this.render([...kept, { name: '', type: 'password' }])
      this.list.querySelector<HTMLInputElement>(`#${itemPrefix(kept.length)}name`)?.focus()
    })
    this.recipeSelect = el('select', { id: 'recipe', name: 'recipe', 'aria-describedby': 'recipe-hint' }, el('option', { value: '' }, t('recipeNone')))
    this.element = el('div', { class: 'set' }, this.recipeChooser(recipe), this.list, el('div', { class: 'actions' }, add))
    this.render(rows)
  }

  /** The recipe the chooser shows (`''`: none), kept when the page is drawn again. */
  get recipe (): string {
    return this.recipeSelect.value
  }

  private spec (type: string): GeneratorSpec {
    return this.specs.get(type) ?? (this.formSpec[0] as GeneratorSpec)
  }

  /**
   * CONTRACT §14.1: one labelled chooser of every recipe the API lists, grouped (apps, VPN, keys).
   * Choosing one reads its items and notes from the API and fills the rows with them (and does
   * nothing else); the first, empty option leaves the rows as they are.
   */
  private recipeChooser (chosen: string): HTMLElement {
    const { t, recipeSelect: select } = this
    const failed = el('p', { id: 'recipe-error', class: 'load-error' }, t('recipesFailed'))
    failed.hidden = true
    const showFailed = (): void => {
      failed.hidden = false
      select.setAttribute('aria-describedby', 'recipe-hint recipe-error')
    }
    this.catalog.list().then((summaries) => {
      if (summaries === undefined) return showFailed()
      this.summaries = summaries
      // In the schema's order (apps, VPN, keys); a group it does not name, if the API ever sends one, last
      const known = this.setSpec.recipeGroups
      const groups = [...known, ...new Set(summaries.map(({ group }) => group).filter((group) => !known.includes(group)))]
      for (const group of groups) {
        const members = summaries.filter((summary) => summary.group === group).sort((a, b) => a.title.localeCompare(b.title, 'en'))
        if (members.length === 0) continue
        const label = known.includes(group) ? t(`group.${group}` as MessageKey) : group
        // The titles are the catalog's English names of apps and sets
        select.append(el('optgroup', { label }, ...members.map(({ id, title }) => el('option', { value: id, lang: 'en' }, title))))
      }
      select.value = summaries.some(({ id }) => id === chosen) ? chosen : ''
    }, () => {})
    select.addEventListener('change', () => {
      const ticket = ++this.choosing
      const id = select.value
      if (id === '') return
      this.catalog.recipe(id).then((detail) => {
        if (ticket !== this.choosing) return
        if (detail === undefined) return showFailed()
        failed.hidden = true
        select.setAttribute('aria-describedby', 'recipe-hint')
        const names = this.summaries.find((summary) => summary.id === id)?.names ?? []
        this.render(recipeRows(names, detail, (type) => this.spec(type)))
      }, () => {})
    })
    return el('div', { class: 'field recipe' },
      el('label', { for: select.id }, t('startFrom')), select,
      el('p', { id: 'recipe-hint', class: 'hint' }, t('recipeHint')), failed)
  }

  /** What every row holds now. */
  rows (): SetRow[] {
    return [...this.list.querySelectorAll<HTMLElement>('[data-item]')].map((row, index) => {
      const prefix = itemPrefix(index)
      const type = (row.querySelector<HTMLSelectElement>(`#${prefix}type`) as HTMLSelectElement).value
      const notes = this.notes.get(row)
      const lines = this.lineNames.get(row)
      return {
        name: (row.querySelector<HTMLInputElement>(`#${prefix}name`) as HTMLInputElement).value,
        type,
        raw: rawValues(row, this.spec(type), prefix),
        ...(lines === undefined ? {} : { hashName: lines.hashName.value, publicKeyName: lines.publicKeyName.value }),
        ...(notes === undefined ? {} : { notes })
      }
    })
  }

  /**
   * The request's `items`: each row's name and type, its parameters that differ from their
   * defaults (a `jwt` row's always: `signedWith` is required), and the names of its derived lines
   * where they are filled and the row has such a line.
   */
  items (): SetItem[] {
    return [...this.list.querySelectorAll<HTMLElement>('[data-item]')].map((row, index) => {
      const prefix = itemPrefix(index)
      const type = (row.querySelector<HTMLSelectElement>(`#${prefix}type`) as HTMLSelectElement).value
      const name = (row.querySelector<HTMLInputElement>(`#${prefix}name`) as HTMLInputElement).value
      const params = requestBody(row, this.spec(type), prefix)
      const item: SetItem = Object.keys(params).length === 0 && type !== this.setSpec.jwt.type ? { name, type } : { name, type, params }
      const lines = this.lineNames.get(row)
      for (const input of lines === undefined ? [] : [lines.hashName, lines.publicKeyName]) {
        if (input.value !== '' && input.closest('[hidden]') === null) item[input.name as 'hashName' | 'publicKeyName'] = input.value
      }
      return item
    })
  }

  render (rows: readonly SetRow[]): void {
    this.list.replaceChildren(...rows.map((row, index) => this.row(row, index, rows.length)))
  }

  /** A text control for a variable name (`name`, `hashName`, `publicKeyName`), at most as long as the set's schema allows. */
  private nameControl (id: string, name: string, value: string, describedBy: string): HTMLInputElement {
    return el('input', { id, name, type: 'text', ...VALUE_ATTRIBUTES, autocapitalize: 'off', maxlength: String(this.setSpec.nameMaxLength), 'aria-describedby': describedBy, value })
  }

  /**
   * The names of a row's derived lines (CONTRACT §14.2), each shown while the row has that line:
   * `hashName` for a generator whose answer has hashes (a token; a password or passphrase with
   * a hash chosen), `publicKeyName` for one whose answer has public keys.
   */
  private lineNameFields (row: SetRow, prefix: string, spec: () => GeneratorSpec, params: HTMLElement): { fields: HTMLElement[], lines: LineNames } {
    const { t } = this
    const box = (name: 'hashName' | 'publicKeyName', label: MessageKey, hint: MessageKey, value: string): [HTMLElement, HTMLInputElement] => {
      const id = `${prefix}${name}`
      const input = this.nameControl(id, name, value, `${id}-hint`)
      return [el('div', { class: 'field', 'data-line': name }, el('label', { for: id }, t(label)), input, el('p', { id: `${id}-hint`, class: 'hint' }, t(hint))), input]
    }
    const [hashBox, hashName] = box('hashName', 'itemHashName', 'hashNameHint', row.hashName ?? '')
    const [publicKeyBox, publicKeyName] = box('publicKeyName', 'itemPublicKeyName', 'publicKeyNameHint', row.publicKeyName ?? '')
    const update = (): void => {
      const current = spec()
      const hashChooser = current.params.some((param) => param.kind === 'hash')
      hashBox.hidden = current.hashes !== true || (hashChooser && rawValues(params, current, prefix)[hashControlName('algorithm')] === '')
      publicKeyBox.hidden = current.publicKeys !== true
    }
    return { fields: [hashBox, publicKeyBox], lines: { hashName, publicKeyName, update } }
  }

  private row (row: SetRow, index: number, count: number): HTMLElement {
    const { t } = this
    const prefix = itemPrefix(index)
    const n = index + 1
    const noteId = `${prefix}note`
    const nameHint = `${prefix}name-hint`
    const nameInput = this.nameControl(`${prefix}name`, 'name', row.name, row.notes === undefined ? nameHint : `${nameHint} ${noteId}`)
    const typeSelect = el('select', { id: `${prefix}type`, name: 'type' })
    for (const { type } of [...this.formSpec, this.setSpec.jwt]) {
      const option = el('option', { value: type }, t(`gen.${type}` as MessageKey))
      option.selected = type === row.type
      typeSelect.append(option)
    }
    const params = el('div', { class: 'params' })
    const spec = (): GeneratorSpec => this.spec(typeSelect.value)
    const { fields: lineFields, lines } = this.lineNameFields(row, prefix, spec, params)
    const fillParams = (raw?: Raw): void => {
      params.replaceChildren(...buildFields(spec(), t, prefix))
      if (raw !== undefined) restoreValues(params, raw, prefix)
      updateApplicable(params, spec(), prefix)
      lines.update()
    }
    // The recipe's words, in English (CONTRACT §14.1), said so for screen readers
    const note = row.notes === undefined
      ? undefined
      : el('div', { id: noteId, class: 'note', lang: 'en' }, ...row.notes.map(({ name, text }) => el('p', { class: 'hint' }, el('code', { translate: 'no' }, name), ` — ${text}`)))
    typeSelect.addEventListener('change', () => {
      fillParams()
      // the notes spoke of the generator the recipe chose
      if (note === undefined) return
      note.remove()
      this.notes.delete(fieldset)
      delete fieldset.dataset.note
      nameInput.setAttribute('aria-describedby', nameHint)
    })
    params.addEventListener('change', () => {
      updateApplicable(params, spec(), prefix)
      lines.update()
    })
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
    const fieldset = el('fieldset', { class: 'params item', 'data-item': String(index), ...(row.notes === undefined ? {} : { 'data-note': row.notes.map(({ name }) => name).join(' ') }) },
      el('legend', {}, t('itemN', n)),
      ...(note === undefined ? [] : [note]),
      el('div', { class: 'field' }, el('label', { for: nameInput.id }, t('itemName')), nameInput, el('p', { id: nameHint, class: 'hint' }, t('itemNameHint'))),
      el('div', { class: 'field' }, el('label', { for: typeSelect.id }, t('generator')), typeSelect),
      params,
      ...lineFields,
      el('div', { class: 'actions' }, remove))
    if (row.notes !== undefined) this.notes.set(fieldset, row.notes)
    this.lineNames.set(fieldset, lines)
    return fieldset
  }
}
