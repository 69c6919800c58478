// The part of autocannon's programmatic API the harness uses (the package ships no types).
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
  interface AutocannonOptions extends AutocannonRequest {
    url: string
    connections?: number
    pipelining?: number
    duration?: number
    amount?: number
    timeout?: number
    requests?: AutocannonRequest[]
  }
  interface Histogram {
    average: number
    mean: number
    p50: number
    p99: number
    p99_9: number
    max: number
    total: number
  }
  interface AutocannonResult {
    latency: Histogram
    requests: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
  }
  interface AutocannonInstance extends PromiseLike<AutocannonResult> {
    on (event: 'response', listener: () => void): void
    stop (): void
  }
  function autocannon (options: AutocannonOptions): AutocannonInstance
  export default autocannon
}
