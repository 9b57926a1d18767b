import { sql } from 'drizzle-orm';
import { idArray } from '../access/scope';
import type { Queryable } from '../db/client';

/**
 * Population figures of large programs answered from a result at most `freshMs` old (ADR 077).
 *
 * A figure over a whole program's period (the KPI, alert analytics, the staff summary) aggregates tens of
 * thousands of rows: 60-250 ms of one core at 100,000 patients, the same for every staff member who opens it.
 * For programs of at least `minPatients` patients the answer is computed once per key and served to everyone
 * who asks for the same key while it is fresh; smaller programs are computed on every request as before (they
 * cost a few milliseconds and their users expect to see what they just did). Each key is computed by one
 * request at a time (the others wait for it). A result older than `freshMs` is still served, while one request
 * computes the next, until it is `3 × freshMs` old; older ones are computed while the caller waits.
 *
 * The cache is per process and holds at most `maxEntries` results (the least recently used go first). Keys
 * name the scope (program ids) and the parameters: the access rule has already decided the caller may read
 * that scope. Auditing stays per request, outside the cache.
 */
export type PopulationCache = {
  /** The value for `key`, computed by `compute` when the scope is small or the result missing or stale. */
  get<T>(key: string, population: number, compute: () => Promise<T>): Promise<{ value: T; at: number }>;
  /** How many results are held (tests). */
  size(): number;
};

type Entry = { value: unknown; at: number; refreshing: boolean };

export function createPopulationCache(options: {
  minPatients: number;
  freshMs: number;
  maxEntries?: number;
  now?: () => number;
  onError?: (err: unknown, key: string) => void;
}): PopulationCache {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 256;
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<{ value: unknown; at: number }>>();

  function store(key: string, value: unknown, at: number) {
    entries.delete(key);
    entries.set(key, { value, at, refreshing: false });
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  }

  function compute<T>(key: string, run: () => Promise<T>): Promise<{ value: T; at: number }> {
    const running = inFlight.get(key);
    if (running) return running as Promise<{ value: T; at: number }>;
    const at = now();
    const promise = run()
      .then((value) => {
        store(key, value, at);
        return { value, at };
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  }

  return {
    async get<T>(key: string, population: number, run: () => Promise<T>) {
      if (population < options.minPatients || options.freshMs <= 0) return { value: await run(), at: now() };
      const entry = entries.get(key);
      const age = entry ? now() - entry.at : Number.POSITIVE_INFINITY;
      if (entry && age < options.freshMs) {
        entries.delete(key);
        entries.set(key, entry);
        return { value: entry.value as T, at: entry.at };
      }
      if (entry && age < 3 * options.freshMs) {
        if (!entry.refreshing) {
          entry.refreshing = true;
          compute(key, run).catch((err) => {
            entry.refreshing = false;
            options.onError?.(err, key);
          });
        }
        return { value: entry.value as T, at: entry.at };
      }
      return compute(key, run);
    },
    size: () => entries.size,
  };
}

/** The number of patients of the programs, from the counts the patients' triggers keep (migration 0002). */
export async function patientsOfPrograms(db: Queryable, programIds: number[]): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`
    SELECT coalesce(sum(patients), 0)::int AS n FROM program_patient_counts
    WHERE program_id = ANY(${idArray(programIds)}::bigint[])`);
  return Number(res.rows[0]?.n ?? 0);
}

/** The cache as configured (POPULATION_CACHE_MIN_PATIENTS, POPULATION_CACHE_FRESH_MS); refresh failures logged. */
export function populationCacheOf(
  config: { POPULATION_CACHE_MIN_PATIENTS: number; POPULATION_CACHE_FRESH_MS: number },
  log: { error(obj: object, msg: string): void },
): PopulationCache {
  return createPopulationCache({
    minPatients: config.POPULATION_CACHE_MIN_PATIENTS,
    freshMs: config.POPULATION_CACHE_FRESH_MS,
    // The key names programs and dates only (no patient data).
    onError: (err, key) => log.error({ err, key }, 'population figure refresh failed'),
  });
}

/** Computes on every request (a service built without the configured cache: tests of the service alone). */
export const uncached: PopulationCache = createPopulationCache({ minPatients: 0, freshMs: 0 });
