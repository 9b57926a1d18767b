import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from './client';

/**
 * A page of a list and the count of every match, in one statement (ADR 069). The matches are found and
 * counted on `hits` (a SELECT of ids and sort keys, without the joins and JSON of the answer); the page is cut
 * there by `order`, and only its rows are joined and built by `build`, a SELECT reading the CTE `page` (the
 * hits' columns). `count(*) OVER ()` over the built rows built every match before the page was cut (27,752
 * alerts for a page of 25 at 100,000 patients). A page past the end still answers the total.
 *
 * `buildOrder` orders the built rows (columns of `build`'s output, named through the alias `x`).
 */
export async function pageOfHits<T extends Record<string, unknown>>(
  db: Queryable,
  q: { hits: SQL; order: SQL; limit: number; offset: number; build: SQL; buildOrder: SQL },
): Promise<{ rows: T[]; total: number }> {
  const res = await db.execute<T & { page_matches: number; page_present: boolean | null }>(sql`
    WITH hits AS MATERIALIZED (${q.hits}), page AS (
      SELECT * FROM hits ORDER BY ${q.order} LIMIT ${q.limit} OFFSET ${q.offset}
    )
    SELECT c.page_matches, x.* FROM (SELECT count(*)::int AS page_matches FROM hits) c
    LEFT JOIN LATERAL (SELECT true AS page_present, b.* FROM (${q.build}) b) x ON true
    ORDER BY ${q.buildOrder}`);
  const total = res.rows[0]?.page_matches ?? 0;
  const rows = res.rows
    .filter((r) => r.page_present === true)
    .map(({ page_matches: _m, page_present: _p, ...r }) => r as unknown as T);
  return { rows, total };
}
