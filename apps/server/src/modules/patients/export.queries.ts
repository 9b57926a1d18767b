import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

export type ExportRow = {
  id: number;
  mrn: string | null;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  dob: string | null;
  age: number | null;
  sex: string;
  race: string | null;
  ethnicity: string | null;
  phone_number: string | null;
  email: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  time_zone: string | null;
  status: string;
  active: boolean;
  physician: string | null;
  assigned_to: string | null;
  enrolled_on: string;
  consent_at: string | null;
  consent_method: string | null;
  programs: string;
};

/**
 * One batch of the patients of a program during a period (enrolled by its end, not inactivated before its
 * start), in id order after `afterId`: the export reads the program in batches, never all at once.
 */
export async function exportBatch(
  db: Queryable,
  programId: number,
  period: { start: string; end: string },
  afterId: number,
  limit: number,
): Promise<ExportRow[]> {
  const res = await db.execute<ExportRow>(sql`
    SELECT p.id, p.mrn, p.last_name, p.first_name, p.middle_name, p.dob, date_part('year', age(p.dob))::int AS age,
      p.sex, p.race, p.ethnicity, p.phone_number, p.email,
      nullif(concat_ws(', ', p.address_line1, p.address_line2), '') AS address, p.city, p.state, p.zip, p.time_zone,
      p.status, p.active,
      ph.given_name || ' ' || ph.family_name AS physician, aa.given_name || ' ' || aa.family_name AS assigned_to,
      to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS enrolled_on,
      to_char(p.consent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS consent_at, p.consent_method,
      (SELECT string_agg(g.name, '; ' ORDER BY g.name) FROM patient_programs pp JOIN programs g ON g.id = pp.program_id
        WHERE pp.patient_id = p.id) AS programs
    FROM patients p
    LEFT JOIN admins ph ON ph.id = p.physician_id
    LEFT JOIN admins aa ON aa.id = p.assigned_admin_id
    WHERE p.program_id = ${programId} AND p.id > ${afterId}
      AND p.created_at < (${period.end}::date + 1)
      AND (p.deactivated_at IS NULL OR p.deactivated_at >= ${period.start}::date)
    ORDER BY p.id
    LIMIT ${limit}`);
  return res.rows;
}
