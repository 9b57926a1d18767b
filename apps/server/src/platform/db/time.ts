import { type SQL, sql } from 'drizzle-orm';

/** A timestamptz as the API writes times: ISO 8601 in UTC with milliseconds (`2026-11-25T01:02:03.456Z`). */
export function isoUtc(column: SQL): SQL {
  return sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
