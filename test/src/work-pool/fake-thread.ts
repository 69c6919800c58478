// A pool thread for test/src/work-pool/pool.test.ts: it speaks the pool's protocol
// (src/work-pool/thread.ts) but hashes nothing. Each job's settings carry a shared Int32Array (one
// SharedArrayBuffer for the whole test, so every thread and the test see the same cells) through
// which the test sees when each job starts and decides when it ends, without any timing.
import { parentPort } from 'node:worker_threads'

/** Cells of `control`: jobs running now, the most ever running at once, jobs started so far. */
export const RUNNING = 0
export const MOST_RUNNING = 1
export const STARTS = 2
/** Job `id`'s cells: its start's rank (1-based; 0 before it starts), then its gate (0 closed, 1 open). */
export const startCell = (id: number): number => 4 + 2 * id
export const gateCell = (id: number): number => 5 + 2 * id

export interface FakeSettings {
  algorithm: 'mosquitto'
  iterations: number
  id: number
  control: Int32Array
  /** Wait for the test to open the job's gate before answering. */
  gated: boolean
  /** fail: answer an error; crash: an uncaught error ends the thread; exit: the thread exits. */
  behaviour?: 'fail' | 'crash' | 'exit'
  /** The seconds the job reports having taken. */
  seconds: number
}

const port = parentPort
if (port !== null) {
  port.on('message', ({ settings, value }: { settings: FakeSettings, value: string }) => {
    const { control, id } = settings
    const running = Atomics.add(control, RUNNING, 1) + 1
    let most = Atomics.load(control, MOST_RUNNING)
    while (running > most) {
      const seen = Atomics.compareExchange(control, MOST_RUNNING, most, running)
      if (seen === most) break
      most = seen
    }
    Atomics.store(control, startCell(id), Atomics.add(control, STARTS, 1) + 1)
    Atomics.notify(control, startCell(id))
    // Blocks the thread as a synchronous hash would
    if (settings.gated) Atomics.wait(control, gateCell(id), 0)
    Atomics.sub(control, RUNNING, 1)
    if (settings.behaviour === 'fail') port.postMessage({ error: 'the fake primitive refused' })
    else if (settings.behaviour === 'crash') throw new Error('the fake thread crashed')
    else if (settings.behaviour === 'exit') process.exit(7)
    else port.postMessage({ hash: `hash:${value}`, seconds: settings.seconds })
  })
}
