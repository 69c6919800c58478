// The page builds its DOM with createElement, attributes and text nodes only: no HTML parsing
// anywhere, so nothing the API answers can ever become markup (and the CSP's Trusted Types
// requirement leaves no HTML sink usable by mistake).

type Child = Node | string

/** An element with its attributes and children (strings become text nodes). */
export function el<K extends keyof HTMLElementTagNameMap> (tag: K, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  element.append(...children)
  return element
}

/** What every element showing or holding a generated value carries (CONTRACT §8). */
export const VALUE_ATTRIBUTES = { autocomplete: 'off', spellcheck: 'false', translate: 'no' } as const
