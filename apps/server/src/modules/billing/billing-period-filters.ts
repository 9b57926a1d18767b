import {
  BILLING_PERIOD_CODES,
  type BillingPeriodStatus,
  type BillingPeriodsFilterQuery,
  PERIODS_CURSOR_INVALID,
} from '@caredeck/contracts';
import { type BillingYearRules, type CodeRule, rulesFor } from '@caredeck/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';

/** The monitoring devices whose supply starts the RPM periods (not dispensers, inhalers or NFC readers). */
export const RPM_KINDS = sql`('bp_cuff', 'pulse_oximeter', 'scale', 'glucometer', 'wearable')`;

/** The facts' column holding the seconds of each time track the periods call evaluates. */
const SECONDS: Partial<Record<string, SQL>> = {
  'rpm-management': sql`f.rpm_secs`,
  'rpm-physician-data': sql`f.phys_secs`,
  ccm: sql`f.ccm_secs`,
};
const INTERACTIVE: Partial<Record<string, SQL>> = { 'rpm-management': sql`f.rpm_int` };

export function yearRules(date: string | null | undefined): BillingYearRules {
  const rules = rulesFor(date ? Number(date.slice(0, 4)) : new Date().getUTCFullYear()) ?? rulesFor(2026);
  if (!rules) throw new Error('no billing rules');
  return rules;
}

function timeRule(rules: BillingYearRules, code: string) {
  return rules.codes.find(
    (c): c is Extract<CodeRule, { kind: 'time' }> => c.kind === 'time' && c.code === code,
  );
}

function timePredicate(rule: Extract<CodeRule, { kind: 'time' }>, minSeconds: number): SQL {
  const secs = SECONDS[rule.track];
  if (!secs) throw new Error(`the periods call does not evaluate ${rule.track}`);
  const upper = minSeconds === rule.minSeconds && rule.maxSeconds !== null ? rule.maxSeconds : null;
  const interactive = rule.interactive ? (INTERACTIVE[rule.track] ?? sql`true`) : sql`true`;
  return sql`(${secs} >= ${minSeconds}::int AND ${upper === null ? sql`true` : sql`${secs} <= ${upper}::int`} AND ${interactive})`;
}

/**
 * The SQL condition, over one patient's facts (`f.n` device days of the period, `f.p_index`, seconds per track,
 * the interactive flag), under which the patient earns `code` by the year's table: no threshold is written here.
 */
export function codePredicate(rules: BillingYearRules, code: string): SQL {
  const rule = rules.codes.find((c) => c.code === code && (c.kind !== 'device' || c.track === 'rpm'));
  if (!rule) throw new Error(`no rule for ${code}`);
  switch (rule.kind) {
    case 'setup':
      return sql`(f.p_index = 0 AND f.n >= ${rule.minDays}::int)`;
    case 'device':
      return sql`(f.n BETWEEN ${rule.minDays}::int AND ${rule.maxDays}::int)`;
    case 'time':
      return timePredicate(rule, rule.minSeconds);
    case 'add-on': {
      const base = timeRule(rules, rule.base);
      if (!base) throw new Error(`no base rule for ${code}`);
      return timePredicate(base, base.minSeconds + rule.eachSeconds);
    }
  }
}

/** Earns anything: any of the codes the periods call evaluates. */
export function earningPredicate(rules: BillingYearRules): SQL {
  return sql`(${sql.join(
    BILLING_PERIOD_CODES.map((c) => codePredicate(rules, c)),
    sql` OR `,
  )})`;
}

/**
 * On the at-risk worklist (billing-at-risk.ts, the same thresholds): a supply start on or before the day, and
 * either fewer device days than the 16-30 code with the next device code still reachable in the days left, or
 * less RPM time than the first full time code.
 */
export function atRiskPredicate(rules: BillingYearRules): SQL {
  const device = rules.codes
    .filter((c): c is Extract<CodeRule, { kind: 'device' }> => c.kind === 'device' && c.track === 'rpm')
    .sort((a, b) => a.minDays - b.minDays);
  const time = rules.codes
    .filter(
      (c): c is Extract<CodeRule, { kind: 'time' }> => c.kind === 'time' && c.track === 'rpm-management',
    )
    .sort((a, b) => a.minSeconds - b.minSeconds);
  const [d1, d2] = device;
  const t2 = time[1];
  if (!d1 || !d2 || !t2) throw new Error('the billing rules lack the RPM ladders');
  const needed = sql`(CASE WHEN f.n < ${d1.minDays}::int THEN ${d1.minDays}::int ELSE ${d2.minDays}::int END - f.n)`;
  return sql`(f.p_start IS NOT NULL AND ((f.n < ${d2.minDays}::int AND ${needed} <= f.left_days)
    OR f.rpm_secs < ${t2.minSeconds}::int))`;
}

/** The positive condition a patient's facts must meet (`not_earning` is the complement of `earning`). */
export function filterPredicate(
  rules: BillingYearRules,
  f: { code?: string | undefined; status?: BillingPeriodStatus | undefined },
): SQL {
  const parts: SQL[] = [];
  if (f.code) parts.push(codePredicate(rules, f.code));
  if (f.status === 'earning' || f.status === 'not_earning') parts.push(earningPredicate(rules));
  if (f.status === 'at_risk') parts.push(atRiskPredicate(rules));
  return parts.length > 0 ? sql.join(parts, sql` AND `) : sql`true`;
}

/**
 * 422 unless the assignee is staff of the program (a program role, an enterprise role over it) or has patients
 * of it assigned (someone whose role was removed still has patients to hand over).
 */
export async function assertAssignee(
  db: Queryable,
  programId: number,
  q: Pick<BillingPeriodsFilterQuery, 'assignee_id'>,
) {
  if (q.assignee_id === undefined) return;
  const r = await db.execute<{ ok: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM admin_program_roles WHERE admin_id = ${q.assignee_id} AND program_id = ${programId})
      OR EXISTS (SELECT 1 FROM admin_enterprise_roles er JOIN programs pr ON pr.enterprise_id = er.enterprise_id
        WHERE er.admin_id = ${q.assignee_id} AND pr.id = ${programId})
      OR EXISTS (SELECT 1 FROM patients WHERE program_id = ${programId} AND assigned_admin_id = ${q.assignee_id})
      AS ok`);
  if (!r.rows[0]?.ok)
    throw AppError.validation({ assignee_id: ['No staff member of this program has this id.'] });
}

/** Where a keyset page of the periods call starts: after this patient in name order (ADR 080). */
export type PeriodsCursor = { last_name: string; first_name: string; id: number };

/** The opaque `cursor`/`next_cursor`: base64url of the JSON `[last_name, first_name, id]`. */
export function encodePeriodsCursor(c: PeriodsCursor): string {
  return Buffer.from(JSON.stringify([c.last_name, c.first_name, c.id]), 'utf8').toString('base64url');
}

/** The cursor's patient; 422 naming `cursor` when it is not one this call gave. */
export function decodePeriodsCursor(s: string): PeriodsCursor {
  const bad = () => AppError.validation({ cursor: [PERIODS_CURSOR_INVALID] });
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(v) || v.length !== 3) throw bad();
  const [last, first, id] = v as unknown[];
  if (typeof last !== 'string' || typeof first !== 'string') throw bad();
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw bad();
  return { last_name: last, first_name: first, id };
}
