import type { AlertType, DashboardFact } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { idArray } from '../../platform/access/scope';
import type { Queryable } from '../../platform/db/client';
import { containsPattern } from '../../platform/db/like';
import { type AlertRow, alertColumns, alertJoins } from './alerts.queries';

export type AnalyticsScope = { programIds: number[]; from: Date; to: Date; zone: string };

type Minutes = { count: number; median_minutes: number | null; p90_minutes: number | null };

/** Every figure of the analytics board of a period, in one statement over the alerts first seen in it. */
export async function analyticsFigures(db: Queryable, s: AnalyticsScope) {
  const res = await db.execute<{
    total: number;
    open: number;
    acknowledged: number;
    escalated: number;
    resolved: number;
    auto_resolved: number;
    time_to_acknowledge: Minutes;
    time_to_resolve: Minutes;
    by_type: { type: AlertType; count: number; median_acknowledge_minutes: number | null }[];
    by_day: { date: string; opened: number; resolved: number }[];
    by_staff: {
      admin: { id: number; name: string };
      acknowledged: number;
      cleared: number;
      median_acknowledge_minutes: number | null;
    }[];
  }>(sql`
    WITH a AS (
      SELECT id, type, status, resolution, first_at, acknowledged_at, resolved_at,
             extract(epoch FROM acknowledged_at - first_at) / 60 AS ack_min,
             extract(epoch FROM resolved_at - first_at) / 60 AS res_min
      FROM alerts
      WHERE program_id = ANY(${idArray(s.programIds)}::bigint[])
        AND first_at >= ${s.from.toISOString()} AND first_at < ${s.to.toISOString()}
    ),
    -- Every count and percentile of the period in one pass over its alerts (one scan each cost 10 ms at
    -- 76,000 alerts).
    minutes AS (
      SELECT
        count(*)::int AS total,
        count(*) FILTER (WHERE status = 'open')::int AS open,
        count(*) FILTER (WHERE status = 'acknowledged')::int AS acknowledged,
        count(*) FILTER (WHERE status = 'escalated')::int AS escalated,
        count(*) FILTER (WHERE status = 'resolved')::int AS resolved,
        count(*) FILTER (WHERE resolution = 'auto')::int AS auto_resolved,
        json_build_object('count', count(ack_min)::int,
          'median_minutes', round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ack_min)::numeric, 1),
          'p90_minutes', round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ack_min)::numeric, 1)) AS ack,
        json_build_object('count', count(res_min)::int,
          'median_minutes', round(percentile_cont(0.5) WITHIN GROUP (ORDER BY res_min)::numeric, 1),
          'p90_minutes', round(percentile_cont(0.9) WITHIN GROUP (ORDER BY res_min)::numeric, 1)) AS res
      FROM a
    ),
    days AS (
      SELECT d::date AS date FROM generate_series(
        (${s.from.toISOString()}::timestamptz AT TIME ZONE ${s.zone})::date,
        ((${s.to.toISOString()}::timestamptz - interval '1 second') AT TIME ZONE ${s.zone})::date,
        interval '1 day') d
    ),
    staff AS (
      SELECT h.admin_id,
             count(*) FILTER (WHERE h.action = 'acknowledged')::int AS acknowledged,
             count(*) FILTER (WHERE h.action = 'cleared')::int AS cleared,
             round((percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM h.at - a.first_at) / 60)
               FILTER (WHERE h.action = 'acknowledged'))::numeric, 1) AS median_ack
      FROM alert_history h JOIN a ON a.id = h.alert_id
      WHERE h.admin_id IS NOT NULL AND h.action IN ('acknowledged', 'cleared')
      GROUP BY h.admin_id
    )
    SELECT
      m.total, m.open, m.acknowledged, m.escalated, m.resolved, m.auto_resolved,
      m.ack AS time_to_acknowledge, m.res AS time_to_resolve,
      coalesce((SELECT json_agg(t ORDER BY t.count DESC, t.type) FROM (
        SELECT type, count(*)::int AS count,
               round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ack_min)::numeric, 1) AS median_acknowledge_minutes
        FROM a GROUP BY type) t), '[]') AS by_type,
      (SELECT json_agg(json_build_object('date', to_char(days.date, 'YYYY-MM-DD'),
          'opened', coalesce(o.n, 0), 'resolved', coalesce(r.n, 0)) ORDER BY days.date)
        FROM days
        LEFT JOIN (SELECT (first_at AT TIME ZONE ${s.zone})::date AS d, count(*)::int AS n FROM a GROUP BY 1) o ON o.d = days.date
        LEFT JOIN (SELECT (resolved_at AT TIME ZONE ${s.zone})::date AS d, count(*)::int AS n FROM a
                   WHERE resolved_at IS NOT NULL GROUP BY 1) r ON r.d = days.date) AS by_day,
      coalesce((SELECT json_agg(json_build_object(
          'admin', json_build_object('id', ad.id, 'name', trim(concat_ws(' ', ad.given_name, ad.family_name))),
          'acknowledged', staff.acknowledged, 'cleared', staff.cleared,
          'median_acknowledge_minutes', staff.median_ack) ORDER BY staff.acknowledged + staff.cleared DESC, ad.id)
        FROM staff JOIN admins ad ON ad.id = staff.admin_id), '[]') AS by_staff
    FROM minutes m`);
  return res.rows[0]!;
}

export type AnalyticsFilter = AnalyticsScope & {
  types: string[] | null;
  cohortIds: number[] | null;
  search: string | null;
  statuses: string[];
  hidden: boolean | null;
  assigned: { adminId: number } | 'nobody' | null;
  patient: { sex?: string; status?: string; assignedAdminId?: number };
  ids: number[] | null;
  page: number;
  perPage: number;
};

/** The alerts first seen in the period, filtered, newest first, with the total. */
export async function analyticsAlerts(db: Queryable, f: AnalyticsFilter) {
  const where: SQL[] = [
    sql`a.program_id = ANY(${idArray(f.programIds)}::bigint[])`,
    sql`a.first_at >= ${f.from.toISOString()} AND a.first_at < ${f.to.toISOString()}`,
    sql`a.status = ANY(${`{${f.statuses.join(',')}}`}::text[])`,
  ];
  if (f.types) where.push(sql`a.type = ANY(${`{${f.types.join(',')}}`}::text[])`);
  if (f.cohortIds)
    where.push(
      sql`EXISTS (SELECT 1 FROM group_patients gp WHERE gp.patient_id = a.patient_id AND gp.group_id = ANY(${idArray(f.cohortIds)}::bigint[]))`,
    );
  if (f.search) {
    const like = containsPattern(f.search);
    where.push(sql`(p.first_name ILIKE ${like} OR p.last_name ILIKE ${like} OR p.mrn ILIKE ${like})`);
  }
  if (f.hidden !== null) where.push(sql`a.hidden = ${f.hidden}`);
  if (f.assigned === 'nobody') where.push(sql`a.assigned_admin_id IS NULL`);
  else if (f.assigned) where.push(sql`a.assigned_admin_id = ${f.assigned.adminId}`);
  if (f.patient.sex) where.push(sql`p.sex = ${f.patient.sex}`);
  if (f.patient.status) where.push(sql`p.status = ${f.patient.status}`);
  if (f.patient.assignedAdminId) where.push(sql`p.assigned_admin_id = ${f.patient.assignedAdminId}`);
  if (f.ids) where.push(sql`a.id = ANY(${idArray(f.ids)}::bigint[])`);
  const res = await db.execute<AlertRow>(sql`
    SELECT ${alertColumns}, count(*) OVER ()::int AS total
    FROM alerts a ${alertJoins}
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY a.first_at DESC, a.id DESC
    LIMIT ${f.perPage} OFFSET ${(f.page - 1) * f.perPage}`);
  return res.rows;
}

export async function openAlertCount(db: Queryable, programIds: number[]) {
  const res = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM alerts WHERE program_id = ANY(${idArray(programIds)}::bigint[]) AND status <> 'resolved'`);
  return res.rows[0]!.n;
}

/**
 * One fact counted per day of the period, every day present (zeros included), from the quarter-hour counts
 * the database keeps as alerts, readings, doses and patients are written (migration 0048, ADR 066). A day of
 * any time zone starts on a quarter hour, so the sum of its buckets is the exact count.
 */
export async function dailyFact(db: Queryable, fact: DashboardFact, s: AnalyticsScope) {
  const res = await db.execute<{ date: string; value: number }>(sql`
    WITH r AS (
      SELECT (bucket AT TIME ZONE ${s.zone})::date AS d, sum(n)::int AS n FROM dashboard_fact_buckets
      WHERE program_id = ANY(${idArray(s.programIds)}::bigint[]) AND fact = ${fact}
        AND bucket >= ${s.from.toISOString()} AND bucket < ${s.to.toISOString()}
      GROUP BY 1)
    SELECT to_char(g::date, 'YYYY-MM-DD') AS date, coalesce(r.n, 0) AS value
    FROM generate_series((${s.from.toISOString()}::timestamptz AT TIME ZONE ${s.zone})::date,
                         ((${s.to.toISOString()}::timestamptz - interval '1 second') AT TIME ZONE ${s.zone})::date,
                         interval '1 day') g
    LEFT JOIN r ON r.d = g::date
    ORDER BY 1`);
  return res.rows;
}
