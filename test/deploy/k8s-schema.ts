// Kubernetes manifests checked against the Kubernetes API's own schemas, as kubernetes-models
// generates them from the API's OpenAPI document (Kubernetes 1.36.0), and the Prometheus
// Operator's ServiceMonitor against its CRD's (@kubernetes-models/prometheus-operator), in two ways:
// - its validators: types, required fields, enums and formats (a quantity, an int32);
// - its TypeScript interfaces, generated from the same definitions, with TypeScript's check of an
//   object literal: a field the interface does not have is an error. The OpenAPI schemas have no
//   `additionalProperties: false`, so the validators alone pass a misspelt field, which the API
//   server drops without a word (or, with kubectl's strict field validation, refuses).
import { join } from 'node:path'
import ts from 'typescript'
import type { ErrorObject } from 'ajv'
import { ROOT } from './deploy-files.js'

export type Manifest = Record<string, any>

// `apps/v1`, `v1`, `autoscaling/v2`: what names a kubernetes-models module (and nothing else)
const API_VERSION = /^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/
const KIND = /^[A-Z][A-Za-z0-9]*$/

function named (document: Manifest): boolean {
  return typeof document.apiVersion === 'string' && API_VERSION.test(document.apiVersion) &&
    typeof document.kind === 'string' && KIND.test(document.kind)
}

const unnamed = (document: Manifest): string => `no Kubernetes schema for apiVersion ${document.apiVersion}, kind ${document.kind}`

/**
 * The module with an apiVersion's models: the Kubernetes API's own in kubernetes-models, the
 * Prometheus Operator's custom resources (ServiceMonitor) in its sibling package, generated the
 * same way from the operator's CRDs.
 */
function modelModule (apiVersion: string): string {
  return apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : `kubernetes-models/${apiVersion}`
}

/** The schema validator's complaints about one document ([] when it is valid). */
export async function schemaErrors (document: Manifest): Promise<string[]> {
  if (!named(document)) return [unnamed(document)]
  const models = await import(modelModule(document.apiVersion)).catch(() => ({}))
  const Model = models[document.kind]
  if (typeof Model !== 'function') return [unnamed(document)]
  try {
    new Model(document).validate()
    return []
  } catch (error) {
    // kubernetes-models' ValidationError carries Ajv's errors
    return (error as { errors: ErrorObject[] }).errors.map(({ instancePath, message }) => `${instancePath || '/'} ${message as string}`)
  }
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: [],
  skipLibCheck: true
}

/**
 * TypeScript's complaints about each document assigned to the interface of its kind: unknown
 * fields, wrong types, missing required fields. One program for all of them (about 2 s).
 * TypeScript stops at the first problem of an assignment, so a document with two shows one.
 */
export function fieldErrors (documents: Manifest[]): string[][] {
  // In memory, beside this file, so that `kubernetes-models` resolves from the repo's node_modules
  const files = documents.map((_document, index) => join(ROOT, 'test/deploy', `k8s-manifest-${index}.ts`))
  const sources = new Map(documents.map((document, index) => [files[index] as string, named(document)
    ? `import type { I${document.kind} as Manifest } from '${modelModule(document.apiVersion)}/${document.kind}'\n` +
      `export const manifest: Manifest = ${JSON.stringify(document, null, 2)}\n`
    : '']))
  const host = ts.createCompilerHost(COMPILER_OPTIONS)
  const { fileExists, getSourceFile, readFile } = host
  host.fileExists = (name) => sources.has(name) || fileExists(name)
  host.readFile = (name) => sources.get(name) ?? readFile(name)
  host.getSourceFile = (name, language, ...rest) => {
    const source = sources.get(name)
    return source === undefined ? getSourceFile(name, language, ...rest) : ts.createSourceFile(name, source, language)
  }
  const program = ts.createProgram(files, COMPILER_OPTIONS, host)
  return documents.map((document, index) => {
    if (!named(document)) return [unnamed(document)]
    const file = program.getSourceFile(files[index] as string) as ts.SourceFile
    return ts.getPreEmitDiagnostics(program, file).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')
      // The line of the document's JSON it points at, e.g. `"readinessProbes": {`
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
      return `${message} (at ${file.text.split('\n')[line]?.trim()})`
    })
  })
}

/** Both checks' complaints about each document ([] for a valid one). */
export async function manifestErrors (documents: Manifest[]): Promise<string[][]> {
  const fields = fieldErrors(documents)
  return Promise.all(documents.map(async (document, index) => [...await schemaErrors(document), ...fields[index] as string[]]))
}
