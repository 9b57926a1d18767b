import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Instance } from 'autocannon';
import type { Scenario } from './scenarios';

const SESSION_CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'session-client.cjs');

export type LoadSettings = { durationSeconds: number; warmupSeconds: number; connections: number };

export type LoadResult = {
  scenario: Scenario;
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p97_5: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /**
   * CPU per request, warm-up included (estimated: the run's CPU over its requests scaled by the warm-up's
   * share of the time): the bench process (the server, and autocannon's worker) and PostgreSQL. Unlike
   * req/s and latency, which other work on the machine moves a lot, these show what a change costs.
   */
  cpuUsPerRequest?: { process: number; database: number };
};

let running: Instance | null = null;

/** Stops a load in progress (time budget exceeded or interrupted). */
export function stopLoad(): void {
  running?.stop?.();
}

/**
 * One bounded autocannon run. The load generator runs in a worker thread, so it does not share the
 * server's event loop (both still share the machine's cores with PostgreSQL).
 */
export async function runLoad(
  baseUrl: string,
  scenario: Scenario,
  tokens: { one: string; many: string[] },
  settings: LoadSettings,
): Promise<LoadResult> {
  if (scenario.sessions === 'many') process.env.BENCH_SESSION_TOKENS = tokens.many.join(',');
  running = autocannon({
    title: scenario.id,
    url: `${baseUrl}${scenario.path}`,
    method: 'GET',
    headers: { authorization: `Bearer ${tokens.one}`, accept: 'application/json' },
    connections: settings.connections,
    duration: settings.durationSeconds,
    warmup:
      settings.warmupSeconds > 0
        ? { connections: settings.connections, duration: settings.warmupSeconds }
        : undefined,
    timeout: 10,
    workers: 1,
    setupClient: scenario.sessions === 'many' ? SESSION_CLIENT : undefined,
  });
  try {
    const r = await running;
    const statusCodes = Object.fromEntries(
      Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]),
    );
    return {
      scenario,
      requestsPerSecond: r.requests.average,
      requests: r.requests.total,
      p50: r.latency.p50,
      p97_5: r.latency.p97_5,
      p99: r.latency.p99,
      max: r.latency.max,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      statusCodes,
    };
  } finally {
    running = null;
    delete process.env.BENCH_SESSION_TOKENS;
  }
}
