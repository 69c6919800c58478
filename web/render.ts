// Values and errors as the API sent them (CONTRACT §8): each value the exact text of its element,
// entropy the number as JSON gave it, the API's own localized messages beside the fields.
import type { GenerationResult, Problem } from './api.js'
import { el, VALUE_ATTRIBUTES } from './dom.js'
import { namedByLabel } from './field-label.js'
import { pointedControlId, type Raw } from './form.js'
import type { Translate } from './i18n.js'
import { jwkSet } from './jwk-set.js'
import { ENV_DOWNLOAD_NAME, type MessageKey } from './messages.js'
import { qrCode } from './qr.js'

export interface ResultActions {
  copy: (text: string) => void
  save: (name: string, text: string) => void
}

/** A value (or its public key, or hash) with its own Copy button. */
function copyable (attribute: string, text: string, copyName: string, t: Translate, actions: ResultActions): HTMLElement {
  const shown = el('pre', { [attribute]: '', class: 'value', ...VALUE_ATTRIBUTES }, text)
  const button = el('button', { type: 'button', class: 'copy', 'aria-label': copyName }, t('copy'))
  button.addEventListener('click', () => actions.copy(text))
  return el('div', { class: 'value-row' }, shown, button)
}

function item (result: GenerationResult, index: number, t: Translate, actions: ResultActions): HTMLElement {
  const n = index + 1
  const value = result.values[index] as string
  const entry = el('li', { class: 'entry' })
  const publicKey = result.publicKeys?.[index]
  // A key pair's two halves each get a label, the private one first
  if (publicKey !== undefined) entry.append(el('p', { class: 'sub-label' }, t('privateKey')))
  entry.append(copyable('data-value', value, t('copyValue', n), t, actions))
  if (publicKey !== undefined) entry.append(el('p', { class: 'sub-label' }, t('publicKey')), copyable('data-public-key', publicKey, t('copyPublicKey', n), t, actions))
  const hash = result.hashes?.[index]
  // A token's hash is its SHA-256; a password's or passphrase's the one asked for (CONTRACT §12)
  if (hash !== undefined) entry.append(el('p', { class: 'sub-label' }, t(result.type === 'token' ? 'hash' : 'passwordHash')), copyable('data-hash', hash, t('copyHash', n), t, actions))
  if (result.type === 'totp') entry.append(qrCode(value, t('qrCode', n)))
  const files = keyFiles(result.type, value)
  if (files !== undefined) {
    const many = result.values.length > 1
    const button = (file: KeyFile, text: string): HTMLButtonElement => {
      const save = el('button', { type: 'button', ...(many ? { 'aria-label': t(file.labelN, n) } : {}) }, t(file.label))
      save.addEventListener('click', () => actions.save(file.name, text))
      return save
    }
    const buttons = el('div', { class: 'actions' }, button(files.private, value))
    if (publicKey !== undefined) buttons.append(button(files.public, files.publicText(publicKey)))
    entry.append(buttons)
  }
  return entry
}

interface KeyFile { name: string, label: MessageKey, labelN: MessageKey }

/**
 * The files a key pair is saved as (CONTRACT §8, §13), when it has some: an ssh-key as ssh-keygen
 * names them; a signing key in PEM as `private.pem` and `public.pem`, each PEM as the API wrote
 * it (ending in a line feed). JWK and VAPID keys are one line, copied rather than saved.
 */
function keyFiles (type: string, value: string): { private: KeyFile, public: KeyFile, publicText: (publicKey: string) => string } | undefined {
  if (type === 'ssh-key') {
    return {
      private: { name: 'id_ed25519', label: 'savePrivateKey', labelN: 'savePrivateKeyN' },
      public: { name: 'id_ed25519.pub', label: 'savePublicKey', labelN: 'savePublicKeyN' },
      // ssh-keygen writes the .pub file as one line ending in a line feed
      publicText: (publicKey) => `${publicKey}\n`
    }
  }
  if (type === 'signing-key' && value.startsWith('-----BEGIN ')) {
    return {
      private: { name: 'private.pem', label: 'savePrivatePem', labelN: 'savePrivatePemN' },
      public: { name: 'public.pem', label: 'savePublicPem', labelN: 'savePublicPemN' },
      publicText: (publicKey) => publicKey
    }
  }
  return undefined
}

/**
 * A signing-key answer's public keys as a JWK Set (CONTRACT §13), with its Copy: what a provider
 * publishes at its `jwks_uri`. Built from the keys shown (web/jwk-set.ts), never asked for, as
 * asking would make other keys. None for HMAC keys, which have no public key.
 */
function jwkSetSection (result: GenerationResult, sent: Raw, t: Translate, actions: ResultActions): HTMLElement | undefined {
  if (result.type !== 'signing-key' || result.publicKeys === undefined) return undefined
  const text = jwkSet(String(sent.algorithm), result.publicKeys)
  if (text === undefined) return undefined
  const copy = el('button', { type: 'button', class: 'copy' }, t('copyJwkSet'))
  copy.addEventListener('click', () => actions.copy(text))
  return el('section', { class: 'jwk-set', 'aria-labelledby': 'jwk-set-heading' },
    el('div', { class: 'results-head' }, el('h3', { id: 'jwk-set-heading' }, t('jwkSet')), copy),
    el('p', { class: 'hint' }, t('jwkSetHint')),
    el('pre', { 'data-jwk-set': '', class: 'value', ...VALUE_ATTRIBUTES }, text))
}

/**
 * The values of one answer, their entropy, and Copy all (every value, one per line); a signing
 * key's JWK Set after them. `sent`: what the form held when the request went (the JWK Set's `alg`).
 */
export function resultSection (result: GenerationResult, sent: Raw, t: Translate, actions: ResultActions): HTMLElement {
  const copyAll = el('button', { type: 'button', class: 'copy-all' }, t('copyAll'))
  // The values as the API's text/plain answer lists them (CONTRACT §1.2, without public keys):
  // each on its own line ending in a line feed; an ssh-key, which ends in one already, gets no second
  copyAll.addEventListener('click', () => actions.copy(result.values.map((value) => (value.endsWith('\n') ? value : `${value}\n`)).join('')))
  const list = el('ol', { class: 'values' })
  for (let index = 0; index < result.values.length; index++) list.append(item(result, index, t, actions))
  const section = el('section', { class: 'results', 'aria-labelledby': 'values-heading' },
    el('div', { class: 'results-head' },
      el('h2', { id: 'values-heading' }, t('values')),
      copyAll),
    el('p', { class: 'entropy' },
      el('span', {}, t('entropy')), ' ',
      // String(entropyBits): the number exactly as the API sent it, never rounded or estimated here
      el('span', { 'data-entropy-bits': '', translate: 'no' }, String(result.entropyBits)), ' ',
      el('span', {}, t('bits'))),
    list)
  const keys = jwkSetSection(result, sent, t, actions)
  if (keys !== undefined) section.append(keys)
  return section
}

/** The control a problem's pointer names in a generator's form (`#/length`, `#/exclusions/3`, `#/hash/cost` → `param-length`, `param-exclusions`, `param-hash-cost`). */
export function paramControl (pointer: string | undefined): string | undefined {
  const match = /^#\/(.*)$/.exec(pointer ?? '')
  return match === null ? undefined : pointedControlId((match[1] as string).split('/'))
}

/**
 * Each `errors[]` entry beside the control its pointer names (`controlOf` gives its id; described
 * by it, marked invalid), the control named there by its label, as the person reads it (“Length”,
 * “Variable name”), not by the API's path to it (“length”, “items[0].name”); returns the entries
 * no visible control takes, for the alert to list as the API wrote them.
 */
export function showFieldErrors (form: HTMLFormElement, problem: Problem, t: Translate, controlOf: (pointer: string | undefined) => string | undefined = paramControl): string[] {
  const unplaced: string[] = []
  const byControl = new Map<HTMLElement, string[]>()
  for (const entry of problem.errors ?? []) {
    const id = controlOf(entry.pointer)
    const input = id === undefined ? null : form.querySelector<HTMLElement>(`#${CSS.escape(id)}`)
    const detail = entry.detail ?? ''
    if (input === null || input.closest('[hidden]') !== null) {
      unplaced.push(detail)
      continue
    }
    const label = form.querySelector(`label[for="${CSS.escape(input.id)}"]`)?.textContent ?? ''
    byControl.set(input, [...(byControl.get(input) ?? []), namedByLabel(detail, entry.pointer ?? '', label, t.language)])
  }
  for (const [input, details] of byControl) {
    const errorId = `${input.id}-error`
    const message = el('p', { id: errorId, class: 'field-error' }, details.join(' '))
    input.closest('.field')?.append(message)
    input.setAttribute('aria-invalid', 'true')
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '')
    input.setAttribute('aria-describedby', [...described, errorId].join(' '))
  }
  return unplaced
}

/** Removes what showFieldErrors added. */
export function clearFieldErrors (form: HTMLFormElement): void {
  for (const message of form.querySelectorAll('.field-error')) message.remove()
  for (const input of form.querySelectorAll('[aria-invalid]')) {
    input.removeAttribute('aria-invalid')
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '' && !id.endsWith('-error'))
    if (described.length > 0) input.setAttribute('aria-describedby', described.join(' '))
    else input.removeAttribute('aria-describedby')
  }
}

/** The alert: the problem's detail, then any field messages that have no control to sit beside. */
export function alertBox (detail: string, more: readonly string[] = []): HTMLElement {
  const box = el('div', { role: 'alert', class: 'alert' }, el('p', {}, detail))
  const others = more.filter((text) => text !== detail)
  if (others.length > 0) box.append(el('ul', {}, ...others.map((text) => el('li', {}, text))))
  return box
}

/** A set's .env text exactly as the API answered it (CONTRACT §10), with Copy and a download named `randgen.env`. */
export function envSection (text: string, t: Translate, actions: ResultActions): HTMLElement {
  const copy = el('button', { type: 'button', class: 'copy-all' }, t('copyEnv'))
  copy.addEventListener('click', () => actions.copy(text))
  const save = el('button', { type: 'button', 'aria-describedby': 'save-env-hint' }, t('saveEnv'))
  save.addEventListener('click', () => actions.save(ENV_DOWNLOAD_NAME, text))
  return el('section', { class: 'results', 'aria-labelledby': 'env-heading' },
    el('div', { class: 'results-head' }, el('h2', { id: 'env-heading' }, t('envFile')), el('div', { class: 'actions' }, copy, save)),
    el('p', { id: 'save-env-hint', class: 'hint' }, t('saveEnvHint'), ' ', el('code', { translate: 'no' }, `mv ${ENV_DOWNLOAD_NAME} .env`)),
    el('pre', { 'data-env': '', class: 'value env', ...VALUE_ATTRIBUTES }, text))
}
