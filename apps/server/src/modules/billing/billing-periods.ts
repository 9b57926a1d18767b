import {
  type BillingPeriodRow,
  type BillingTimeTrack,
  BILLING_PERIOD_MESSAGES as PM,
  pageOf,
} from '@caredeck/contracts';
import {
  type BillingYearRules,
  daysLeftInPeriod,
  deviceOutcome,
  minutesSeconds,
  periodOf,
  rulesFor,
  setupCode,
  type TimeTrack,
  timeCodes,
} from '@caredeck/domain';
import { sql } from 'drizzle-orm';
import type { StaffActor } from '../../platform/access/actor';
import { assertBodyRefsInScope } from '../../platform/access/scope';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';

/** The monitoring devices whose supply starts the RPM periods (not dispensers, inhalers or NFC readers). */
const RPM_KINDS = sql`('bp_cuff', 'pulse_oximeter', 'scale', 'glucometer', 'wearable')`;

type Entry = { id: number; type: string; started_at: string; seconds: number; interactive: boolean };
type PageRow = {
  id: number;
  first_name: string;
  last_name: string;
  mrn: string | null;
  tz: string;
  day: string;
  supply_start: string | null;
  source: 'device' | 'staff' | null;
  month_start: string;
  month_end: string;
  dates: string[] | null;
  entries: Entry[] | null;
};

/**
 * One page of the program's patients (cut at the database by the name index), then for those patients only:
 * the device days (distinct local dates of device-transmitted readings, `device_id` set) of the 30-day period
 * holding the day, and the month's billable time entries. The supply start is the staff-set date, else the
 * local date the first device of the patient was provisioned (ADR 072).
 */
export async function periodPage(
  db: Queryable,
  programId: number,
  day: string | null,
  page: number,
  perPage: number,
) {
  const res = await db.execute<PageRow & { total: number }>(sql`
    WITH pg AS (
      SELECT p.id, p.first_name, p.last_name, p.mrn, coalesce(p.time_zone, 'UTC') AS tz
      FROM patients p WHERE p.program_id = ${programId}
      ORDER BY p.last_name, p.first_name, p.id
      LIMIT ${perPage} OFFSET ${(page - 1) * perPage}
    ), base AS MATERIALIZED (
      SELECT pg.*, coalesce(${day}::date, (now() AT TIME ZONE pg.tz)::date) AS day,
        coalesce(s.supply_start, (SELECT (min(d.provisioned_at) AT TIME ZONE pg.tz)::date
          FROM devices d WHERE d.patient_id = pg.id AND d.provisioned_at IS NOT NULL AND d.kind IN ${RPM_KINDS})) AS supply_start,
        CASE WHEN s.patient_id IS NOT NULL THEN 'staff'
          WHEN EXISTS (SELECT 1 FROM devices d WHERE d.patient_id = pg.id AND d.provisioned_at IS NOT NULL
            AND d.kind IN ${RPM_KINDS}) THEN 'device'
        END AS source
      FROM pg LEFT JOIN billing_supply_starts s ON s.patient_id = pg.id
    ), spans AS MATERIALIZED (
      SELECT base.*,
        CASE WHEN supply_start <= day THEN supply_start + ((day - supply_start) / 30) * 30 END AS p_start,
        date_trunc('month', day)::date AS month_start,
        (date_trunc('month', day) + interval '1 month - 1 day')::date AS month_end
      FROM base
    )
    SELECT s.id, s.first_name, s.last_name, s.mrn, s.tz, s.day::text AS day, s.supply_start::text AS supply_start,
      s.source, s.month_start::text AS month_start, s.month_end::text AS month_end,
      (SELECT array_agg(DISTINCT (m.measured_at AT TIME ZONE s.tz)::date::text)
        FROM measurements m
        WHERE m.patient_id = s.id AND m.device_id IS NOT NULL AND s.p_start IS NOT NULL
          AND m.measured_at >= (s.p_start - 1)::timestamptz AND m.measured_at < (s.p_start + 31)::timestamptz
          AND (m.measured_at AT TIME ZONE s.tz)::date BETWEEN s.p_start AND s.p_start + 29) AS dates,
      (SELECT json_agg(json_build_object('id', e.id, 'type', e.type, 'started_at', ${isoUtc(sql`e.started_at`)},
          'seconds', e.seconds, 'interactive', e.interactive) ORDER BY e.started_at, e.id)
        FROM billing_time_entries e
        WHERE e.patient_id = s.id AND e.billable
          AND e.started_at >= (s.month_start - 1)::timestamptz AND e.started_at < (s.month_end + 2)::timestamptz
          AND (e.started_at AT TIME ZONE s.tz)::date BETWEEN s.month_start AND s.month_end) AS entries,
      (SELECT count(*)::int FROM patients p WHERE p.program_id = ${programId}) AS total
    FROM spans s ORDER BY s.last_name, s.first_name, s.id`);
  const total = res.rows[0]?.total ?? (await countPatients(db, programId));
  return { rows: res.rows, total };
}

async function countPatients(db: Queryable, programId: number): Promise<number> {
  const r = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM patients WHERE program_id = ${programId}`,
  );
  return r.rows[0]?.n ?? 0;
}

function track(rules: BillingYearRules, name: TimeTrack, entries: Entry[]): BillingTimeTrack {
  const seconds = entries.reduce((n, e) => n + e.seconds, 0);
  const interactive = entries.some((e) => e.interactive);
  const out = timeCodes(rules, name, seconds, interactive);
  return {
    seconds,
    shown: minutesSeconds(seconds),
    interactive,
    codes: out.codes,
    next: out.next
      ? {
          code: out.next.code,
          seconds_needed: out.next.secondsNeeded,
          needs_interactive: out.next.needsInteractive,
        }
      : null,
    entries: entries.map(({ id, started_at, seconds: s, interactive: i }) => ({
      id,
      started_at,
      seconds: s,
      interactive: i,
    })),
  };
}

/** The codes of one patient from the page's facts, by the rules of the evaluated day's year. */
export function evaluateRow(r: PageRow): BillingPeriodRow {
  const rules = rulesFor(Number(r.day.slice(0, 4))) ?? rulesFor(2026);
  if (!rules) throw new Error('no billing rules');
  const period = r.supply_start ? periodOf(r.supply_start, r.day) : null;
  const device = period ? deviceOutcome(rules, 'rpm', period, r.dates ?? []) : null;
  const entries = r.entries ?? [];
  return {
    patient: { id: Number(r.id), first_name: r.first_name, last_name: r.last_name, mrn: r.mrn },
    time_zone: r.tz,
    supply_start: r.supply_start,
    supply_start_source: r.source,
    period: period ? { ...period, days_left: daysLeftInPeriod(period, r.day) } : null,
    device:
      device && period
        ? {
            dates: device.dates,
            code: device.code,
            setup_code: setupCode(rules, 'rpm', device),
            next: device.next ? { code: device.next.code, days_needed: device.next.daysNeeded } : null,
          }
        : null,
    month: { start: r.month_start, end: r.month_end },
    rpm_time: track(
      rules,
      'rpm-management',
      entries.filter((e) => e.type === 'rpm'),
    ),
    ccm_time: track(
      rules,
      'ccm',
      entries.filter((e) => e.type === 'ccm'),
    ),
  };
}

export function createBillingPeriodsService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async periods(
      actor: StaffActor,
      programId: number,
      q: { page: number; per_page: number; date?: string | undefined },
    ) {
      const { rows, total } = await periodPage(db, programId, q.date ?? null, q.page, q.per_page);
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'billing.periods_view',
        details: { rows: rows.length },
        ip: actor.ip,
      });
      return pageOf(rows.map(evaluateRow), q, total);
    },

    async setSupplyStart(
      actor: StaffActor,
      programId: number,
      patientId: number,
      input: { supply_start: string; reason: string },
    ) {
      await db.transaction(async (tx) => {
        await assertBodyRefsInScope(
          tx,
          { programIds: [programId], enterpriseIds: [] },
          { patients: [patientId] },
        );
        const before = await tx.execute<{ supply_start: string }>(
          sql`SELECT supply_start::text AS supply_start FROM billing_supply_starts WHERE patient_id = ${patientId} FOR UPDATE`,
        );
        await tx.execute(sql`
          INSERT INTO billing_supply_starts (patient_id, program_id, supply_start, reason, updated_by)
          VALUES (${patientId}, ${programId}, ${input.supply_start}::date, ${input.reason}, ${actor.adminId})
          ON CONFLICT (patient_id) DO UPDATE SET supply_start = excluded.supply_start, reason = excluded.reason,
            program_id = excluded.program_id, updated_by = excluded.updated_by, updated_at = now()`);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'billing.supply_start',
          subjectType: 'patient',
          subjectId: patientId,
          details: {
            from: before.rows[0]?.supply_start ?? null,
            to: input.supply_start,
            reason: input.reason,
          },
          ip: actor.ip,
        });
      });
      return {
        message: PM.supplyStartSet,
        data: { patient_id: patientId, supply_start: input.supply_start, reason: input.reason },
      };
    },
  };
}
export type BillingPeriodsService = ReturnType<typeof createBillingPeriodsService>;
