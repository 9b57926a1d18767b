import { Readable } from 'node:stream';
import type { BillingPeriodRow, BillingPeriodsFilterQuery } from '@caredeck/contracts';
import { exportFileStamp } from '@caredeck/domain';
import { sql } from 'drizzle-orm';
import type { StaffActor } from '../../platform/access/actor';
import { auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { csvOf, type Table, xlsxStream } from '../reports/files';
import { assertAssignee, encodePeriodsCursor } from './billing-period-filters';
import { matchingIds, type PageRow, periodPage } from './billing-period-page';
import { evaluateRow } from './billing-periods';

/** Patients evaluated per statement while the export walks the program by keyset (ADR 080). */
const BATCH = 500;

type People = { id: number; provider: string | null; assigned: string | null; icd10: string[] | null };

export const EXPORT_COLUMNS: Table['columns'] = [
  { header: 'MRN', key: 'mrn', width: 14 },
  { header: 'Last name', key: 'last_name', width: 18 },
  { header: 'First name', key: 'first_name', width: 16 },
  { header: 'Period start', key: 'period_start', width: 12 },
  { header: 'Period end', key: 'period_end', width: 12 },
  { header: 'Device days', key: 'device_days', width: 11 },
  { header: 'Device code', key: 'device_code', width: 11 },
  { header: 'Month start', key: 'month_start', width: 12 },
  { header: 'Month end', key: 'month_end', width: 12 },
  { header: 'RPM time', key: 'rpm_time', width: 9 },
  { header: 'CCM time', key: 'ccm_time', width: 9 },
  { header: 'Physician time', key: 'physician_time', width: 10 },
  { header: 'Codes earned', key: 'codes', width: 30 },
  { header: 'Units', key: 'units', width: 7 },
  { header: 'Rendering provider', key: 'provider', width: 22 },
  { header: 'Assigned staff', key: 'assigned', width: 22 },
  { header: 'ICD-10', key: 'icd10', width: 22 },
];

/** The codes of a row with their units: set-up and device code once, time codes with their units. */
export function codesOf(r: BillingPeriodRow): { code: string; units: number }[] {
  const device = [r.device?.setup_code, r.device?.code]
    .filter((c): c is string => !!c)
    .map((code) => ({ code, units: 1 }));
  return [...device, ...r.rpm_time.codes, ...r.ccm_time.codes, ...(r.physician_time?.codes ?? [])];
}

function lineOf(r: BillingPeriodRow, p: People | undefined): Record<string, unknown> {
  const codes = codesOf(r);
  return {
    mrn: r.patient.mrn ?? '',
    last_name: r.patient.last_name,
    first_name: r.patient.first_name,
    period_start: r.period?.start ?? '',
    period_end: r.period?.end ?? '',
    device_days: r.device?.dates.length ?? 0,
    device_code: r.device?.code ?? '',
    month_start: r.month.start,
    month_end: r.month.end,
    rpm_time: r.rpm_time.shown,
    ccm_time: r.ccm_time.shown,
    physician_time: r.physician_time?.shown ?? '',
    codes: codes.map((c) => (c.units > 1 ? `${c.code} x${c.units}` : c.code)).join('; '),
    units: codes.reduce((n, c) => n + c.units, 0),
    provider: p?.provider ?? '',
    assigned: p?.assigned ?? '',
    icd10: (p?.icd10 ?? []).join('; '),
  };
}

/** For one batch of patients, in one statement: the physician, the assigned staff, the active ICD-10 codes. */
async function peopleOf(db: Queryable, ids: number[]): Promise<Map<number, People>> {
  if (ids.length === 0) return new Map();
  const res = await db.execute<People>(sql`
    SELECT p.id, ph.given_name || ' ' || ph.family_name AS provider, aa.given_name || ' ' || aa.family_name AS assigned,
      (SELECT array_agg(DISTINCT c->>'code' ORDER BY c->>'code') FROM disease_states ds,
          jsonb_array_elements(ds.conditions) c
        WHERE ds.patient_id = p.id AND ds.deleted_at IS NULL AND ds.ended_at IS NULL AND c ? 'code') AS icd10
    FROM patients p
    LEFT JOIN admins ph ON ph.id = p.physician_id
    LEFT JOIN admins aa ON aa.id = p.assigned_admin_id
    WHERE p.id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
  return new Map(res.rows.map((r) => [Number(r.id), r]));
}

/**
 * Every matching patient inside one read-only snapshot. Without a code or status filter the program is walked by
 * keyset on the name index; with one, the matches are found in one pass over the candidates' facts and then
 * evaluated in batches of ids (ADR 080).
 */
export async function exportLines(db: Database, programId: number, q: BillingPeriodsFilterQuery) {
  return db.transaction(
    async (tx) => {
      const lines: Record<string, unknown>[] = [];
      const add = async (rows: PageRow[]) => {
        const people = await peopleOf(
          tx,
          rows.map((r) => Number(r.id)),
        );
        for (const r of rows) lines.push(lineOf(evaluateRow(r), people.get(Number(r.id))));
      };
      const batch = { ...q, page: 1, per_page: BATCH, code: undefined, status: undefined };
      if (q.code || q.status) {
        const ids = await matchingIds(tx, programId, q);
        for (let i = 0; i < ids.length; i += BATCH)
          await add((await periodPage(tx, programId, batch, ids.slice(i, i + BATCH))).rows);
        return lines;
      }
      let cursor: string | undefined;
      for (;;) {
        const { rows } = await periodPage(tx, programId, { ...batch, cursor });
        await add(rows);
        const last = rows.at(-1);
        if (rows.length < BATCH || !last) return lines;
        cursor = encodePeriodsCursor({
          last_name: last.last_name,
          first_name: last.first_name,
          id: Number(last.id),
        });
      }
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export function createBillingPeriodsExportService(deps: { db: Database }) {
  const { db } = deps;
  return {
    /** The evidence view's rows as a CSV or XLSX file, with the view's filters (ADR 080). */
    async export(
      actor: StaffActor,
      programId: number,
      format: 'csv' | 'xlsx',
      q: Omit<BillingPeriodsFilterQuery, 'page' | 'per_page' | 'cursor'>,
    ) {
      const query = { ...q, page: 1, per_page: BATCH };
      await assertAssignee(db, programId, query);
      const rows = await exportLines(db, programId, query);
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'billing.export',
        details: {
          view: 'periods',
          format,
          rows: rows.length,
          code: q.code ?? null,
          status: q.status ?? null,
        },
        ip: actor.ip,
      });
      const table: Table = {
        title: 'Billing periods',
        sheet: 'Billing periods',
        heading: [],
        columns: EXPORT_COLUMNS,
        rows,
      };
      const fileName = `billing_periods_${exportFileStamp(new Date(), 'UTC')}.${format}`;
      const stream =
        format === 'xlsx' ? xlsxStream([table]) : Readable.from([Buffer.from(csvOf(table), 'utf8')]);
      return { fileName, stream };
    },
  };
}
export type BillingPeriodsExportService = ReturnType<typeof createBillingPeriodsExportService>;
