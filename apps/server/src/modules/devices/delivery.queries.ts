import { sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';

/** Programming claimed for sending: a device's newest pending schedule, or its newest pending goal of a type. */
export type ClaimedProgramming =
  | { kind: 'schedule'; id: number; serial: string; times: string[]; weekdays: number[] }
  | { kind: 'goal'; id: number; serial: string; type: string; target: number };

/**
 * Claims what these devices are owed, in one statement (ADR 050): of each connected device, the newest
 * pending schedule (of the device's current patient) becomes `sent` and older pending ones `superseded`;
 * of each goal type, the newest pending goal becomes `sent` and older ones `superseded`. Only the rows
 * to send are returned, with the device's serial.
 *
 * Safe when several gateways claim at once (two nodes that both saw a device connect, or a new schedule
 * and the device's connection at the same moment): the pending rows are locked in id order (no deadlock),
 * a row another claim changed meanwhile is re-read and dropped (it is no longer pending), so each row is
 * claimed once. `connected` is read here, after the caller's change is committed, so a schedule stored
 * while its device connects is claimed by one side or the other, never by neither.
 */
export async function claimPendingProgramming(
  db: Queryable,
  deviceIds: number[],
): Promise<ClaimedProgramming[]> {
  if (deviceIds.length === 0) return [];
  const res = await db.execute<{
    kind: 'schedule' | 'goal';
    id: number;
    serial: string;
    times: string[] | null;
    weekdays: number[] | null;
    type: string | null;
    target: number | null;
  }>(sql`
    WITH ready AS (
      SELECT id, serial, patient_id FROM devices
      WHERE id = ANY(${idArray(deviceIds)}::bigint[]) AND connected
    ),
    s_locked AS (
      SELECT s.id, s.device_id FROM device_schedules s
      JOIN ready r ON r.id = s.device_id AND r.patient_id = s.patient_id
      WHERE s.status = 'pending'
      ORDER BY s.id FOR UPDATE OF s
    ),
    s_newest AS (SELECT device_id, max(id) AS id FROM s_locked GROUP BY device_id),
    s_done AS (
      UPDATE device_schedules s
      SET status = CASE WHEN s.id = n.id THEN 'sent' ELSE 'superseded' END,
          sent_at = CASE WHEN s.id = n.id THEN now() END
      FROM s_locked l JOIN s_newest n ON n.device_id = l.device_id
      WHERE s.id = l.id
      RETURNING s.id, s.device_id, s.status, s.times, s.weekdays
    ),
    g_locked AS (
      SELECT g.id, g.device_id, g.type FROM device_goals g
      JOIN ready r ON r.id = g.device_id
      WHERE g.status = 'pending'
      ORDER BY g.id FOR UPDATE OF g
    ),
    g_newest AS (SELECT device_id, type, max(id) AS id FROM g_locked GROUP BY device_id, type),
    g_done AS (
      UPDATE device_goals g
      SET status = CASE WHEN g.id = n.id THEN 'sent' ELSE 'superseded' END,
          sent_at = CASE WHEN g.id = n.id THEN now() END
      FROM g_locked l JOIN g_newest n ON n.device_id = l.device_id AND n.type = l.type
      WHERE g.id = l.id
      RETURNING g.id, g.device_id, g.status, g.type, g.target
    )
    SELECT 'schedule' AS kind, d.id, r.serial, d.times, d.weekdays, NULL::text AS type, NULL::float8 AS target
    FROM s_done d JOIN ready r ON r.id = d.device_id WHERE d.status = 'sent'
    UNION ALL
    SELECT 'goal', d.id, r.serial, NULL::text[], NULL::smallint[], d.type, d.target
    FROM g_done d JOIN ready r ON r.id = d.device_id WHERE d.status = 'sent'
    ORDER BY 1 DESC, 2`);
  return res.rows.map((r) =>
    r.kind === 'schedule'
      ? { kind: 'schedule', id: Number(r.id), serial: r.serial, times: r.times!, weekdays: r.weekdays! }
      : { kind: 'goal', id: Number(r.id), serial: r.serial, type: r.type!, target: Number(r.target) },
  );
}

/** Claimed rows whose message could not be handed to the broker: pending again, for the next connection. */
export async function releaseClaims(db: Queryable, claims: { schedules: number[]; goals: number[] }) {
  if (claims.schedules.length > 0)
    await db.execute(sql`
      UPDATE device_schedules SET status = 'pending', sent_at = NULL
      WHERE id = ANY(${idArray(claims.schedules)}::bigint[]) AND status = 'sent'`);
  if (claims.goals.length > 0)
    await db.execute(sql`
      UPDATE device_goals SET status = 'pending', sent_at = NULL
      WHERE id = ANY(${idArray(claims.goals)}::bigint[]) AND status = 'sent'`);
}
