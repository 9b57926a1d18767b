import type { AdminLogEntry, DayActivity, LoginLogoutEntry, StaffActivity } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { pageOfHits } from '../../platform/db/page';
import { isoUtc } from '../../platform/db/time';

/** A period of whole UTC days: [start, end + 1 day). */
export type Period = { from: string; to: string };
const within = (column: SQL, p: Period) =>
  sql`${column} >= ${p.from}::date AND ${column} < ${p.to}::date + 1`;
const person = sql`json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name)`;

/** Whether the staff member holds a role in the program (or its enterprise). */
export async function staffOfProgram(db: Queryable, programId: number, adminId: number): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT 1 FROM admin_program_roles WHERE admin_id = ${adminId} AND program_id = ${programId}
    UNION ALL
    SELECT 1 FROM admin_enterprise_roles r JOIN programs p ON p.enterprise_id = r.enterprise_id
    WHERE r.admin_id = ${adminId} AND p.id = ${programId}
    LIMIT 1`);
  return (res.rowCount ?? 0) > 0;
}

export async function logEntries(
  db: Queryable,
  programId: number,
  q: { period: Period; adminId?: number; action?: string; page: number; per_page: number },
): Promise<{ rows: AdminLogEntry[]; total: number }> {
  const where = sql`e.program_id = ${programId} AND ${within(sql`e.created_at`, q.period)}
    ${q.adminId === undefined ? sql`` : sql`AND e.actor_admin_id = ${q.adminId}`}
    ${q.action ? sql`AND e.action LIKE ${`${q.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``}`;
  // Found and counted on the events alone; only the page is joined and built (issue 27).
  const { rows, total } = await pageOfHits<AdminLogEntry & { created_at: string }>(db, {
    hits: sql`SELECT e.id, e.created_at FROM audit_events e WHERE ${where}`,
    order: sql`created_at DESC, id DESC`,
    limit: q.per_page,
    offset: (q.page - 1) * q.per_page,
    build: sql`
      SELECT e.id, CASE WHEN a.id IS NULL THEN NULL ELSE ${person} END AS admin, e.action, e.subject_type,
        e.subject_id, e.details, ${isoUtc(sql`e.created_at`)} AS at, e.created_at
      FROM page JOIN audit_events e ON e.id = page.id LEFT JOIN admins a ON a.id = e.actor_admin_id`,
    buildOrder: sql`x.created_at DESC, x.id DESC`,
  });
  return {
    rows: rows.map(({ created_at: _c, ...r }) => ({
      ...r,
      id: Number(r.id),
      subject_id: r.subject_id === null ? null : Number(r.subject_id),
    })),
    total,
  };
}

/** One row per staff member of the program with activity in the period (or one member's). */
export async function activityByStaff(
  db: Queryable,
  programId: number,
  period: Period,
  adminId?: number,
): Promise<StaffActivity[]> {
  // One member's figures read that member's rows only (by the actor's index), not every member's.
  const one = (column: string) => (adminId === undefined ? sql`` : sql`AND ${sql.raw(column)} = ${adminId}`);
  const res = await db.execute<StaffActivity>(sql`
    WITH staff AS (
      SELECT DISTINCT admin_id FROM admin_program_roles WHERE program_id = ${programId}
        ${adminId === undefined ? sql`` : sql`AND admin_id = ${adminId}`}
      UNION
      SELECT DISTINCT r.admin_id FROM admin_enterprise_roles r JOIN programs p ON p.enterprise_id = r.enterprise_id
      WHERE p.id = ${programId} ${adminId === undefined ? sql`` : sql`AND r.admin_id = ${adminId}`}),
    ev AS (
      SELECT actor_admin_id AS admin_id, count(*)::int AS actions,
        count(DISTINCT subject_id) FILTER (WHERE subject_type = 'patient')::int AS patients, max(created_at) AS last_at
      FROM audit_events e WHERE e.program_id = ${programId} AND ${within(sql`e.created_at`, period)}
        ${one('e.actor_admin_id')}
      GROUP BY actor_admin_id),
    pages AS (
      SELECT admin_id, round(sum(time_s) / 60.0, 1)::float AS minutes FROM page_sessions s
      WHERE s.program_id = ${programId} AND ${within(sql`s.created_at`, period)} ${one('s.admin_id')} GROUP BY admin_id),
    logins AS (
      SELECT admin_id, count(*)::int AS sign_ins FROM login_logs l WHERE ${within(sql`l.login_at`, period)} ${one('l.admin_id')}
      GROUP BY admin_id)
    SELECT ${person} AS admin, coalesce(ev.actions, 0) AS actions, coalesce(ev.patients, 0) AS patients,
      coalesce(pages.minutes, 0) AS minutes, coalesce(logins.sign_ins, 0) AS sign_ins, ${isoUtc(sql`ev.last_at`)} AS last_at
    FROM staff JOIN admins a ON a.id = staff.admin_id
    LEFT JOIN ev ON ev.admin_id = staff.admin_id LEFT JOIN pages ON pages.admin_id = staff.admin_id
    LEFT JOIN logins ON logins.admin_id = staff.admin_id
    ORDER BY coalesce(ev.actions, 0) DESC, a.family_name, a.given_name, a.id`);
  return res.rows;
}

export async function actionCounts(db: Queryable, programId: number, adminId: number, period: Period) {
  const res = await db.execute<{ action: string; n: number }>(sql`
    SELECT action, count(*)::int AS n FROM audit_events e
    WHERE e.program_id = ${programId} AND e.actor_admin_id = ${adminId} AND ${within(sql`e.created_at`, period)}
    GROUP BY action ORDER BY n DESC, action`);
  return Object.fromEntries(res.rows.map((r) => [r.action, r.n]));
}

export async function daysOf(
  db: Queryable,
  programId: number,
  adminId: number,
  period: Period,
): Promise<DayActivity[]> {
  const res = await db.execute<DayActivity>(sql`
    WITH days AS (SELECT generate_series(${period.from}::date, ${period.to}::date, interval '1 day')::date AS d),
    ev AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS d, count(*)::int AS actions,
        count(DISTINCT subject_id) FILTER (WHERE subject_type = 'patient')::int AS patients,
        min(created_at) AS first_at, max(created_at) AS last_at
      FROM audit_events e WHERE e.program_id = ${programId} AND e.actor_admin_id = ${adminId} AND ${within(sql`e.created_at`, period)}
      GROUP BY 1),
    pages AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS d, round(sum(time_s) / 60.0, 1)::float AS minutes
      FROM page_sessions s WHERE s.program_id = ${programId} AND s.admin_id = ${adminId} AND ${within(sql`s.created_at`, period)}
      GROUP BY 1)
    SELECT to_char(days.d, 'YYYY-MM-DD') AS date, coalesce(ev.actions, 0) AS actions, coalesce(ev.patients, 0) AS patients,
      coalesce(pages.minutes, 0) AS minutes, ${isoUtc(sql`ev.first_at`)} AS first_at, ${isoUtc(sql`ev.last_at`)} AS last_at
    FROM days LEFT JOIN ev ON ev.d = days.d LEFT JOIN pages ON pages.d = days.d
    ORDER BY days.d DESC`);
  return res.rows;
}

export async function patientCounts(db: Queryable, programId: number, adminId: number, period: Period) {
  const res = await db.execute<{ date: string; patients: number; total: number }>(sql`
    WITH touched AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS d, subject_id FROM audit_events e
      WHERE e.program_id = ${programId} AND e.actor_admin_id = ${adminId} AND e.subject_type = 'patient'
        AND ${within(sql`e.created_at`, period)})
    SELECT to_char(d, 'YYYY-MM-DD') AS date, count(DISTINCT subject_id)::int AS patients,
      (SELECT count(DISTINCT subject_id)::int FROM touched) AS total
    FROM touched GROUP BY d ORDER BY d DESC`);
  return { total: res.rows[0]?.total ?? 0, days: res.rows.map(({ total: _t, ...r }) => r) };
}

export async function loginLogoutOf(
  db: Queryable,
  adminId: number,
  period: Period,
): Promise<{ rows: LoginLogoutEntry[]; total: number }> {
  const res = await db.execute<LoginLogoutEntry & { total: number }>(sql`
    SELECT id, ${isoUtc(sql`login_at`)} AS login_at, ${isoUtc(sql`logout_at`)} AS logout_at,
      CASE WHEN logout_at IS NULL THEN NULL ELSE round((extract(epoch FROM logout_at - login_at) / 60)::numeric, 1)::float END AS minutes, ip,
      count(*) OVER ()::int AS total
    FROM login_logs l WHERE l.admin_id = ${adminId} AND ${within(sql`l.login_at`, period)}
    ORDER BY login_at DESC LIMIT 500`);
  return {
    rows: res.rows.map(({ total: _t, ...r }) => ({ ...r, id: Number(r.id) })),
    total: res.rows[0]?.total ?? 0,
  };
}
