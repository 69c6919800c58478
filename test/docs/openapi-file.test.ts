// `npm run openapi` / `openapi:check`: the text they write and compare, and the drift report.
import t from 'tap'
import { readFile } from 'node:fs/promises'
import { documentText, firstDifference, servedDocumentText, OPENAPI_FILE } from '../../scripts/openapi-document.js'

t.test('the committed openapi.json is the served document', async (t) => {
  t.equal(firstDifference(await servedDocumentText(), await readFile(OPENAPI_FILE, 'utf8')), undefined)
})

t.test('pretty-printed with a final newline', async (t) => {
  t.equal(documentText({ a: [1], b: 'x' }), '{\n  "a": [\n    1\n  ],\n  "b": "x"\n}\n')
})

t.test('drift is reported with the first differing line', async (t) => {
  const served = documentText({ info: { version: '1.0.0' }, paths: {} })
  t.equal(firstDifference(served, served), undefined)
  t.equal(firstDifference(served, served.replace('1.0.0', '0.9.0')), 'line 3: served "    \\"version\\": \\"1.0.0\\"", file "    \\"version\\": \\"0.9.0\\""')
  t.equal(firstDifference(served, ''), 'line 1: served "{", file ""')
  t.equal(firstDifference(served, `${served}\n`), 'line 8: served "<end>", file ""', 'an extra line in the file')
  t.equal(firstDifference(`${served}\n`, served), 'line 8: served "", file "<end>"', 'a missing line in the file')
})
