import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { unique } from '../../seed/unique';

/** Tenancy factories (`given.enterprise()`, `given.program()`), shared by tests, the demo seed and the bench. */

export async function createEnterprise(db: Queryable, input: { name?: string; slug?: string } = {}) {
  const tag = unique();
  const o = { name: input.name ?? `Enterprise ${tag}`, slug: input.slug ?? `enterprise-${tag}` };
  const res = await db.execute<{ id: number }>(
    sql`INSERT INTO enterprises (name, slug) VALUES (${o.name}, ${o.slug}) RETURNING id`,
  );
  return { id: res.rows[0]!.id, ...o };
}

export async function createProgram(
  db: Queryable,
  input: {
    name?: string;
    slug?: string;
    enterpriseId?: number | null;
    type?: 'monitoring' | 'pharma' | 'pharmacy';
    modules?: string[];
  } = {},
) {
  const tag = unique();
  const o = {
    ...input,
    name: input.name ?? `Program ${tag}`,
    slug: input.slug ?? `program-${tag}`,
    enterpriseId: input.enterpriseId ?? null,
  };
  const modules = o.modules ?? ['patients'];
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO programs (name, slug, enterprise_id, type, modules)
    VALUES (${o.name}, ${o.slug}, ${o.enterpriseId}, ${o.type ?? 'monitoring'},
      ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(modules)}::jsonb)))
    RETURNING id`);
  return { id: res.rows[0]!.id, ...o };
}
