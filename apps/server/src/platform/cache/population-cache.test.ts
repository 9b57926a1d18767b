import { describe, expect, it } from 'vitest';
import { createPopulationCache } from './population-cache';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** A computation that counts its runs and can be held open to observe what waits for it. */
function counter() {
  let runs = 0;
  let release: (() => void) | null = null;
  return {
    runs: () => runs,
    compute: async () => {
      runs++;
      return runs;
    },
    held: () => {
      runs++;
      const n = runs;
      return new Promise<number>((resolve) => {
        release = () => resolve(n);
      });
    },
    release: () => release?.(),
  };
}

describe('population cache (ADR 077)', () => {
  it('computes every time for a scope under the size, so small programs see what they just did', async () => {
    const c = createPopulationCache({ minPatients: 100, freshMs: 30_000 });
    const n = counter();
    expect((await c.get('k', 99, n.compute)).value).toBe(1);
    expect((await c.get('k', 99, n.compute)).value).toBe(2);
    expect(c.size()).toBe(0);
  });

  it('serves a large scope from one computation while it is fresh, saying when it was computed', async () => {
    const t = clock();
    const c = createPopulationCache({ minPatients: 100, freshMs: 30_000, now: t.now });
    const n = counter();
    const first = await c.get('k', 100, n.compute);
    t.advance(29_999);
    const second = await c.get('k', 100, n.compute);
    expect(second).toEqual(first);
    expect(second.at).toBe(1_000_000);
    expect(n.runs()).toBe(1);
    // Another key (another program or period) is computed on its own.
    expect((await c.get('other', 100, n.compute)).value).toBe(2);
  });

  it('computes a key once for callers arriving together', async () => {
    const c = createPopulationCache({ minPatients: 1, freshMs: 30_000 });
    const n = counter();
    const a = c.get('k', 5, n.held);
    const b = c.get('k', 5, n.held);
    n.release();
    expect((await a).value).toBe(1);
    expect((await b).value).toBe(1);
    expect(n.runs()).toBe(1);
  });

  it('serves a stale result while one request computes the next, then the new one', async () => {
    const t = clock();
    const c = createPopulationCache({ minPatients: 1, freshMs: 1_000, now: t.now });
    const n = counter();
    await c.get('k', 5, n.compute);
    t.advance(1_500);
    const stale = c.get('k', 5, n.held);
    const alsoStale = c.get('k', 5, n.held);
    expect((await stale).value).toBe(1);
    expect((await alsoStale).value).toBe(1);
    expect(n.runs()).toBe(2);
    n.release();
    await new Promise((r) => setTimeout(r, 0));
    const fresh = await c.get('k', 5, n.compute);
    expect(fresh.value).toBe(2);
    expect(fresh.at).toBe(1_001_500);
  });

  it('makes the caller wait for a result older than three times the freshness', async () => {
    const t = clock();
    const c = createPopulationCache({ minPatients: 1, freshMs: 1_000, now: t.now });
    const n = counter();
    await c.get('k', 5, n.compute);
    t.advance(3_000);
    expect((await c.get('k', 5, n.compute)).value).toBe(2);
  });

  it('keeps serving the stale result when a refresh fails, and tries again on the next request', async () => {
    const t = clock();
    const errors: string[] = [];
    const c = createPopulationCache({
      minPatients: 1,
      freshMs: 1_000,
      now: t.now,
      onError: (_e, key) => errors.push(key),
    });
    await c.get('k', 5, async () => 'old');
    t.advance(1_500);
    const stale = await c.get('k', 5, () => Promise.reject(new Error('database gone')));
    expect(stale.value).toBe('old');
    await new Promise((r) => setTimeout(r, 0));
    expect(errors).toEqual(['k']);
    await c.get('k', 5, async () => 'new');
    await new Promise((r) => setTimeout(r, 0));
    expect((await c.get('k', 5, async () => 'newer')).value).toBe('new');
  });

  it('a failed computation is not kept: the next caller computes again', async () => {
    const c = createPopulationCache({ minPatients: 1, freshMs: 30_000 });
    await expect(c.get('k', 5, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect((await c.get('k', 5, async () => 7)).value).toBe(7);
  });

  it('holds at most maxEntries results, dropping the least recently used', async () => {
    const c = createPopulationCache({ minPatients: 1, freshMs: 30_000, maxEntries: 2 });
    const n = counter();
    await c.get('a', 5, n.compute);
    await c.get('b', 5, n.compute);
    await c.get('a', 5, n.compute);
    await c.get('c', 5, n.compute);
    expect(c.size()).toBe(2);
    expect((await c.get('a', 5, n.compute)).value).toBe(1);
    expect((await c.get('b', 5, n.compute)).value).toBe(4);
  });

  it('freshness 0 turns the cache off', async () => {
    const c = createPopulationCache({ minPatients: 0, freshMs: 0 });
    const n = counter();
    await c.get('k', 1_000_000, n.compute);
    await c.get('k', 1_000_000, n.compute);
    expect(n.runs()).toBe(2);
  });
});
