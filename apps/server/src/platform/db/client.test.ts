import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/harness';

describe('database pool', () => {
  it('survives the backend of a transaction in flight being terminated (restart, fail-over, admin kill)', async () => {
    const { db } = await testDatabase();
    const other = await testDatabase();
    let pid = 0;
    const inFlight = db.transaction(async (tx) => {
      const me = await tx.execute<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
      pid = Number(me.rows[0]!.pid);
      await tx.execute(sql`SELECT pg_sleep(30)`);
    });
    const settled = inFlight.then(
      () => 'committed',
      (err: Error) => err.message,
    );
    while (pid === 0) await new Promise((r) => setTimeout(r, 20));
    // Wait until the sleep is running, then end that backend from another connection.
    for (;;) {
      const state = await other.db.execute<{ query: string }>(
        sql`SELECT query FROM pg_stat_activity WHERE pid = ${pid}`,
      );
      if (String(state.rows[0]?.query ?? '').includes('pg_sleep')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await other.db.execute(sql`SELECT pg_terminate_backend(${pid})`);
    // The transaction fails (drizzle reports its failed rollback on the dead connection); it never commits.
    expect(await settled).not.toBe('committed');
    // The process is still here and the pool hands out a live connection for the next statement.
    const next = await db.execute<{ one: number }>(sql`SELECT 1 AS one`);
    expect(next.rows[0]!.one).toBe(1);
  });
});
