import { type AtRiskRow, type BillingAtRiskQuery, pageOf } from '@caredeck/contracts';
import { type CodeRule, rulesFor } from '@caredeck/domain';
import { sql } from 'drizzle-orm';
import type { StaffActor } from '../../platform/access/actor';
import { auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { assertAssignee } from './billing-period-filters';

type RiskRow = {
  id: number;
  first_name: string;
  last_name: string;
  mrn: string | null;
  kind: 'device_days' | 'time';
  code: string;
  have: number;
  needed: number;
  left_days: number;
  slack: number;
  p_start: string;
  p_end: string;
  total: number;
};

const RPM_KINDS = sql`('bp_cuff', 'pulse_oximeter', 'scale', 'glucometer', 'wearable')`;

/** The thresholds of the rules in force (no figure is written here): device-day and RPM-time ladders. */
function thresholds(year: number) {
  const rules = rulesFor(year) ?? rulesFor(2026);
  const codes = rules?.codes ?? [];
  const device = codes
    .filter((c): c is Extract<CodeRule, { kind: 'device' }> => c.kind === 'device' && c.track === 'rpm')
    .sort((a, b) => a.minDays - b.minDays);
  const time = codes
    .filter(
      (c): c is Extract<CodeRule, { kind: 'time' }> => c.kind === 'time' && c.track === 'rpm-management',
    )
    .sort((a, b) => a.minSeconds - b.minSeconds);
  const [d1, d2] = device;
  const [t1, t2] = time;
  if (!d1 || !d2 || !t1 || !t2) throw new Error('the billing rules lack the RPM ladders');
  return { d1, d2, t1, t2 };
}

/** One page of the at-risk list (the whole program ranked in one statement, cut there). */
export async function atRiskPage(db: Queryable, programId: number, q: BillingAtRiskQuery) {
  const assignee = q.assignee_id === undefined ? sql`` : sql` AND p.assigned_admin_id = ${q.assignee_id}`;
  const year = q.date ? Number(q.date.slice(0, 4)) : new Date().getUTCFullYear();
  const { d1, d2, t1, t2 } = thresholds(year);
  const res = await db.execute<RiskRow>(sql`
    WITH firsts AS MATERIALIZED (
      SELECT d.patient_id, min(d.provisioned_at) AS first_at FROM devices d
      WHERE d.program_id = ${programId} AND d.patient_id IS NOT NULL AND d.provisioned_at IS NOT NULL
        AND d.kind IN ${RPM_KINDS}
      GROUP BY d.patient_id
    ), pts AS MATERIALIZED (
      SELECT p.id, p.first_name, p.last_name, p.mrn, coalesce(p.time_zone, 'UTC') AS tz,
        coalesce(${q.date ?? null}::date, (now() AT TIME ZONE coalesce(p.time_zone, 'UTC'))::date) AS day,
        coalesce(s.supply_start, (f.first_at AT TIME ZONE coalesce(p.time_zone, 'UTC'))::date) AS supply_start
      FROM (SELECT patient_id FROM firsts
            UNION SELECT patient_id FROM billing_supply_starts WHERE program_id = ${programId}) c
      JOIN patients p ON p.id = c.patient_id AND p.program_id = ${programId}${assignee}
      LEFT JOIN billing_supply_starts s ON s.patient_id = p.id
      LEFT JOIN firsts f ON f.patient_id = p.id
    ), cur AS MATERIALIZED (
      SELECT pts.*, supply_start + ((day - supply_start) / 30) * 30 AS p_start,
        date_trunc('month', day)::date AS m_start, (date_trunc('month', day) + interval '1 month - 1 day')::date AS m_end
      FROM pts WHERE supply_start IS NOT NULL AND supply_start <= day
    ), dev AS (
      SELECT c.*, (SELECT count(DISTINCT (m.measured_at AT TIME ZONE c.tz)::date)::int FROM measurements m
          WHERE m.patient_id = c.id AND m.device_id IS NOT NULL
            AND m.measured_at >= (c.p_start - 1)::timestamptz AND m.measured_at < (c.day + 2)::timestamptz
            AND (m.measured_at AT TIME ZONE c.tz)::date BETWEEN c.p_start AND c.day) AS n,
        (c.p_start + 29 - c.day + 1)::int AS left_days
      FROM cur c
    ), tim AS (
      SELECT c.*, coalesce((SELECT sum(e.seconds)::int FROM billing_time_entries e
          WHERE e.patient_id = c.id AND e.billable AND e.type = 'rpm'
            AND e.started_at >= (c.m_start - 1)::timestamptz AND e.started_at < (c.m_end + 2)::timestamptz
            AND (e.started_at AT TIME ZONE c.tz)::date BETWEEN c.m_start AND c.m_end), 0) AS secs,
        (c.m_end - c.day + 1)::int AS left_days
      FROM cur c
    ), risks AS (
      SELECT id, first_name, last_name, mrn, 'device_days' AS kind,
        CASE WHEN n < ${d1.minDays}::int THEN ${d1.code}::text ELSE ${d2.code}::text END AS code, n AS have,
        (CASE WHEN n < ${d1.minDays}::int THEN ${d1.minDays}::int ELSE ${d2.minDays}::int END) - n AS needed, left_days,
        p_start::text AS p_start, (p_start + 29)::text AS p_end
      FROM dev WHERE n < ${d2.minDays}::int
      UNION ALL
      SELECT id, first_name, last_name, mrn, 'time',
        CASE WHEN secs < ${t1.minSeconds}::int THEN ${t1.code}::text ELSE ${t2.code}::text END, secs,
        (CASE WHEN secs < ${t1.minSeconds}::int THEN ${t1.minSeconds}::int ELSE ${t2.minSeconds}::int END) - secs, left_days,
        m_start::text, m_end::text
      FROM tim WHERE secs < ${t2.minSeconds}::int
    ), ranked AS (
      SELECT r.*, CASE WHEN kind = 'device_days' THEN left_days - needed ELSE left_days END AS slack
      FROM risks r WHERE kind = 'time' OR needed <= left_days
    )
    SELECT *, count(*) OVER ()::int AS total FROM ranked
    ORDER BY slack, left_days, last_name, first_name, id, kind
    LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`);
  const rows: AtRiskRow[] = res.rows.map((r) => ({
    patient: { id: Number(r.id), first_name: r.first_name, last_name: r.last_name, mrn: r.mrn },
    kind: r.kind,
    code: r.code,
    have: Number(r.have),
    needed: Number(r.needed),
    days_left: Number(r.left_days),
    slack: Number(r.slack),
    period: { start: r.p_start, end: r.p_end },
  }));
  return { rows, total: res.rows[0]?.total ?? 0 };
}

/**
 * The at-risk list (issue 30): per patient with a supply start (the program's monitoring devices and staff-set
 * starts are the candidates, not every patient), the device days of the current 30-day period
 * so far against the next device threshold (still reachable in the days left), and the month's RPM seconds
 * against the next time threshold. Computed in one statement over the program and paged there, soonest
 * first (least slack, then fewest days left).
 */
export function createBillingAtRiskService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async atRisk(actor: StaffActor, programId: number, q: BillingAtRiskQuery) {
      await assertAssignee(db, programId, q);
      const { rows, total } = await atRiskPage(db, programId, q);
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'billing.at_risk_view',
        details: { rows: rows.length },
        ip: actor.ip,
      });
      return pageOf(rows, q, total);
    },
  };
}
export type BillingAtRiskService = ReturnType<typeof createBillingAtRiskService>;
