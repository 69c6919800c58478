// TOTP URIs as QR codes drawn in the page (CONTRACT §8): encoded here by paulmillr's `qr`, bundled,
// and drawn as SVG elements; nothing is fetched and no third party sees the secret.
import encodeQR from 'qr'

const SVG = 'http://www.w3.org/2000/svg'

/** An SVG of `text` as a QR code: dark modules on white with the 4-module quiet zone scanners need. */
export function qrCode (text: string, label: string): SVGSVGElement {
  // Medium error correction: sturdy enough for a phone camera, fewer modules than quartile/high
  const modules = encodeQR(text, 'raw', { ecc: 'medium', border: 4 })
  const size = modules.length
  // One path of horizontal runs: a few kilobytes of markup however many modules are dark
  let path = ''
  modules.forEach((row, y) => {
    let x = 0
    while (x < size) {
      if (!row[x]) { x++; continue }
      const start = x
      while (x < size && row[x]) x++
      path += `M${start} ${y}h${x - start}v1h${start - x}z`
    }
  })
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`)
  svg.setAttribute('role', 'img')
  svg.setAttribute('aria-label', label)
  svg.setAttribute('shape-rendering', 'crispEdges')
  svg.setAttribute('data-qr', '')
  svg.setAttribute('class', 'qr')
  const background = document.createElementNS(SVG, 'rect')
  background.setAttribute('width', String(size))
  background.setAttribute('height', String(size))
  background.setAttribute('fill', '#fff')
  const dark = document.createElementNS(SVG, 'path')
  dark.setAttribute('d', path)
  dark.setAttribute('fill', '#000')
  svg.append(background, dark)
  return svg
}
