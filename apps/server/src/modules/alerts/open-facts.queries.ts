import { type SQL, sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

/**
 * Readers of the counts kept by triggers (migration 0049, ADR 057): `alert_open_facts` (unresolved, not hidden
 * alerts per patient), `alert_open_totals` (their sums per program and type) and `program_patient_counts.active`.
 * The kept counts ignore snoozes, which expire with the clock; every reader subtracts the few alerts snoozed
 * now, found from `alert_snoozes` by its `until` index. The answers equal counting the alerts themselves.
 */

/**
 * Up to this many programs, a page is read from each program's stretch of an index and merged; a wider scope
 * (an enterprise of many programs) is counted as before.
 */
export const KEPT_PROGRAMS = 10;
/** The board merges at most this many stretches of its index (programs × statuses). */
export const KEPT_STRETCHES = 30;
/**
 * The board's period or "unassigned" filter is answered as the kept total less the alerts it leaves out, when
 * those are at most this many (most open alerts are recent and unassigned); otherwise they are counted.
 */
export const COMPLEMENT_CAP = 5_000;

/** Unresolved alerts of the programs that a snooze hides now (a handful: a snooze lasts hours). */
export const snoozedNow = (programs: string) => sql`
  SELECT a.program_id, a.patient_id, a.type, a.status, a.hidden FROM alert_snoozes z
  JOIN alerts a ON a.patient_id = z.patient_id AND a.type = z.type AND a.condition_key = z.condition_key
   AND a.status <> 'resolved'
  WHERE z.until > now() AND a.program_id = ANY(${programs}::bigint[])`;

export type TileRow = {
  type: string;
  count: number;
  patients: number;
  unacknowledged: number;
  snoozed: number;
};

/**
 * One row per alert type with visible or snoozed unresolved alerts in the programs: the kept totals less what
 * is snoozed now (a patient leaves a type's count when every visible alert of the type is snoozed).
 */
export async function tiles(db: Queryable, programIds: number[]) {
  const programs = idArray(programIds);
  const res = await db.execute<TileRow>(sql`
    WITH s AS MATERIALIZED (${snoozedNow(programs)}),
    per_patient AS (
      SELECT program_id, patient_id, type, count(*)::int AS n, count(*) FILTER (WHERE status = 'open')::int AS o
      FROM s WHERE NOT hidden GROUP BY 1, 2, 3
    ),
    hidden_now AS (
      SELECT pp.program_id, pp.type, sum(pp.n)::int AS n, sum(pp.o)::int AS o,
             count(*) FILTER (WHERE (f.types -> pp.type ->> 0)::int = pp.n)::int AS patients
      FROM per_patient pp JOIN alert_open_facts f ON f.program_id = pp.program_id AND f.patient_id = pp.patient_id
      GROUP BY 1, 2
    ),
    snoozed AS (SELECT type, count(*)::int AS n FROM s GROUP BY type),
    tile AS (
      SELECT t.type,
             sum(t.alerts - coalesce(h.n, 0))::int AS count,
             sum(t.patients - coalesce(h.patients, 0))::int AS patients,
             sum(t.unacknowledged - coalesce(h.o, 0))::int AS unacknowledged
      FROM alert_open_totals t LEFT JOIN hidden_now h ON h.program_id = t.program_id AND h.type = t.type
      WHERE t.program_id = ANY(${programs}::bigint[]) AND t.type NOT LIKE '*%'
      GROUP BY t.type
    )
    SELECT coalesce(tile.type, snoozed.type) AS type, coalesce(tile.count, 0) AS count,
           coalesce(tile.patients, 0) AS patients, coalesce(tile.unacknowledged, 0) AS unacknowledged,
           coalesce(snoozed.n, 0) AS snoozed
    FROM tile FULL JOIN snoozed ON snoozed.type = tile.type
    WHERE coalesce(tile.count, 0) > 0 OR coalesce(snoozed.n, 0) > 0
    UNION ALL
    -- Texts from unknown numbers belong to no patient: the tile counts the numbers with unread ones.
    SELECT 'temp_text_messages', count(DISTINCT s.phone)::int, 0, count(DISTINCT s.phone)::int, 0
    FROM sms_messages s
    WHERE s.patient_id IS NULL AND s.direction = 'inbound' AND NOT s.is_read
      AND s.program_id = ANY(${programs}::bigint[])
    HAVING count(*) > 0`);
  return res.rows;
}

/**
 * Active patients of the programs, and how many of them have an unresolved, visible, not snoozed alert: one
 * row of each kept table, less the active patients whose every visible alert is snoozed now.
 */
export async function keptPatientCounts(db: Queryable, programIds: number[]) {
  const programs = idArray(programIds);
  const res = await db.execute<{ patients: number; with_alerts: number }>(sql`
    WITH s AS MATERIALIZED (${snoozedNow(programs)})
    SELECT (SELECT coalesce(sum(active), 0) FROM program_patient_counts
            WHERE program_id = ANY(${programs}::bigint[]))::int AS patients,
           ((SELECT coalesce(sum(patients), 0) FROM alert_open_totals
             WHERE program_id = ANY(${programs}::bigint[]) AND type = '*active')
            - (SELECT count(*) FROM (
                 SELECT program_id, patient_id, count(*)::int AS n FROM s WHERE NOT hidden GROUP BY 1, 2) x
               JOIN alert_open_facts f ON f.program_id = x.program_id AND f.patient_id = x.patient_id
               WHERE f.active AND f.total = x.n))::int AS with_alerts`);
  return res.rows[0]!;
}

/** The statuses of the board's filter, as columns of `alert_open_totals`. */
const STATUS_COLUMN: Record<string, string> = {
  open: 'unacknowledged',
  acknowledged: 'acknowledged',
  escalated: 'escalated',
};

/**
 * How many unresolved, visible, not snoozed alerts of the statuses (and of one type, or all) the programs
 * hold, from the kept totals; null when a status is not one the totals keep (resolved).
 */
export async function keptAlertCount(
  db: Queryable,
  programIds: number[],
  statuses: string[],
  type: string | null,
): Promise<number | null> {
  if (statuses.length === 0 || statuses.some((s) => !(s in STATUS_COLUMN))) return null;
  const programs = idArray(programIds);
  const columns = sql.raw([...new Set(statuses)].map((s) => STATUS_COLUMN[s]).join(' + '));
  const res = await db.execute<{ n: number }>(sql`
    SELECT ((SELECT coalesce(sum(${columns}), 0) FROM alert_open_totals
             WHERE program_id = ANY(${programs}::bigint[]) AND type = ${type ?? '*'})
          - (SELECT count(*) FROM (${snoozedNow(programs)}) s
             WHERE NOT s.hidden AND s.status = ANY(${`{${statuses.join(',')}}`}::text[])
               ${type === null ? sql`` : sql`AND s.type = ${type}`}))::int AS n`);
  return res.rows[0]?.n ?? 0;
}

/**
 * A page of `count` rows in an order, together with a total known beforehand: when the page lies in the
 * second half, it is read from the other end (ascending), so the last page costs what the first does.
 */
export function fromNearerEnd(total: number, offset: number, limit: number) {
  if (offset < total / 2 || offset >= total) return { reverse: false, offset, limit };
  const end = total - offset;
  return { reverse: true, offset: Math.max(0, end - limit), limit: Math.min(limit, end) };
}

/** The triage order, as `alert_open_facts_triage_idx` holds it. */
const RANKING = sql`escalated DESC NULLS LAST, total DESC NULLS LAST, last_at DESC NULLS LAST, patient_id`;

/**
 * The triage ranking's page (escalated first, then the most open alerts, then the newest) from the kept rows
 * in index order, and its total from the kept sums. Patients with an alert snoozed now are ranked from their
 * alerts instead (counted live) and merged in. `build` turns the `page` rows into the answer's rows.
 */
export async function keptTriagePage<T extends Record<string, unknown>>(
  db: Queryable,
  programIds: number[],
  offset: number,
  limit: number,
  snoozeOf: (alias: string) => SQL,
  build: SQL,
  buildOrder: SQL,
): Promise<{ rows: T[]; total: number }> {
  const programs = idArray(programIds);
  const res = await db.execute<T & { page_matches: number; page_present: boolean | null }>(sql`
    WITH s AS MATERIALIZED (${snoozedNow(programs)}),
    touched AS MATERIALIZED (SELECT DISTINCT program_id, patient_id FROM s WHERE NOT hidden),
    live AS MATERIALIZED (
      SELECT a.patient_id, count(*)::int AS total, count(*) FILTER (WHERE a.status = 'open')::int AS unacknowledged,
             count(*) FILTER (WHERE a.status = 'escalated')::int AS escalated, max(a.last_at) AS last_at
      FROM alerts a JOIN touched t ON t.program_id = a.program_id AND t.patient_id = a.patient_id
      WHERE a.status <> 'resolved' AND NOT a.hidden AND ${snoozeOf('a')} IS NULL
      GROUP BY a.patient_id
    ),
    kept AS (
      SELECT * FROM (${sql.join(
        programIds.map(
          (programId) => sql`(SELECT f.patient_id, f.total, f.unacknowledged, f.escalated, f.last_at
            FROM alert_open_facts f
            WHERE f.program_id = ${programId} AND f.total > 0
              AND NOT EXISTS (SELECT 1 FROM touched t WHERE t.program_id = f.program_id AND t.patient_id = f.patient_id)
            ORDER BY ${RANKING} LIMIT ${offset + limit})`,
        ),
        sql` UNION ALL `,
      )}) k
    ),
    page AS (
      SELECT * FROM (SELECT * FROM kept UNION ALL SELECT * FROM live) x
      ORDER BY ${RANKING} LIMIT ${limit} OFFSET ${offset}
    )
    SELECT c.page_matches, x.* FROM (SELECT (
        (SELECT coalesce(sum(patients), 0) FROM alert_open_totals
         WHERE program_id = ANY(${programs}::bigint[]) AND type = '*')
        - (SELECT count(*) FROM touched t
           JOIN alert_open_facts f ON f.program_id = t.program_id AND f.patient_id = t.patient_id WHERE f.total > 0)
        + (SELECT count(*) FROM live))::int AS page_matches) c
    LEFT JOIN LATERAL (SELECT true AS page_present, b.* FROM (${build}) b) x ON true
    ORDER BY ${buildOrder}`);
  const total = res.rows[0]?.page_matches ?? 0;
  const rows = res.rows
    .filter((r) => r.page_present === true)
    .map(({ page_matches: _m, page_present: _p, ...r }) => r as unknown as T);
  return { rows, total };
}
