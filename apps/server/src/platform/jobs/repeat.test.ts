import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { singleFlight } from './repeat';
import { timeSlicer } from './yield';

describe('background jobs on the API event loop', () => {
  it('drops the ticks a slow run overlaps instead of queueing runs', async () => {
    let runs = 0;
    let release: () => void = () => {};
    const runner = singleFlight(
      () => {
        runs++;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      () => {},
    );
    runner.tick();
    for (let i = 0; i < 10; i++) runner.tick(); // ten intervals pass while the first run works
    expect(runs).toBe(1);
    release();
    await runner.idle();
    expect(runner.running()).toBe(false);
    runner.tick();
    expect(runs).toBe(2);
    release();
    await runner.idle();
  });

  it('reports a failed run and runs again on the next tick', async () => {
    const errors: string[] = [];
    let runs = 0;
    const runner = singleFlight(
      async () => {
        runs++;
        throw new Error('database gone');
      },
      (err) => errors.push(err.message),
    );
    runner.tick();
    await runner.idle();
    runner.tick();
    await runner.idle();
    expect(runs).toBe(2);
    expect(errors).toEqual(['database gone', 'database gone']);
  });

  it('gives the event loop back inside a long loop once its budget is spent', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('request'));
    const slice = timeSlicer(0);
    for (let i = 0; i < 3; i++) {
      order.push(`item ${i}`);
      await slice();
    }
    expect(order.indexOf('request')).toBeLessThan(order.indexOf('item 2'));
  });

  it('does not yield while within its budget', async () => {
    const order: string[] = [];
    const slice = timeSlicer(60_000);
    await nextTurn();
    setImmediate(() => order.push('request'));
    for (let i = 0; i < 3; i++) {
      order.push(`item ${i}`);
      await slice();
    }
    order.push('done');
    expect(order).toEqual(['item 0', 'item 1', 'item 2', 'done']); // the waiting callback still waits
  });
});
