/**
 * Saves text as a file, made in the page (a blob: URL, never a request): the URL is revoked once
 * the browser has taken the download, so the key does not stay reachable from the page.
 */
export function saveFile (name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
