import { sql } from 'drizzle-orm';
import {
  addPatients,
  insertPipeline,
  insertStages,
  insertTemplate,
  movePatient,
} from '../modules/pipelines/pipelines.queries';
import type { Queryable } from '../platform/db/client';

const ONBOARDING = ['Referred', 'Device shipped', 'Trained', 'Monitoring'].map((name) => ({
  name,
  color: null,
}));

/**
 * The monitoring program's onboarding pipeline: 24 patients spread over its four stages, each having
 * passed through the earlier ones (days derived from the patient id), and the stages saved as a template.
 */
export async function seedDemoPipelines(
  tx: Queryable,
  ids: { programId: number; coordinatorId: number; now: number },
) {
  const pipelineId = await insertPipeline(tx, {
    programId: ids.programId,
    name: 'New patient onboarding',
    description: 'From referral to steady monitoring.',
    createdBy: ids.coordinatorId,
  });
  await insertStages(tx, pipelineId, ONBOARDING);
  await insertTemplate(tx, {
    programId: ids.programId,
    enterpriseId: null,
    name: 'Onboarding in four steps',
    stages: ONBOARDING,
    createdBy: ids.coordinatorId,
  });
  const stages = (
    await tx.execute<{ id: number }>(
      sql`SELECT id FROM pipeline_stages WHERE pipeline_id = ${pipelineId} ORDER BY position`,
    )
  ).rows.map((r) => Number(r.id));
  const patients = (
    await tx.execute<{ id: number }>(
      sql`SELECT id FROM patients WHERE program_id = ${ids.programId} ORDER BY id OFFSET 30 LIMIT 24`,
    )
  ).rows.map((r) => Number(r.id));
  await addPatients(tx, pipelineId, stages[0]!, patients, ids.coordinatorId);
  for (const [i, patientId] of patients.entries())
    for (let s = 1; s <= i % 4; s++)
      await movePatient(tx, pipelineId, patientId, stages[s]!, ids.coordinatorId);
  // Backdate: each step took a few days, the last one ended (i % 5) days ago.
  await tx.execute(sql`
    UPDATE pipeline_events e SET at = to_timestamp(${ids.now / 1000}) - make_interval(days => x.days_ago::int)
    FROM (
      SELECT id, (patient_id % 5) + 4 * (count(*) OVER (PARTITION BY patient_id) - row_number() OVER (PARTITION BY patient_id ORDER BY id)) AS days_ago
      FROM pipeline_events WHERE pipeline_id = ${pipelineId}) x
    WHERE e.id = x.id`);
  await tx.execute(sql`
    UPDATE pipeline_patients pp SET
      added_at = (SELECT min(at) FROM pipeline_events e WHERE e.pipeline_id = pp.pipeline_id AND e.patient_id = pp.patient_id),
      moved_at = (SELECT max(at) FROM pipeline_events e WHERE e.pipeline_id = pp.pipeline_id AND e.patient_id = pp.patient_id)
    WHERE pp.pipeline_id = ${pipelineId}`);
}
