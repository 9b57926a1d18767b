import type { PatientListItem } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

export type PatientListFilter = {
  programIds: number[];
  name?: string;
  sortBy: 'name' | 'first_name' | 'last_name' | 'dob' | 'status' | 'created_at' | 'id';
  sortDirection: 'ASC' | 'DESC';
  page: number;
  perPage: number;
};

// Orders match the (program_id, …, id) indexes; only dob may be null.
const SORT: Record<PatientListFilter['sortBy'], string[]> = {
  name: ['p.last_name', 'p.first_name'],
  first_name: ['p.first_name', 'p.last_name'],
  last_name: ['p.last_name', 'p.first_name'],
  dob: ['p.dob'],
  status: ['p.status', 'p.last_name'],
  created_at: ['p.created_at'],
  id: [],
};

function likePattern(token: string): string {
  return `%${token.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function whereOf(f: PatientListFilter): SQL {
  const parts: SQL[] = [
    sql`p.program_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(f.programIds)}::jsonb)::bigint)`,
  ];
  // Every word typed must match the first or the last name: "ann smi" finds Ann Smith.
  for (const token of (f.name ?? '').split(/\s+/).filter(Boolean).slice(0, 5)) {
    const pattern = likePattern(token);
    parts.push(sql`(p.first_name ILIKE ${pattern} OR p.last_name ILIKE ${pattern})`);
  }
  return sql.join(parts, sql` AND `);
}

type Row = Omit<PatientListItem, 'created_at' | 'follow_up'> & { created_at: Date; follow_up: Date | null };

export async function listPatients(
  db: Queryable,
  f: PatientListFilter,
): Promise<{ rows: PatientListItem[]; total: number }> {
  const where = whereOf(f);
  const dir = f.sortDirection === 'DESC' ? 'DESC' : 'ASC';
  const columns = SORT[f.sortBy].map((c) => (c === 'p.dob' ? `${c} ${dir} NULLS LAST` : `${c} ${dir}`));
  const order = sql.raw([...columns, `p.id ${dir}`].join(', '));
  const [rows, count] = await Promise.all([
    db.execute<Row>(sql`
      SELECT p.id, p.program_id, p.first_name, p.last_name, p.first_name || ' ' || p.last_name AS name,
        p.email, p.phone_number, p.dob, p.sex, p.status, p.active,
        CASE WHEN a.id IS NULL THEN NULL
          ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS assigned_admin,
        p.follow_up_at AS follow_up, p.created_at
      FROM patients p LEFT JOIN admins a ON a.id = p.assigned_admin_id
      WHERE ${where}
      ORDER BY ${order}
      LIMIT ${f.perPage} OFFSET ${(f.page - 1) * f.perPage}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM patients p WHERE ${where}`),
  ]);
  return {
    rows: rows.rows.map((r) => ({
      ...r,
      created_at: new Date(r.created_at).toISOString(),
      follow_up: r.follow_up ? new Date(r.follow_up).toISOString() : null,
    })),
    total: count.rows[0]?.n ?? 0,
  };
}
