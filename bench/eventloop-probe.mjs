// A bench-only preload (`node --import ./bench/eventloop-probe.mjs dist/server.js`) for
// bench/hash-flood.ts: the server's event-loop delay, read from outside without changing the
// service. Node's own monitorEventLoopDelay samples the main thread's loop every RESOLUTION_MS (a
// libuv timer in C++); each SIGWINCH appends the delays recorded since the previous one to
// BENCH_ELD_FILE as a JSON line, then starts over. SIGWINCH because its default is to be ignored
// and the service does not listen to it (close-with-grace closes the server on SIGUSR2, SIGHUP …). Delays are in ms with the timer's own interval
// taken out: the histogram records the time between two ticks, i.e. the interval plus the delay
// (Prometheus's nodejs_eventloop_lag_p99_seconds, at a 10 ms interval, reads 10 ms on an idle loop).
// Hashing threads load preloads too; only the main thread's loop is measured.
import { appendFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { isMainThread } from 'node:worker_threads'

const RESOLUTION_MS = 1
const file = process.env.BENCH_ELD_FILE

if (isMainThread && file !== undefined && file !== '') {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  histogram.enable()
  const delay = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS)
  process.on('SIGWINCH', () => {
    appendFileSync(file, JSON.stringify({
      samples: histogram.count,
      p50: delay(histogram.percentile(50)),
      p99: delay(histogram.percentile(99)),
      max: delay(histogram.max)
    }) + '\n')
    histogram.reset()
  })
}
