// The chart of the HTTP results: a Vega-Lite spec compiled to Vega and rendered to SVG headless.
import { compile, type TopLevelSpec } from 'vega-lite'
import { parse, View } from 'vega'

export interface ChartRow {
  row: string
  group: string
  rpsRatio: number
  p99Ratio: number
  cpuRatio: number
}

const GROUP_TITLES: Record<string, string> = {
  default: 'defaults (POST)',
  get: 'GET with X-Data',
  option: 'options at quantity 1',
  abuse: 'worst bodies (400)',
  heaviest: 'heaviest parameters',
  health: 'health',
  floor: 'contract floor',
  bare: 'bare Fastify (no headers)',
  ceiling: 'node:http ceiling'
}

function panel (title: string, field: 'rpsRatio' | 'p99Ratio', targets: Array<{ value: number, label: string }>, extra: object[] = [], scale: object = {}): object {
  return {
    title,
    width: 300,
    height: { step: 16 },
    layer: [
      {
        mark: 'bar',
        encoding: {
          y: { field: 'row', type: 'nominal', sort: null, title: null },
          x: { field, type: 'quantitative', title: '× bare Fastify', scale },
          color: { field: 'groupTitle', type: 'nominal', title: 'rows', sort: Object.values(GROUP_TITLES) }
        }
      },
      {
        mark: { type: 'text', align: 'left', dx: 3, fontSize: 10 },
        encoding: {
          y: { field: 'row', type: 'nominal', sort: null },
          x: { field, type: 'quantitative' },
          text: { field, type: 'quantitative', format: '.2f' }
        }
      },
      {
        data: { values: targets },
        mark: { type: 'rule', strokeDash: [4, 3], color: '#555' },
        encoding: { x: { field: 'value', type: 'quantitative' } }
      },
      ...extra
    ]
  }
}

/** The SVG of two panels: throughput and p99 latency, each as a ratio to the reference (bare Fastify with randgen's headers). */
export async function renderChart (rows: ChartRow[], subtitle: string): Promise<string> {
  const values = rows.map((row) => ({ ...row, groupTitle: GROUP_TITLES[row.group] ?? row.group }))
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'randgen vs bare Fastify 5 with randgen\'s headers (64 connections)', subtitle },
    data: { values },
    hconcat: [
      panel('Throughput: req/s ÷ reference (bars), CPU ratio (◆); CPU targets 0.90 (floor) / 0.85 (password)', 'rpsRatio', [{ value: 0.85, label: '0.85' }, { value: 0.9, label: '0.9' }, { value: 1, label: '1' }], [{
        mark: { type: 'point', shape: 'diamond', filled: true, color: 'black', size: 40 },
        encoding: {
          y: { field: 'row', type: 'nominal', sort: null },
          x: { field: 'cpuRatio', type: 'quantitative' },
          tooltip: { field: 'cpuRatio', type: 'quantitative', format: '.2f' }
        }
      }]),
      panel('p99 latency ÷ reference p99 (log scale)', 'p99Ratio', [{ value: 1, label: '1' }, { value: 1.5, label: '1.5' }], [], { type: 'log' })
    ],
    config: { font: 'sans-serif', view: { stroke: null } }
  } as unknown as TopLevelSpec
  const view = new View(parse(compile(spec).spec), { renderer: 'none' })
  return await view.toSVG()
}
