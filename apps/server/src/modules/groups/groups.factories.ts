import { sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { unique } from '../../seed/unique';

/** A cohort of a program (`given.group({ programId, patientIds })`). */
export async function createGroup(
  db: Queryable,
  input: { programId: number; name?: string; description?: string | null; patientIds?: number[] },
) {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO groups (program_id, name, description) VALUES (${input.programId}, ${input.name ?? `Cohort ${unique()}`},
      ${input.description ?? null}) RETURNING id`);
  const id = res.rows[0]!.id;
  if (input.patientIds?.length)
    await db.execute(sql`
      INSERT INTO group_patients (group_id, patient_id) SELECT ${id}, x FROM unnest(${idArray(input.patientIds)}::bigint[]) AS x`);
  return { id };
}
