import { DEFAULT_DISPLAY_ZONE } from '@caredeck/domain';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/platform/db/client';
import { type Dataset, generateDataset } from './dataset';

/**
 * The history of issue 27 item 1 on top of bench/dataset.ts's patients, written with set-based SQL
 * (INSERT … SELECT over generate_series) so that 100,000 patients take minutes, not hours. Shares are
 * taken by patient id (id % 100), so every run of the same size writes the same rows. The adherence
 * rollup triggers fire on the regimens and dose rows as they would for any import: the product's rollup
 * worker then settles them (the run waits for it and reports how long it took).
 */
export type ProductDataset = Dataset & {
  enterpriseId: number;
  staffIds: number[];
  /** The patient with 5 regimens over 90 days and a wearable reading every minute. */
  wearablePatientId: number;
  pipelineId: number;
  surveyId: number;
  counts: Record<string, number>;
  historySeconds: number;
};

export type HistoryKnobs = {
  /** Days of dose events of each dispenser patient. */
  doseDays: number;
  auditRows: number;
  conversations: number;
  /** Days of one-a-minute wearable readings of the wearable patient. */
  wearableDays: number;
};

export async function generateProductDataset(
  db: Database,
  counts: { big: number; small: number },
  knobs: HistoryKnobs,
  log: (line: string) => void,
): Promise<ProductDataset> {
  const base = await generateDataset(db, counts, log);
  log(`patients ready in ${base.seconds.toFixed(1)} s; writing their history`);
  const started = performance.now();
  const step = async (label: string, query: ReturnType<typeof sql>) => {
    const t0 = performance.now();
    const r = await db.execute(query);
    log(`  ${label}: ${r.rowCount ?? 0} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  const one = async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)).rows[0] as T;

  const { enterprise_id: enterpriseId } = await one<{ enterprise_id: number }>(
    sql`SELECT enterprise_id FROM programs WHERE id = ${base.bigProgramId}`,
  );
  const staff = await db.execute<{ id: number }>(
    sql`SELECT id FROM admins WHERE email LIKE 'bench-staff-%' ORDER BY id`,
  );
  const staffIds = staff.rows.map((r) => Number(r.id));
  const admin = await one<{ id: number }>(
    sql`SELECT id FROM admins WHERE email = 'bench-admin@caredeck.bench'`,
  );
  const staffArray = sql.raw(`ARRAY[${staffIds.join(',')}]::bigint[]`);
  const programs = sql.raw(`(${base.bigProgramId}, ${base.smallProgramId})`);
  const { id: wearablePatientId } = await one<{ id: number }>(
    sql`SELECT min(id) AS id FROM patients WHERE program_id = ${base.bigProgramId}`,
  );

  // 20 %: a dispenser, a daily regimen (08:00 and 20:00) and its doses: 70 % on time, 15 % late, 15 % missed.
  await step(
    'dispensers (20 %)',
    sql`INSERT INTO devices (serial, vendor, kind, dispenser_type, program_id, patient_id, verified, connected,
          last_seen_at, battery, provisioned_at)
        SELECT 'BENCH-D' || p.id, 'bench', 'dispenser', 1, p.program_id, p.id, true, p.id % 3 <> 0,
          now() - make_interval(mins => (p.id % 600)::int), 40 + (p.id % 60)::int, now() - interval '120 days'
        FROM patients p WHERE p.program_id IN ${programs} AND p.id % 5 = 0`,
  );
  await step(
    'daily regimens',
    sql`INSERT INTO regimens (patient_id, program_id, name, repeat, times, scheduled_at, device_serial, created_by)
        SELECT p.id, p.program_id, 'Bench medication', 'daily', ARRAY['08:00','20:00'],
          date_trunc('day', now()) - make_interval(days => ${knobs.doseDays}), 'BENCH-D' || p.id, ${admin.id}
        FROM patients p WHERE p.program_id IN ${programs} AND p.id % 5 = 0`,
  );
  await step(
    `dose events (${knobs.doseDays} days)`,
    sql`INSERT INTO medication_usages (patient_id, regimen_id, taken_at, source, kind)
        SELECT r.patient_id, r.id,
          -- At the scheduled local time in the patient's zone (none is set: the default display zone, ADR 002).
          (((current_date - d)::timestamp + t::time) AT TIME ZONE ${DEFAULT_DISPLAY_ZONE})
            + CASE WHEN (r.patient_id * 7 + d * 13 + length(t)) % 100 < 15 THEN interval '150 minutes'
                   ELSE make_interval(mins => ((r.patient_id + d) % 20)::int) END,
          'dispenser', 'taken'
        FROM regimens r CROSS JOIN generate_series(1, ${knobs.doseDays}) d CROSS JOIN unnest(r.times) t
        WHERE r.name = 'Bench medication' AND (r.patient_id * 11 + d * 17 + ascii(t) * 3) % 100 >= 15`,
  );

  // 10 % an open alert (a fifth of them escalated), 20 % a resolved one.
  await step(
    'open alerts (10 %)',
    sql`INSERT INTO alerts (program_id, patient_id, type, status, first_at, last_at, summary, reason,
          escalated_at, escalated_to_role, occurrences)
        SELECT p.program_id, p.id,
          (ARRAY['missed_doses','low_adherence','out_range_blood_pressure_alerts','disconnected_dispensers',
                 'missed_physiological_readings_alerts'])[1 + (p.id / 10) % 5],
          CASE WHEN (p.id / 10) % 5 = 0 THEN 'escalated' ELSE 'open' END,
          now() - make_interval(hours => (p.id % 240)::int), now() - make_interval(hours => (p.id % 24)::int),
          'Generated by the product bench', '{}'::jsonb,
          CASE WHEN (p.id / 10) % 5 = 0 THEN now() - interval '1 hour' END,
          CASE WHEN (p.id / 10) % 5 = 0 THEN 'physician' END, 1 + (p.id % 4)::int
        FROM patients p WHERE p.program_id IN ${programs} AND p.id % 10 = 1`,
  );
  await step(
    'resolved alerts (20 %)',
    sql`INSERT INTO alerts (program_id, patient_id, type, status, first_at, last_at, summary, reason,
          resolved_at, resolution)
        SELECT p.program_id, p.id, (ARRAY['missed_doses','low_adherence','low_blood_pressure_alerts'])[1 + p.id % 3],
          'resolved', now() - make_interval(days => (p.id % 60)::int, hours => 6),
          now() - make_interval(days => (p.id % 60)::int, hours => 3), 'Generated by the product bench', '{}'::jsonb,
          now() - make_interval(days => (p.id % 60)::int), 'cleared'
        FROM patients p WHERE p.program_id IN ${programs} AND p.id % 10 IN (2, 3)`,
  );

  // 5 % a note with an open follow-up (due from 5 days ago to 9 days ahead).
  await step(
    'notes (5 %)',
    sql`INSERT INTO notes (program_id, patient_id, body, author_id, created_at, updated_at)
        SELECT p.program_id, p.id, 'Called the patient; check the readings again.',
          (${staffArray})[1 + (p.id % ${staffIds.length})], now() - make_interval(days => (p.id % 20)::int),
          now() - make_interval(days => (p.id % 20)::int)
        FROM patients p WHERE p.program_id IN ${programs} AND p.id % 20 = 4`,
  );
  await step(
    'open follow-ups',
    sql`INSERT INTO follow_ups (note_id, program_id, patient_id, due_date, admin_id)
        SELECT n.id, n.program_id, n.patient_id, current_date + ((n.patient_id / 20) % 15 - 5)::int, n.author_id
        FROM notes n WHERE n.body = 'Called the patient; check the readings again.'`,
  );

  // 3 % in a pipeline of program 1 (4 stages).
  const pipeline = await one<{ id: number }>(sql`
    INSERT INTO pipelines (program_id, name, description, created_by)
    VALUES (${base.bigProgramId}, 'Bench onboarding', 'Generated by the product bench', ${admin.id}) RETURNING id`);
  await db.execute(sql`
    INSERT INTO pipeline_stages (pipeline_id, name, position)
    SELECT ${pipeline.id}, 'Stage ' || s, s FROM generate_series(1, 4) s`);
  await step(
    'pipeline patients (3 %)',
    sql`INSERT INTO pipeline_patients (pipeline_id, patient_id, stage_id, status, added_by, added_at, moved_at)
        SELECT ${pipeline.id}, p.id,
          (SELECT id FROM pipeline_stages WHERE pipeline_id = ${pipeline.id} ORDER BY position
            OFFSET (p.id % 4) LIMIT 1), 'active', ${admin.id}, now() - interval '10 days', now() - interval '2 days'
        FROM patients p WHERE p.program_id = ${base.bigProgramId} AND p.id % 100 IN (5, 25, 45)`,
  );

  // 2 % an open survey.
  const survey = await one<{ id: number }>(sql`
    INSERT INTO surveys (program_id, name, description, created_by)
    VALUES (${base.bigProgramId}, 'Bench wellbeing', 'Generated by the product bench', ${admin.id}) RETURNING id`);
  await step(
    'open surveys (2 %)',
    sql`INSERT INTO survey_assignments (program_id, survey_id, patient_id, status, scheduled_at, assigned_by, assigned_at)
        SELECT p.program_id, ${survey.id}, p.id, 'pending', now() - make_interval(days => (p.id % 14)::int),
          ${admin.id}, now() - make_interval(days => (p.id % 14)::int)
        FROM patients p WHERE p.program_id = ${base.bigProgramId} AND p.id % 100 IN (7, 57)`,
  );

  // Staff time: every dispenser patient, three 10-minute entries this month and three last month.
  await step(
    'billing time entries',
    sql`INSERT INTO billing_time_entries (program_id, patient_id, admin_id, type, activity, interactive, started_at,
          ended_at, seconds, source)
        SELECT p.program_id, p.id, (${staffArray})[1 + ((p.id + k) % ${staffIds.length})], 'rpm', 'Data review',
          k % 2 = 0, s, s + interval '10 minutes', 600, 'manual'
        FROM patients p CROSS JOIN generate_series(0, 5) k
        CROSS JOIN LATERAL (SELECT
          CASE WHEN k < 3 THEN date_trunc('month', now()) + make_interval(hours => 9 + k)
               ELSE date_trunc('month', now()) - interval '1 month' + make_interval(days => k * 3, hours => 9) END
          AS s) t
        WHERE p.program_id IN ${programs} AND p.id % 5 = 0`,
  );

  await step(
    `audit rows (${knobs.auditRows})`,
    sql`INSERT INTO audit_events (actor_admin_id, actor_realm, program_id, action, subject_type, subject_id, created_at)
        SELECT (${staffArray})[1 + (g % ${staffIds.length})], 'staff',
          CASE WHEN g % 10 = 0 THEN ${base.smallProgramId}::bigint ELSE ${base.bigProgramId}::bigint END,
          (ARRAY['patient.viewed','patient.updated','note.created','alert.acknowledged','billing.time_added'])[1 + g % 5],
          'patient', ${wearablePatientId}::bigint + (g % ${counts.big}), now() - make_interval(secs => (g * 13) % 5184000)
        FROM generate_series(1, ${knobs.auditRows}) g`,
  );

  // Messenger: conversations of the bench admin with two staff members, 10 messages each.
  await step(
    `conversations (${knobs.conversations})`,
    sql`INSERT INTO conversations (program_id, name, created_by)
        SELECT ${base.bigProgramId}, 'Bench room ' || g, ${admin.id} FROM generate_series(1, ${knobs.conversations}) g`,
  );
  await db.execute(sql`
    INSERT INTO conversation_members (conversation_id, admin_id, chat_role)
    SELECT c.id, m.admin_id, CASE WHEN m.admin_id = ${admin.id} THEN 'owner' ELSE 'member' END
    FROM conversations c CROSS JOIN LATERAL (VALUES (${admin.id}::bigint),
      ((${staffArray})[1 + (c.id % ${staffIds.length})]), ((${staffArray})[1 + ((c.id + 1) % ${staffIds.length})])) m(admin_id)
    WHERE c.name LIKE 'Bench room %'`);
  await step(
    'messenger messages',
    sql`INSERT INTO messenger_messages (conversation_id, sender_admin_id, sender_name, body, created_at)
        SELECT c.id, ${admin.id}, 'Bench Admin', 'Message ' || g, now() - make_interval(mins => (c.id * 7 + g * 31)::int)
        FROM conversations c CROSS JOIN generate_series(1, 10) g WHERE c.name LIKE 'Bench room %'`,
  );

  // One patient: 5 regimens over 90 days and a wearable reading (pulse) every minute.
  await step(
    'wearable patient regimens',
    sql`INSERT INTO regimens (patient_id, program_id, name, repeat, times, scheduled_at, end_at, status, completed_at)
        SELECT ${wearablePatientId}, ${base.bigProgramId}, 'Bench regimen ' || g, 'daily', ARRAY['09:00'],
          date_trunc('day', now()) - make_interval(days => 90 - (g - 1) * 15),
          CASE WHEN g < 5 THEN date_trunc('day', now()) - make_interval(days => 90 - g * 15 - 10) END,
          CASE WHEN g < 5 THEN 'completed' ELSE 'active' END,
          CASE WHEN g < 5 THEN date_trunc('day', now()) - make_interval(days => 90 - g * 15 - 10) END
        FROM generate_series(1, 5) g`,
  );
  const wearable = await one<{ id: number }>(sql`
    INSERT INTO devices (serial, vendor, kind, program_id, patient_id, verified, connected, provisioned_at)
    VALUES ('BENCH-W1', 'bench', 'wearable', ${base.bigProgramId}, ${wearablePatientId}, true, true,
      now() - interval '100 days') RETURNING id`);
  await step(
    `wearable readings (${knobs.wearableDays} days, one a minute)`,
    sql`INSERT INTO measurements (patient_id, program_id, device_id, type, value, unit, measured_at)
        SELECT ${wearablePatientId}, ${base.bigProgramId}, ${wearable.id}, 'pulse', 60 + (g % 37), 'bpm',
          now() - make_interval(mins => g)
        FROM generate_series(1, ${knobs.wearableDays * 1440}) g`,
  );

  await db.execute(sql`ANALYZE`);
  const tally = await one<Record<string, string>>(sql`SELECT
    (SELECT count(*) FROM patients) AS patients, (SELECT count(*) FROM devices) AS devices,
    (SELECT count(*) FROM regimens) AS regimens, (SELECT count(*) FROM medication_usages) AS dose_events,
    (SELECT count(*) FROM alerts WHERE status <> 'resolved') AS open_alerts,
    (SELECT count(*) FROM alerts WHERE status = 'resolved') AS resolved_alerts,
    (SELECT count(*) FROM follow_ups) AS open_follow_ups, (SELECT count(*) FROM pipeline_patients) AS pipeline_patients,
    (SELECT count(*) FROM survey_assignments) AS open_surveys,
    (SELECT count(*) FROM billing_time_entries) AS time_entries, (SELECT count(*) FROM audit_events) AS audit_rows,
    (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM messenger_messages) AS messages,
    (SELECT count(*) FROM measurements) AS measurements`);
  const historySeconds = (performance.now() - started) / 1000;
  return {
    ...base,
    enterpriseId: Number(enterpriseId),
    staffIds,
    wearablePatientId: Number(wearablePatientId),
    pipelineId: Number(pipeline.id),
    surveyId: Number(survey.id),
    counts: Object.fromEntries(Object.entries(tally).map(([k, v]) => [k, Number(v)])),
    historySeconds,
  };
}
