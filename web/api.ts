// The page's one kind of request (CONTRACT §8): POST /api/generate/<type>, the parameters as a
// JSON body, the page's language in Accept-Language; never GET, X-Data or a query string. Same
// origin only (a relative path; the CSP's connect-src 'self' holds it there too).

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

export async function generate (type: string, body: Record<string, unknown>, language: string, accessKey: string | undefined): Promise<Outcome> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': language }
  if (accessKey !== undefined) headers.Authorization = `Bearer ${accessKey}`
  let response: Response
  try {
    response = await fetch(`/api/generate/${encodeURIComponent(type)}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      cache: 'no-store',
      referrerPolicy: 'no-referrer'
    })
  } catch {
    return { kind: 'network' }
  }
  if (response.status === 429) return { kind: 'rate-limited', wait: retryAfterSeconds(response.headers.get('Retry-After'), Date.now()) }
  const data = await json(response)
  if (typeof data !== 'object' || data === null) return { kind: 'unexpected', status: response.status }
  if (response.ok) {
    const result = data as GenerationResult
    return Array.isArray(result.values) ? { kind: 'values', result } : { kind: 'unexpected', status: response.status }
  }
  const problem = data as Problem
  return typeof problem.detail === 'string' ? { kind: 'problem', status: response.status, problem } : { kind: 'unexpected', status: response.status }
}
