import { PassThrough, type Readable } from 'node:stream';
import {
  BILLING_CODES,
  BILLING_MAX_DAYS,
  type BillingStatus,
  CARE_ROLES,
  exportFileName,
  isCalendarDay,
  BILLING_MESSAGES as M,
  pageOf,
  periodErrors,
  type StaffRole,
} from '@caredeck/contracts';
import ExcelJS from 'exceljs';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { assertBodyRefsInScope } from '../../platform/access/scope';
import { audit, auditView } from '../../platform/audit/audit';
import { type PopulationCache, patientsOfPrograms, uncached } from '../../platform/cache/population-cache';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import {
  billingReport,
  billingStatusOf,
  CODE_COLUMNS,
  deleteTimeEntry,
  insertTimeEntry,
  minutesByAdmin,
  overlappingEntry,
  patientEntries,
  statusCounts,
  timeEntryById,
  upsertBillingStatus,
} from './billing.queries';

/** Who records time and reads billing: the roles that look after patients. */
export const BILLING_ROLES: readonly StaffRole[] = CARE_ROLES;
const STAMP_ZONE = 'America/New_York';

/** A report period of real YYYY-MM-DD days, at most 93 long; 422 naming the field otherwise. */
export function checkPeriod(start: string, end: string): void {
  if (!isCalendarDay(start)) throw AppError.validation({ start: ['Use a date like 2026-11-01.'] });
  if (!isCalendarDay(end)) throw AppError.validation({ end: ['Use a date like 2026-11-30.'] });
  const errors = periodErrors(start, end);
  if (errors)
    throw AppError.validation(errors.end?.[0]?.includes('after') ? { end: [M.periodOrder] } : errors);
  if ((Date.parse(end) - Date.parse(start)) / 86_400_000 + 1 > BILLING_MAX_DAYS)
    throw AppError.validation({ end: [M.periodTooLong] });
}

/** The calendar month (UTC) around `at`, as YYYY-MM-DD days. */
export function monthOf(at: Date): { start: string; end: string } {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return { start: iso(new Date(Date.UTC(y, m, 1))), end: iso(new Date(Date.UTC(y, m + 1, 0))) };
}

const flag = (v: string | undefined) => v === '1' || v === 'true';

type ReportQuery = {
  page: number;
  per_page: number;
  search: string;
  status?: BillingStatus;
  only_billable?: string;
};

export function createBillingService(deps: { db: Database; cache?: PopulationCache }) {
  const { db } = deps;
  const cache = deps.cache ?? uncached;

  async function report(actor: StaffActor, programId: number, start: string, end: string, q: ReportQuery) {
    checkPeriod(start, end);
    const filter = { search: q.search, status: q.status, onlyBillable: flag(q.only_billable) };
    const key = `billing:${programId}:${start}:${end}:${JSON.stringify([filter, q.page, q.per_page])}`;
    // In a large program at most the cache's freshness old (ADR 077): the totals add up every patient's month.
    const { rows, total, summary } = (
      await cache.get(key, await patientsOfPrograms(db, [programId]), () =>
        billingReport(db, { programId, start, end, ...filter }, { page: q.page, perPage: q.per_page }),
      )
    ).value;
    await auditView(db, {
      actorAdminId: actor.adminId,
      programId,
      action: 'billing.view',
      details: { start, end, rows: rows.length },
      ip: actor.ip,
    });
    return { ...pageOf(rows, q, total), summary };
  }

  async function patientBilling(
    actor: StaffActor,
    patientId: number,
    programId: number,
    period: { start: string; end: string },
    q: { page: number; per_page: number; type?: 'rpm' | 'ccm'; 'admin-interactions'?: string },
  ) {
    checkPeriod(period.start, period.end);
    const [entries, figures, status, byAdmin] = await Promise.all([
      patientEntries(db, { patientId, ...period, type: q.type, page: q.page, perPage: q.per_page }),
      billingReport(db, { programId, patientId, ...period }, null),
      billingStatusOf(db, patientId),
      flag(q['admin-interactions']) ? minutesByAdmin(db, { patientId, ...period, type: q.type }) : null,
    ]);
    await auditView(db, {
      actorAdminId: actor.adminId,
      programId,
      action: 'billing.patient_view',
      subjectType: 'patient',
      subjectId: patientId,
      ip: actor.ip,
    });
    const row = figures.rows[0];
    const {
      patient: _p,
      status: _s,
      billable: _b,
      ...summary
    } = row ?? {
      patient: null,
      status: 'billable',
      billable: false,
      reading_days: 0,
      rpm_minutes: 0,
      rpm_interactive: false,
      physician_minutes: 0,
      ccm_minutes: 0,
      codes: [],
    };
    return {
      ...pageOf(entries.rows, q, entries.total),
      status,
      period,
      summary,
      ...(byAdmin ? { by_admin: byAdmin } : {}),
    };
  }

  return {
    /** GET billing/{start}/{end}?program_id=: the program named in the query (404 outside, 403 for other roles). */
    async report(
      actor: StaffActor,
      params: { start: string; end: string },
      q: ReportQuery & { program_id: number },
    ) {
      const programId = await requireProgramRole(db, actor.adminId, q.program_id, BILLING_ROLES);
      return report(actor, programId, params.start, params.end, q);
    },

    async currentMonth(actor: StaffActor, programId: number, q: ReportQuery) {
      const period = monthOf(new Date());
      return { ...(await report(actor, programId, period.start, period.end, q)), period };
    },

    patientMonth(
      actor: StaffActor,
      patientId: number,
      programId: number,
      q: Parameters<typeof patientBilling>[4],
    ) {
      return patientBilling(actor, patientId, programId, monthOf(new Date()), q);
    },

    patientPeriod(
      actor: StaffActor,
      patientId: number,
      programId: number,
      period: { start: string; end: string },
      q: Parameters<typeof patientBilling>[4],
    ) {
      return patientBilling(actor, patientId, programId, period, q);
    },

    /** The report as a workbook: one row per patient, the codes as columns, a summary sheet. */
    async download(
      actor: StaffActor,
      params: { start: string; end: string },
      q: { program_id: number; search: string; status?: BillingStatus; only_billable?: string },
    ): Promise<{ fileName: string; stream: Readable }> {
      const programId = await requireProgramRole(db, actor.adminId, q.program_id, BILLING_ROLES);
      checkPeriod(params.start, params.end);
      const { rows, summary } = await billingReport(
        db,
        {
          programId,
          start: params.start,
          end: params.end,
          search: q.search,
          status: q.status,
          onlyBillable: flag(q.only_billable),
        },
        null,
      );
      await audit(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'billing.export',
        details: { start: params.start, end: params.end, rows: rows.length },
        ip: actor.ip,
      });
      const out = new PassThrough();
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
      workbook.creator = 'CareDeck';
      const sheet = workbook.addWorksheet('Billing', { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = [
        { header: 'MRN', key: 'mrn', width: 14 },
        { header: 'Last name', key: 'last_name', width: 18 },
        { header: 'First name', key: 'first_name', width: 16 },
        { header: 'Billing status', key: 'status', width: 14 },
        { header: 'Days with readings', key: 'reading_days', width: 12 },
        { header: 'RPM minutes', key: 'rpm_minutes', width: 12 },
        { header: 'Interactive contact', key: 'interactive', width: 12 },
        { header: 'Physician minutes', key: 'physician_minutes', width: 12 },
        { header: 'CCM minutes', key: 'ccm_minutes', width: 12 },
        ...CODE_COLUMNS.map((c) => ({ header: c, key: c, width: 8 })),
        { header: 'Billable', key: 'billable', width: 9 },
      ];
      sheet.getRow(1).font = { bold: true };
      for (const r of rows) {
        const units = Object.fromEntries(r.codes.map((c) => [c.code, c.units]));
        sheet
          .addRow({
            mrn: r.patient.mrn,
            last_name: r.patient.last_name,
            first_name: r.patient.first_name,
            status: r.status,
            reading_days: r.reading_days,
            rpm_minutes: r.rpm_minutes,
            interactive: r.rpm_interactive ? 'yes' : 'no',
            physician_minutes: r.physician_minutes,
            ccm_minutes: r.ccm_minutes,
            ...Object.fromEntries(CODE_COLUMNS.map((c) => [c, units[c] ?? 0])),
            billable: r.billable ? 'yes' : 'no',
          })
          .commit();
      }
      sheet.commit();
      const totals = workbook.addWorksheet('Summary');
      totals.columns = [
        { header: 'Figure', key: 'k', width: 40 },
        { header: 'Value', key: 'v', width: 14 },
      ];
      const lines: [string, string | number][] = [
        ['Period', `${params.start} to ${params.end}`],
        ['Patients', summary.patients],
        ['Billable patients (earning a code)', summary.billable_patients],
        ['RPM minutes', summary.rpm_minutes],
        ['CCM minutes', summary.ccm_minutes],
        ...BILLING_CODES.map((c): [string, number] => [
          `${c.code} ${c.description}`,
          summary.codes[c.code] ?? 0,
        ]),
      ];
      for (const [k, v] of lines) totals.addRow({ k, v }).commit();
      totals.commit();
      void workbook.commit();
      return { fileName: exportFileName('billing', new Date(), STAMP_ZONE), stream: out };
    },

    /**
     * POST billing: time on a patient of a program where the caller looks after patients. The patient must
     * be of that program (404); the caller's own entries may not overlap (409: the same minutes cannot be
     * billed twice).
     */
    async record(
      actor: StaffActor,
      input: {
        user_id: number;
        program_id: number;
        type: 'rpm' | 'ccm';
        activity: string;
        interactive: boolean;
        billable: boolean;
        started_at: string;
        ended_at: string;
        note?: string | null;
        source: 'timer' | 'manual';
      },
    ) {
      const programId = await requireProgramRole(db, actor.adminId, input.program_id, BILLING_ROLES);
      const id = await db.transaction(async (tx) => {
        await assertBodyRefsInScope(
          tx,
          { programIds: [programId], enterpriseIds: [] },
          { patients: [input.user_id] },
        );
        const overlap = await overlappingEntry(tx, actor.adminId, input.started_at, input.ended_at);
        if (overlap)
          throw AppError.conflict(
            `This time overlaps an entry of yours (${overlap.started_at.slice(11, 16)}–${overlap.ended_at.slice(11, 16)} UTC).`,
          );
        const created = await insertTimeEntry(tx, {
          programId,
          patientId: input.user_id,
          adminId: actor.adminId,
          type: input.type,
          activity: input.activity,
          interactive: input.interactive,
          billable: input.billable,
          startedAt: input.started_at,
          endedAt: input.ended_at,
          note: input.note ?? null,
          source: input.source,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'billing.record',
          subjectType: 'patient',
          subjectId: input.user_id,
          details: {
            entry_id: created,
            type: input.type,
            activity: input.activity,
            billable: input.billable,
          },
          ip: actor.ip,
        });
        return created;
      });
      const data = await timeEntryById(db, id);
      const { admin_id: _a, ...entry } = data!;
      return { message: M.recorded, data: entry };
    },

    /** DELETE billing/{id}: its author, or an administrator of the program. */
    async remove(actor: StaffActor, entryId: number, programId: number, roles: readonly StaffRole[]) {
      const entry = await timeEntryById(db, entryId);
      if (!entry) throw AppError.notFound();
      if (entry.admin_id !== actor.adminId && !roles.some((r) => r === 'admin' || r === 'enterprise_admin'))
        throw AppError.forbidden();
      await db.transaction(async (tx) => {
        await deleteTimeEntry(tx, entryId);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'billing.delete',
          subjectType: 'patient',
          subjectId: entry.patient_id,
          details: { entry_id: entryId, seconds: entry.seconds },
          ip: actor.ip,
        });
      });
      return { message: M.deleted };
    },

    async setStatus(
      actor: StaffActor,
      programId: number,
      patientId: number,
      input: { status: BillingStatus; reason?: string | null },
    ) {
      await db.transaction(async (tx) => {
        await assertBodyRefsInScope(
          tx,
          { programIds: [programId], enterpriseIds: [] },
          { patients: [patientId] },
        );
        await upsertBillingStatus(tx, {
          patientId,
          programId,
          status: input.status,
          reason: input.reason ?? null,
          adminId: actor.adminId,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'billing.status',
          subjectType: 'patient',
          subjectId: patientId,
          details: { status: input.status },
          ip: actor.ip,
        });
      });
      return {
        message: M.statusUpdated,
        data: { patient_id: patientId, status: input.status, reason: input.reason ?? null },
      };
    },

    async statuses(programId: number) {
      const counts = await statusCounts(db, programId);
      return {
        data: (['billable', 'not_billable', 'on_hold'] as const).map((status) => ({
          status,
          patients: counts.find((c) => c.status === status)?.patients ?? 0,
        })),
      };
    },

    codes: () => ({ data: BILLING_CODES.map((c) => ({ ...c })) }),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
