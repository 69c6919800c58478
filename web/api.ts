// The page's requests (CONTRACT §8, §10): POST /api/generate/<type>, or POST /api/generate for a
// set answered as a .env file; the parameters as a JSON body, the page's language in
// Accept-Language; never GET, X-Data or a query string. The one GET is the catalog's (§14.1:
// the recipes, which hold no secret), the set's starting points. Same origin only (a relative
// path; the CSP's connect-src 'self' holds it there too).

/** CONTRACT §1.2: a generator's answer. */
export interface GenerationResult {
  type: string
  values: string[]
  entropyBits: number
  generatedAt: string
  publicKeys?: string[]
  hashes?: string[]
}

/** CONTRACT §4: a problem document (what the page reads of it). */
export interface Problem {
  status?: number
  code?: string
  detail?: string
  errors?: Array<{ pointer?: string, code?: string, detail?: string }>
}

export type Outcome =
  | { kind: 'values', result: GenerationResult }
  /** A set's .env text, exactly as answered (CONTRACT §10). */
  | { kind: 'env', text: string }
  | { kind: 'problem', status: number, problem: Problem }
  /** 429: seconds to wait, from Retry-After (undefined when it says nothing usable). */
  | { kind: 'rate-limited', wait?: number }
  /** An answer that is neither: an edge's HTML error page, a body that is not JSON, ... */
  | { kind: 'unexpected', status: number }
  | { kind: 'network' }

/** Retry-After as seconds: delay-seconds, or an HTTP date from now (RFC 9110 §10.2.3). */
export function retryAfterSeconds (header: string | null, now: number): number | undefined {
  if (header === null) return undefined
  const text = header.trim()
  if (/^\d+$/.test(text)) return Number(text)
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

async function json (response: Response): Promise<unknown> {
  try {
    return await response.json()
  } catch {
    return undefined
  }
}

async function post (path: string, body: unknown, accept: string, language: string, accessKey: string | undefined): Promise<Response | undefined> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: accept, 'Accept-Language': language }
  if (accessKey !== undefined) headers.Authorization = `Bearer ${accessKey}`
  try {
    return await fetch(path, { method: 'POST', headers, body: JSON.stringify(body), cache: 'no-store', referrerPolicy: 'no-referrer' })
  } catch {
    return undefined
  }
}

/** What an answer that is not a success says: a wait, a problem document, or nothing the page can read. */
async function failure (response: Response): Promise<Outcome> {
  if (response.status === 429) return { kind: 'rate-limited', wait: retryAfterSeconds(response.headers.get('Retry-After'), Date.now()) }
  const problem = await json(response)
  return typeof problem === 'object' && problem !== null && typeof (problem as Problem).detail === 'string'
    ? { kind: 'problem', status: response.status, problem: problem as Problem }
    : { kind: 'unexpected', status: response.status }
}

export async function generate (type: string, body: Record<string, unknown>, language: string, accessKey: string | undefined): Promise<Outcome> {
  const response = await post(`/api/generate/${encodeURIComponent(type)}`, body, 'application/json', language, accessKey)
  if (response === undefined) return { kind: 'network' }
  if (!response.ok) return await failure(response)
  const result = await json(response) as GenerationResult | undefined
  return Array.isArray(result?.values) ? { kind: 'values', result } : { kind: 'unexpected', status: response.status }
}

/** A set as a .env file: `items` as CONTRACT §10 takes them. */
export async function generateSet (items: unknown[], language: string, accessKey: string | undefined): Promise<Outcome> {
  const response = await post('/api/generate', { items }, 'text/plain', language, accessKey)
  if (response === undefined) return { kind: 'network' }
  if (!response.ok) return await failure(response)
  if (!(response.headers.get('Content-Type') ?? '').startsWith('text/plain')) return { kind: 'unexpected', status: response.status }
  try {
    return { kind: 'env', text: await response.text() }
  } catch {
    return { kind: 'network' }
  }
}

/** A set body's item (CONTRACT §10, §14.2), as a recipe holds it. */
export interface SetItem {
  name: string
  type: string
  params?: Record<string, unknown>
  hashName?: string
  publicKeyName?: string
}

/** CONTRACT §14.1: a recipe in GET /api/recipes. */
export interface RecipeSummary {
  id: string
  title: string
  group: string
  /** Every name of its .env answer, in order: each item's, then its derived lines'. */
  names: string[]
}

/** CONTRACT §14.1: GET /api/recipes/{id}, what the page reads of it. */
export interface RecipeDetail {
  id: string
  items: SetItem[]
  /** One English sentence for each name of its .env answer. */
  notes: Record<string, string>
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

async function getJson (path: string): Promise<unknown> {
  try {
    const response = await fetch(path, { headers: { Accept: 'application/json' }, referrerPolicy: 'no-referrer' })
    return response.ok ? await json(response) : undefined
  } catch {
    return undefined
  }
}

/** Every recipe (GET /api/recipes); undefined when the list could not be read. */
export async function listRecipes (): Promise<RecipeSummary[] | undefined> {
  const body = await getJson('/api/recipes')
  return isObject(body) && Array.isArray(body.recipes) ? body.recipes as RecipeSummary[] : undefined
}

/** One recipe's items and notes (GET /api/recipes/{id}); undefined when it could not be read. */
export async function readRecipe (id: string): Promise<RecipeDetail | undefined> {
  const body = await getJson(`/api/recipes/${encodeURIComponent(id)}`)
  return isObject(body) && Array.isArray(body.items) && isObject(body.notes) ? body as unknown as RecipeDetail : undefined
}
