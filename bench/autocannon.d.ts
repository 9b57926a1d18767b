// The subset of autocannon 9's API the benchmark uses (no @types package is installed).
declare module 'autocannon' {
  type Percentiles = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  };

  export type Options = {
    url: string;
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    timeout?: number;
    workers?: number;
    /** In workers mode: the path of a CommonJS module exporting `(client) => void`. */
    setupClient?: string;
    warmup?: { connections?: number; duration?: number };
    title?: string;
  };

  export type Result = {
    title?: string;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Percentiles;
    requests: Percentiles & { sent: number };
    throughput: Percentiles;
  };

  // `stop` is only set once the measured phase has started (not during a warm-up).
  export type Instance = PromiseLike<Result> & { stop?: () => void };

  export default function autocannon(opts: Options): Instance;
}
