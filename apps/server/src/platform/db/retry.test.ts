import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/harness';
import type { Database } from './client';
import { isConflict, retryConflicts } from './retry';

let db: Database;
beforeAll(async () => {
  ({ db } = await testDatabase());
});

describe('retryConflicts', () => {
  it('runs a transaction again after a real deadlock, and only then', async () => {
    await db.execute(sql`CREATE TABLE retry_probe (id int PRIMARY KEY, n int NOT NULL)`);
    await db.execute(sql`INSERT INTO retry_probe VALUES (1, 0), (2, 0)`);
    // Two transactions lock the two rows in opposite orders: PostgreSQL stops one of them.
    const cross = (first: number, second: number) =>
      retryConflicts(() =>
        db.transaction(async (tx) => {
          await tx.execute(sql`UPDATE retry_probe SET n = n + 1 WHERE id = ${first}`);
          await tx.execute(sql`SELECT pg_sleep(0.3)`);
          await tx.execute(sql`UPDATE retry_probe SET n = n + 1 WHERE id = ${second}`);
        }),
      );
    await Promise.all([cross(1, 2), cross(2, 1)]);
    const rows = await db.execute<{ n: number }>(sql`SELECT n FROM retry_probe ORDER BY id`);
    // Both transactions' writes landed once each: the stopped one was run again, whole.
    expect(rows.rows.map((r) => r.n)).toEqual([2, 2]);
  });

  it('throws other errors at once', async () => {
    let runs = 0;
    await expect(
      retryConflicts(async () => {
        runs++;
        await db.execute(sql`SELECT 1 / 0`);
      }),
    ).rejects.toThrow();
    expect(runs).toBe(1);
    expect(isConflict(new Error('x'))).toBe(false);
    expect(isConflict({ cause: { code: '40P01' } })).toBe(true);
  });
});
