import type { StatusChangeSource, StatusLogEntry } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { containsPattern } from '../../platform/db/like';
import { isoUtc } from '../../platform/db/time';

export type StatusLogFilter = {
  programIds: number[];
  /** First and last UTC day of the period, YYYY-MM-DD. */
  from: string;
  to: string;
  status?: string;
  adminId?: number;
  source?: StatusChangeSource;
  search?: string;
  page: number;
  perPage: number;
};

const idArray = (ids: number[]) => `{${ids.map(Number).filter(Number.isSafeInteger).join(',')}}`;

/**
 * The patients a search names: every word in the first or last name (trigram indexes), or the MRN exactly
 * (the program's MRN index). Their changes are then read through the patient index: a search names few patients,
 * and walking the program's whole period to test each change against them cost 100 times more (bench).
 */
function matchedPatients(programIds: string, search: string): SQL {
  const words = search.split(/\s+/).filter(Boolean).slice(0, 5);
  const names = sql.join(
    words.map(
      (w) => sql`(p.first_name ILIKE ${containsPattern(w)} OR p.last_name ILIKE ${containsPattern(w)})`,
    ),
    sql` AND `,
  );
  return sql`SELECT p.id FROM patients p WHERE p.program_id = ANY(${programIds}::bigint[])
    AND ((${names}) OR (p.mrn IS NOT NULL AND lower(p.mrn) = ${search.toLowerCase()}))`;
}

/** Every condition but the program and the patient search: the period (UTC days, end included) and filters. */
function conditions(f: StatusLogFilter): SQL {
  const parts: SQL[] = [
    sql`h.created_at >= (${f.from}::date)::timestamp AT TIME ZONE 'UTC'`,
    sql`h.created_at < (${f.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`,
  ];
  if (f.status) parts.push(sql`h.status = ${f.status}`);
  if (f.adminId) parts.push(sql`h.admin_id = ${f.adminId}`);
  if (f.source) parts.push(sql`h.source = ${f.source}`);
  return sql.join(parts, sql` AND `);
}

/**
 * One page of the programs' status changes, newest first, and their total. Each program's changes are read
 * backwards through (program_id, created_at, id): page 1 is the top of the index, not a sort of the period.
 * Several programs: each one's first offset + page rows through its own index, merged (as the patients list).
 * Only the page's ids are chosen over the index; its 10–100 rows are then read whole with their names.
 */
export async function statusLogPage(
  db: Queryable,
  f: StatusLogFilter,
): Promise<{ rows: StatusLogEntry[]; total: number }> {
  const ids = f.programIds.map(Number).filter(Number.isSafeInteger);
  if (ids.length === 0) return { rows: [], total: 0 };
  const programs = idArray(ids);
  const where = conditions(f);
  const offset = (f.page - 1) * f.perPage;
  const search = f.search?.trim();
  const inPrograms =
    ids.length === 1 ? sql`h.program_id = ${ids[0]}` : sql`h.program_id = ANY(${programs}::bigint[])`;
  // The changes considered: the programs' (through their index, by program), or the searched patients'.
  const changes = search
    ? sql`(${matchedPatients(programs, search)}) m JOIN patient_status_history h ON h.patient_id = m.id
        WHERE ${inPrograms} AND ${where}`
    : sql`patient_status_history h WHERE ${inPrograms} AND ${where}`;
  const page =
    search || ids.length === 1
      ? sql`SELECT h.id, h.created_at FROM ${changes}
          ORDER BY h.created_at DESC, h.id DESC LIMIT ${f.perPage} OFFSET ${offset}`
      : sql`SELECT h.id, h.created_at FROM unnest(${programs}::bigint[]) AS prog(id)
          CROSS JOIN LATERAL (
            SELECT h.id, h.created_at FROM patient_status_history h
            WHERE h.program_id = prog.id AND ${where}
            ORDER BY h.created_at DESC, h.id DESC LIMIT ${offset + f.perPage}
          ) h
          ORDER BY h.created_at DESC, h.id DESC LIMIT ${f.perPage} OFFSET ${offset}`;
  const [rows, count] = await Promise.all([
    db.execute<StatusLogEntry>(sql`
      WITH page AS MATERIALIZED (${page})
      SELECT h.id, ${isoUtc(sql`h.created_at`)} AS at,
        json_build_object('id', p.id, 'name', p.first_name || ' ' || p.last_name, 'mrn', p.mrn) AS patient,
        json_build_object('id', g.id, 'name', g.name) AS program,
        h.previous_status AS "from", h.status AS "to", h.source, h.reason,
        CASE WHEN a.id IS NULL THEN NULL
          ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS changed_by
      FROM page JOIN patient_status_history h ON h.id = page.id
      JOIN patients p ON p.id = h.patient_id
      JOIN programs g ON g.id = h.program_id
      LEFT JOIN admins a ON a.id = h.admin_id
      ORDER BY h.created_at DESC, h.id DESC`),
    db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM ${changes}`),
  ]);
  return {
    rows: rows.rows,
    total: count.rows[0]?.n ?? 0,
  };
}
