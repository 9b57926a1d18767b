import {
  type BillingPeriodRow,
  type BillingPeriodsFilterQuery,
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
import type { Database } from '../../platform/db/client';
import { assertAssignee, encodePeriodsCursor } from './billing-period-filters';
import { type Entry, type PageRow, periodPage } from './billing-period-page';

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
    physician_time: period ? track(rules, 'rpm-physician-data', r.physician ?? []) : null,
  };
}

export function createBillingPeriodsService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async periods(actor: StaffActor, programId: number, q: BillingPeriodsFilterQuery) {
      await assertAssignee(db, programId, q);
      const { rows, total } = await periodPage(db, programId, q);
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'billing.periods_view',
        details: {
          rows: rows.length,
          code: q.code ?? null,
          status: q.status ?? null,
          assignee_id: q.assignee_id ?? null,
        },
        ip: actor.ip,
      });
      const last = rows.length === q.per_page ? rows.at(-1) : undefined;
      return {
        ...pageOf(rows.map(evaluateRow), q, total),
        next_cursor: last
          ? encodePeriodsCursor({
              last_name: last.last_name,
              first_name: last.first_name,
              id: Number(last.id),
            })
          : null,
      };
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
