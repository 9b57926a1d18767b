import { type SQL, sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

export type ScheduleRow = {
  id: number;
  patient_id: number;
  device_id: number;
  group_id: number | null;
  regimen_id: number | null;
  times: string[];
  weekdays: number[];
  status: 'sent' | 'pending' | 'superseded';
  sent_at: Date | null;
  created_at: Date;
};

const SCHEDULE = sql`id, patient_id, device_id, group_id, regimen_id, times, weekdays, status, sent_at, created_at`;

/** The dispensers of these patients (one per patient: the most recently provisioned). */
export async function dispensersOfPatients(db: Queryable, patientIds: number[]) {
  const res = await db.execute<{
    id: number;
    serial: string;
    patient_id: number;
    program_id: number;
  }>(sql`
    SELECT DISTINCT ON (patient_id) id, serial, patient_id, program_id FROM devices
    WHERE kind = 'dispenser' AND patient_id = ANY(${idArray(patientIds)}::bigint[])
    ORDER BY patient_id, provisioned_at DESC NULLS LAST, id DESC`);
  return res.rows;
}

export async function groupPatientIds(db: Queryable, groupId: number): Promise<number[]> {
  const res = await db.execute<{ patient_id: number }>(
    sql`SELECT patient_id FROM group_patients WHERE group_id = ${groupId} ORDER BY patient_id`,
  );
  return res.rows.map((r) => r.patient_id);
}

export async function insertSchedules(
  db: Queryable,
  rows: {
    patientId: number;
    programId: number;
    deviceId: number;
    groupId: number | null;
    regimenId: number | null;
    times: string[];
    weekdays: number[];
    adminId: number;
  }[],
): Promise<ScheduleRow[]> {
  const res = await db.execute<ScheduleRow>(sql`
    INSERT INTO device_schedules (patient_id, program_id, device_id, group_id, regimen_id, times, weekdays, created_by)
    SELECT x.patient_id, x.program_id, x.device_id, x.group_id, x.regimen_id,
           ARRAY(SELECT jsonb_array_elements_text(x.times)), ARRAY(SELECT jsonb_array_elements_text(x.weekdays))::smallint[],
           x.created_by
    FROM jsonb_to_recordset(${JSON.stringify(
      rows.map((r) => ({
        patient_id: r.patientId,
        program_id: r.programId,
        device_id: r.deviceId,
        group_id: r.groupId,
        regimen_id: r.regimenId,
        times: r.times,
        weekdays: r.weekdays,
        created_by: r.adminId,
      })),
    )}::jsonb) AS x(patient_id bigint, program_id bigint, device_id bigint, group_id bigint, regimen_id bigint,
                    times jsonb, weekdays jsonb, created_by bigint)
    RETURNING ${SCHEDULE}`);
  return res.rows;
}

/**
 * A new schedule replaces what these devices were still waiting for: their pending schedules become
 * `superseded` and are never sent. Locked in id order, as the gateway's claim does, so the two never
 * deadlock (delivery.queries.ts).
 */
export async function supersedePendingSchedules(db: Queryable, deviceIds: number[]) {
  if (deviceIds.length === 0) return;
  await db.execute(sql`
    WITH old AS (
      SELECT id FROM device_schedules
      WHERE device_id = ANY(${idArray(deviceIds)}::bigint[]) AND status = 'pending'
      ORDER BY id FOR UPDATE
    )
    UPDATE device_schedules s SET status = 'superseded' FROM old WHERE s.id = old.id`);
}

/** The statuses of these schedules now (after the gateway tried to send them). */
export async function scheduleStatuses(db: Queryable, ids: number[]) {
  const res = await db.execute<{ id: number; status: ScheduleRow['status']; sent_at: Date | null }>(
    sql`SELECT id, status, sent_at FROM device_schedules WHERE id = ANY(${idArray(ids)}::bigint[])`,
  );
  return new Map(res.rows.map((r) => [Number(r.id), r]));
}

async function schedulesWhere(db: Queryable, where: SQL): Promise<ScheduleRow[]> {
  const res = await db.execute<ScheduleRow>(
    sql`SELECT ${SCHEDULE} FROM device_schedules WHERE ${where} ORDER BY id DESC LIMIT 200`,
  );
  return res.rows;
}

export async function regimenOfPatient(db: Queryable, regimenId: number, patientId: number) {
  const res = await db.execute<{ id: number; name: string }>(
    sql`SELECT id, name FROM regimens WHERE id = ${regimenId} AND patient_id = ${patientId}`,
  );
  return res.rows[0] ?? null;
}

/** A pod by barcode with its regimen and program (the NFC channel). */
export async function podByBarcode(db: Queryable, barcode: string) {
  const res = await db.execute<{
    id: number;
    barcode: string;
    patient_id: number;
    regimen_id: number;
    regimen_name: string;
    servings_remaining: number;
    program_id: number;
    program_name: string;
  }>(sql`
    SELECT p.id, p.barcode, p.patient_id, p.regimen_id, r.name AS regimen_name, p.servings_remaining,
           g.id AS program_id, g.name AS program_name
    FROM pods p JOIN regimens r ON r.id = p.regimen_id JOIN programs g ON g.id = p.program_id
    WHERE p.barcode = ${barcode}`);
  return res.rows[0] ?? null;
}

export type GoalRow = {
  id: number;
  device_id: number;
  type: string;
  target: number;
  status: 'sent' | 'pending' | 'superseded';
  sent_at: Date | null;
};

/**
 * A new goal: a pending goal of the same type on the device is superseded by it (a goal of another type is
 * not: each type is a goal of its own). Locked in id order like the gateway's claim.
 */
export async function insertGoal(
  db: Queryable,
  g: { deviceId: number; type: string; target: number; adminId: number },
) {
  await db.execute(sql`
    WITH old AS (
      SELECT id FROM device_goals
      WHERE device_id = ${g.deviceId} AND type = ${g.type} AND status = 'pending'
      ORDER BY id FOR UPDATE
    )
    UPDATE device_goals d SET status = 'superseded' FROM old WHERE d.id = old.id`);
  const res = await db.execute<GoalRow>(sql`
    INSERT INTO device_goals (device_id, type, target, created_by) VALUES (${g.deviceId}, ${g.type}, ${g.target}, ${g.adminId})
    RETURNING id, device_id, type, target, status, sent_at`);
  return res.rows[0]!;
}

export async function goalStatus(db: Queryable, id: number) {
  const res = await db.execute<Pick<GoalRow, 'status' | 'sent_at'>>(
    sql`SELECT status, sent_at FROM device_goals WHERE id = ${id}`,
  );
  return res.rows[0]!;
}

export async function setRegimenDevice(db: Queryable, regimenId: number, serial: string) {
  await db.execute(sql`UPDATE regimens SET device_serial = ${serial} WHERE id = ${regimenId}`);
}

export const schedulesOfPatient = (db: Queryable, patientId: number) =>
  schedulesWhere(db, sql`patient_id = ${patientId}`);
export const schedulesOfGroup = (db: Queryable, groupId: number) =>
  schedulesWhere(db, sql`group_id = ${groupId}`);
