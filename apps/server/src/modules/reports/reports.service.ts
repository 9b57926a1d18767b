import {
  type AuditAction,
  CARE_ROLES,
  exportFileName,
  type NewReport,
  type PatientReport,
  REPORT_AUDIENCE,
  REPORT_MAX_DAYS,
  REPORT_MESSAGES,
  REPORT_TYPES,
  type Report,
  type ReportRun,
  type ReportType,
  type ReportTypeInfo,
  reportsContract,
  routeUrl,
  type StaffRole,
} from '@caredeck/contracts';
import { localDateOf } from '@caredeck/domain';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { audit, auditView } from '../../platform/audit/audit';
import { createSecretBox } from '../../platform/auth/secret-box';
import type { Database } from '../../platform/db/client';
import { type FileStorage, newKey } from '../../platform/files/storage';
import type { UploadedFile } from '../../platform/files/upload';
import { AppError } from '../../platform/http/errors';
import { addDays, iso } from '../adherence/calendar-range';
import { classifyPatients } from '../adherence/classify-many';
import { billingReport } from '../billing/billing.queries';
import { exportBatch } from '../patients/export.queries';
import { createExportService } from '../patients/export.service';
import { contentTypeOf, storeTables, type Table } from './files';
import type { ReportRow, RunRow } from './reports.queries';
import * as q from './reports.queries';
import { DeliveryError, sftpUpload } from './sftp';

/** Care reports hold PHI: the roles that look after patients. Pharma reports (per medication) add pharma staff. */
export const CARE_REPORT_ROLES: readonly StaffRole[] = CARE_ROLES;
export const PHARMA_REPORT_ROLES: readonly StaffRole[] = ['admin', 'enterprise_admin', 'pharma', 'pharmacy'];
export const REPORT_ROLES: readonly StaffRole[] = [
  ...new Set([...CARE_REPORT_ROLES, ...PHARMA_REPORT_ROLES]),
];
const MANAGER_ROLES: readonly StaffRole[] = ['admin', 'enterprise_admin'];
/** Export names are stamped in the spec's display zone (01 §9). */
const STAMP_ZONE = 'America/New_York';
const TYPES: Record<ReportType, { name: string; description: string }> = {
  patient_roster: {
    name: 'Patient roster',
    description: 'Patients enrolled during the period with demographics, status, physician and assignment',
  },
  adherence_summary: {
    name: 'Adherence summary',
    description: 'Per patient: doses due, on time, late, missed and skipped, adherence and compliance',
  },
  readings_summary: {
    name: 'Readings summary',
    description: 'Per patient and reading type: count, out of range, lowest, highest, average, last reading',
  },
  alerts_summary: {
    name: 'Alerts summary',
    description:
      'Per patient: alerts opened in the period, resolved, still open, escalated, most frequent type',
  },
  billing_summary: {
    name: 'Billing summary',
    description: 'Per patient: days with readings, RPM and CCM minutes and the billing codes earned',
  },
  pharma_adherence: {
    name: 'Adherence by medication',
    description: 'Per medication, without patient identifiers: patients, doses due and taken, adherence',
  },
  pharma_regimens: {
    name: 'Regimens by medication',
    description: 'Per medication, without patient identifiers: patients, regimens active, started and ended',
  },
};

type Period = { start: string; end: string };

/** The dates a report covers: presets move with the day a run is made. */
export function periodOf(
  period: NewReport['period'],
  start: string | null | undefined,
  end: string | null | undefined,
  now: number,
): Period {
  // Calendar dates in UTC, like the instants the report queries bound the period with (ADR 043).
  const today = localDateOf(now, 'UTC');
  if (period === 'last_7_days') return { start: iso(addDays(today, -6)), end: iso(today) };
  if (period === 'last_month') {
    const first = { year: today.year, month: today.month, day: 1 };
    const last = addDays(first, -1);
    return { start: iso({ year: last.year, month: last.month, day: 1 }), end: iso(last) };
  }
  if (period === 'custom' && start && end) return { start, end };
  return { start: iso(addDays(today, -29)), end: iso(today) };
}

function checkPeriod(p: Period) {
  for (const field of ['start', 'end'] as const)
    if (Number.isNaN(Date.parse(p[field]))) throw AppError.validation({ [field]: ['Use a real date.'] });
  if (p.start > p.end) throw AppError.validation({ end: [REPORT_MESSAGES.periodOrder] });
  if ((Date.parse(p.end) - Date.parse(p.start)) / 86_400_000 > REPORT_MAX_DAYS)
    throw AppError.validation({ end: [REPORT_MESSAGES.periodTooLong] });
}

function nextRunAt(recurrence: string, now: number): Date | null {
  if (recurrence === 'none') return null;
  const at = new Date(now);
  if (recurrence === 'daily') at.setUTCDate(at.getUTCDate() + 1);
  else if (recurrence === 'weekly') at.setUTCDate(at.getUTCDate() + 7);
  else at.setUTCMonth(at.getUTCMonth() + 1);
  return at;
}

const isoOrNull = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

function audiencesOf(roles: readonly StaffRole[]) {
  const out: ('care' | 'pharma')[] = [];
  if (roles.some((r) => CARE_REPORT_ROLES.includes(r))) out.push('care');
  if (roles.some((r) => PHARMA_REPORT_ROLES.includes(r))) out.push('pharma');
  return out;
}

export function createReportsService(deps: {
  db: Database;
  storage: FileStorage;
  encryptionKey: string;
  now?: () => number;
}) {
  const { db, storage } = deps;
  const now = deps.now ?? Date.now;
  const box = createSecretBox(deps.encryptionKey);
  const sealContext = (enterpriseId: number) => `report-destination:${enterpriseId}`;

  function runOut(r: RunRow, programId: number): ReportRun {
    return {
      id: r.id,
      status: r.status,
      period_start: r.period_start,
      period_end: r.period_end,
      file_name: r.file_name,
      bytes: r.bytes === null ? null : Number(r.bytes),
      rows: r.rows,
      error: r.error,
      attempts: r.attempts,
      delivery: r.delivery,
      delivery_error: r.delivery_error,
      created_at: new Date(r.created_at).toISOString(),
      finished_at: isoOrNull(r.finished_at),
      url:
        r.status === 'done' && r.report_id
          ? routeUrl(reportsContract.file, { programId, reportId: r.report_id, runId: r.id })
          : null,
    };
  }

  function reportOut(r: ReportRow): Report {
    const last = r.last_run ? runOut(r.last_run, r.program_id) : null;
    return {
      id: r.id,
      program_id: r.program_id,
      enterprise_id: r.enterprise_id,
      name: r.name,
      type: r.type as ReportType,
      audience: r.audience,
      format: r.format,
      period: r.period,
      start: r.start,
      end: r.end,
      recurrence: r.recurrence,
      recurrence_state: r.recurrence_state,
      next_run_at: isoOrNull(r.next_run_at),
      destination: r.destination_id ? { id: r.destination_id, name: r.destination_name ?? '' } : null,
      user: { id: r.created_by, name: r.created_by_name },
      created_at: new Date(r.created_at).toISOString(),
      last_run: last,
      failed_runs: r.failed_runs,
      url: last?.url ?? null,
    };
  }

  function patientReportOut(r: RunRow, programId: number): PatientReport {
    return {
      id: r.id,
      kind: r.kind as PatientReport['kind'],
      patient_id: r.patient_id,
      status: r.status,
      period_start: r.period_start,
      period_end: r.period_end,
      file_name: r.file_name,
      bytes: r.bytes === null ? null : Number(r.bytes),
      rows: r.rows,
      error: r.error,
      user: { id: r.requested_by, name: r.requested_by_name },
      created_at: new Date(r.created_at).toISOString(),
      finished_at: isoOrNull(r.finished_at),
      url: r.status === 'done' ? routeUrl(reportsContract.patientReportFile, { programId, id: r.id }) : null,
    };
  }

  /** A report of the program the caller may see (its audience among theirs); 404 otherwise. */
  async function visibleReport(programId: number, roles: readonly StaffRole[], reportId: number) {
    const report = await q.findReport(db, reportId);
    if (!report || report.program_id !== programId || !audiencesOf(roles).includes(report.audience))
      throw AppError.notFound('Report not found');
    return report;
  }

  async function detail(report: ReportRow) {
    const runs = await q.runsOfReport(db, report.id, 20);
    return { ...reportOut(report), runs: runs.map((r) => runOut(r, report.program_id)) };
  }

  async function create(
    actor: StaffActor,
    program: { id: number; enterpriseId: number | null; roles: readonly StaffRole[] },
    input: Omit<NewReport, 'format' | 'period' | 'recurrence'> & {
      format: 'xlsx' | 'csv';
      period: NewReport['period'] & string;
      recurrence: 'none' | 'daily' | 'weekly' | 'monthly';
    },
    audience: 'care' | 'pharma',
  ) {
    if (REPORT_AUDIENCE[input.type] !== audience)
      throw AppError.validation({ type: [REPORT_MESSAGES.wrongAudience] });
    if (!audiencesOf(program.roles).includes(audience)) throw AppError.forbidden();
    const current = now();
    const period = periodOf(input.period, input.start, input.end, current);
    checkPeriod(period);
    const id = await db.transaction(async (tx) => {
      if (input.destination_id) {
        const found =
          program.enterpriseId !== null
            ? await q.findDestination(tx, program.enterpriseId, input.destination_id)
            : null;
        if (!found)
          throw AppError.validation({ destination_id: ['Choose a destination of this enterprise.'] });
      }
      const reportId = await q.insertReport(tx, {
        programId: program.id,
        name: input.name?.trim() || TYPES[input.type].name,
        type: input.type,
        audience,
        format: input.format,
        period: input.period,
        start: input.period === 'custom' ? period.start : null,
        end: input.period === 'custom' ? period.end : null,
        recurrence: input.recurrence,
        nextRunAt: nextRunAt(input.recurrence, current),
        destinationId: input.destination_id ?? null,
        createdBy: actor.adminId,
      });
      await q.insertRun(tx, {
        reportId,
        programId: program.id,
        kind: 'report',
        patientId: null,
        requestedBy: actor.adminId,
        ...period,
      });
      await audit(tx, {
        actorAdminId: actor.adminId,
        programId: program.id,
        action: 'report.create',
        details: { report_id: reportId, type: input.type, recurrence: input.recurrence },
        ip: actor.ip,
      });
      return reportId;
    });
    return detail((await q.findReport(db, id))!);
  }

  /** The report behind an enterprise path: of one of the enterprise's programs, managed by the caller. */
  async function managedReport(
    actor: StaffActor,
    enterprise: { programIds: number[]; isEnterpriseAdmin: boolean },
    reportId: number,
  ) {
    const report = await q.findReport(db, reportId);
    if (!report || !enterprise.programIds.includes(report.program_id))
      throw AppError.notFound('Report not found');
    if (report.created_by !== actor.adminId && !enterprise.isEnterpriseAdmin)
      await requireProgramRole(db, actor.adminId, report.program_id, MANAGER_ROLES);
    if (report.recurrence === 'none') throw AppError.conflict(REPORT_MESSAGES.notRecurring);
    if (report.recurrence_state === 'stopped') throw AppError.conflict(REPORT_MESSAGES.stoppedAlready);
    return report;
  }

  // ---- generation ----

  async function reportTables(type: ReportType, programId: number, period: Period): Promise<Table[]> {
    const current = now();
    const heading = [
      `Period: ${period.start} to ${period.end}`,
      `Generated: ${new Date(current).toISOString()}`,
    ];
    const from = new Date(`${period.start}T00:00:00Z`);
    const to = new Date(Date.parse(`${period.end}T00:00:00Z`) + 86_400_000);
    const title = TYPES[type].name;
    if (type === 'patient_roster') {
      const rows: Record<string, unknown>[] = [];
      let after = 0;
      for (;;) {
        const batch = await exportBatch(db, programId, period, after, 2000);
        rows.push(...batch);
        if (batch.length < 2000) break;
        after = batch.at(-1)!.id;
      }
      return [
        {
          title,
          sheet: 'Patients',
          heading,
          columns: [
            { header: 'MRN', key: 'mrn', width: 14 },
            { header: 'Last name', key: 'last_name', width: 18 },
            { header: 'First name', key: 'first_name', width: 16 },
            { header: 'Date of birth', key: 'dob', width: 13 },
            { header: 'Sex', key: 'sex', width: 9 },
            { header: 'Status', key: 'status', width: 11 },
            { header: 'Physician', key: 'physician', width: 20 },
            { header: 'Assigned to', key: 'assigned_to', width: 20 },
            { header: 'Enrolled on', key: 'enrolled_on', width: 12 },
            { header: 'Phone', key: 'phone_number', width: 15 },
            { header: 'State', key: 'state', width: 7 },
          ],
          rows,
        },
      ];
    }
    if (type === 'adherence_summary' || type === 'pharma_adherence') {
      const perPatient: { id: number; t: Record<string, number | null> }[] = [];
      const perDrug = new Map<string, { patients: Set<number>; t: Record<string, number> }>();
      await classifyPatients(db, [programId], period, current, ({ patient, regimens, result }) => {
        if (type === 'adherence_summary') {
          if (result.total.due + result.extra.length > 0)
            perPatient.push({ id: patient.id, t: { ...result.total, extra: result.extra.length } });
          return;
        }
        for (const regimen of regimens) {
          const totals = result.regimens[regimen.id];
          if (!totals || totals.due === 0) continue;
          const entry = perDrug.get(regimen.name) ?? {
            patients: new Set<number>(),
            t: { due: 0, on_time: 0, late: 0, missed: 0, skipped: 0 },
          };
          entry.patients.add(patient.id);
          for (const k of ['due', 'on_time', 'late', 'missed', 'skipped'] as const) entry.t[k]! += totals[k];
          perDrug.set(regimen.name, entry);
        }
      });
      const percent = (part: number, whole: number) =>
        whole === 0 ? null : Math.round((part * 10_000) / whole) / 100;
      const doseColumns = [
        { header: 'Doses due', key: 'due', width: 10 },
        { header: 'On time', key: 'on_time', width: 9 },
        { header: 'Late', key: 'late', width: 8 },
        { header: 'Missed', key: 'missed', width: 8 },
        { header: 'Skipped', key: 'skipped', width: 8 },
        { header: 'Adherence %', key: 'adherence', width: 12 },
        { header: 'Compliance %', key: 'compliance', width: 12 },
      ];
      if (type === 'pharma_adherence') {
        return [
          {
            title,
            sheet: 'Medications',
            heading,
            columns: [
              { header: 'Medication', key: 'medication', width: 30 },
              { header: 'Patients', key: 'patients', width: 10 },
              ...doseColumns,
            ],
            rows: [...perDrug.entries()]
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([medication, e]) => ({
                medication,
                patients: e.patients.size,
                ...e.t,
                adherence: percent(e.t.on_time! + e.t.late!, e.t.due!),
                compliance: percent(e.t.on_time!, e.t.due!),
              })),
          },
        ];
      }
      const names = await q.patientNames(
        db,
        perPatient.map((p) => p.id),
      );
      return [
        {
          title,
          sheet: 'Adherence',
          heading,
          columns: [
            { header: 'Patient', key: 'name', width: 26 },
            { header: 'MRN', key: 'mrn', width: 14 },
            ...doseColumns,
            { header: 'Extra doses', key: 'extra', width: 10 },
          ],
          rows: perPatient
            .map((p) => ({ ...names.get(p.id), ...p.t }))
            .sort((a, b) => String(a.name).localeCompare(String(b.name))),
        },
      ];
    }
    if (type === 'readings_summary') {
      const rows = await q.readingsSummary(db, { programId }, from, to);
      return [
        {
          title,
          sheet: 'Readings',
          heading,
          columns: [
            { header: 'MRN', key: 'mrn', width: 14 },
            { header: 'Last name', key: 'last_name', width: 18 },
            { header: 'First name', key: 'first_name', width: 16 },
            { header: 'Type', key: 'type', width: 12 },
            { header: 'Readings', key: 'readings', width: 9 },
            { header: 'Out of range', key: 'out_of_range', width: 11 },
            { header: 'Lowest', key: 'minimum', width: 9 },
            { header: 'Highest', key: 'maximum', width: 9 },
            { header: 'Average', key: 'average', width: 9 },
            { header: 'Last reading', key: 'last_at', width: 22 },
          ],
          rows: rows.map((r) => ({ ...r, last_at: new Date(r.last_at).toISOString() })),
        },
      ];
    }
    if (type === 'alerts_summary') {
      return [
        {
          title,
          sheet: 'Alerts',
          heading,
          columns: [
            { header: 'MRN', key: 'mrn', width: 14 },
            { header: 'Last name', key: 'last_name', width: 18 },
            { header: 'First name', key: 'first_name', width: 16 },
            { header: 'Opened', key: 'opened', width: 9 },
            { header: 'Resolved', key: 'resolved', width: 9 },
            { header: 'Open now', key: 'open_now', width: 9 },
            { header: 'Escalated', key: 'escalated', width: 9 },
            { header: 'Most frequent', key: 'top_type', width: 24 },
          ],
          rows: await q.alertsSummary(db, programId, from, to),
        },
      ];
    }
    if (type === 'billing_summary') {
      const { rows } = await billingReport(db, { programId, ...period }, null);
      return [
        {
          title,
          sheet: 'Billing',
          heading,
          columns: [
            { header: 'MRN', key: 'mrn', width: 14 },
            { header: 'Last name', key: 'last_name', width: 18 },
            { header: 'First name', key: 'first_name', width: 16 },
            { header: 'Status', key: 'status', width: 12 },
            { header: 'Days with readings', key: 'reading_days', width: 10 },
            { header: 'RPM minutes', key: 'rpm_minutes', width: 10 },
            { header: 'CCM minutes', key: 'ccm_minutes', width: 10 },
            { header: 'Codes', key: 'codes', width: 30 },
          ],
          rows: rows.map((r) => ({
            mrn: r.patient.mrn,
            last_name: r.patient.last_name,
            first_name: r.patient.first_name,
            status: r.status,
            reading_days: r.reading_days,
            rpm_minutes: r.rpm_minutes,
            ccm_minutes: r.ccm_minutes,
            codes: r.codes.map((c) => (c.units > 1 ? `${c.code}×${c.units}` : c.code)).join(' '),
          })),
        },
      ];
    }
    const rows = await q.regimensByDrug(db, programId, from, to);
    return [
      {
        title,
        sheet: 'Regimens',
        heading,
        columns: [
          { header: 'Medication', key: 'medication', width: 30 },
          { header: 'Patients', key: 'patients', width: 10 },
          { header: 'Active at end', key: 'active', width: 12 },
          { header: 'Started', key: 'started', width: 10 },
          { header: 'Ended', key: 'ended', width: 10 },
        ],
        rows,
      },
    ];
  }

  /** Every patient of the program with their adherence, readings and open alerts over the period. */
  async function overviewTable(programId: number, period: Period): Promise<Table> {
    const current = now();
    const adherence = new Map<
      number,
      { adherence: number | null; compliance: number | null; missed: number }
    >();
    await classifyPatients(db, [programId], period, current, ({ patient, result }) => {
      adherence.set(patient.id, {
        adherence: result.total.adherence,
        compliance: result.total.compliance,
        missed: result.total.missed,
      });
    });
    const rows: Record<string, unknown>[] = [];
    let after = 0;
    for (;;) {
      const batch = await exportBatch(db, programId, period, after, 2000);
      for (const p of batch)
        rows.push({ ...p, name: `${p.last_name}, ${p.first_name}`, ...adherence.get(p.id) });
      if (batch.length < 2000) break;
      after = batch.at(-1)!.id;
    }
    const from = new Date(`${period.start}T00:00:00Z`);
    const to = new Date(Date.parse(`${period.end}T00:00:00Z`) + 86_400_000);
    const counts = await q.patientCounts(db, programId, from, to);
    for (const row of rows)
      Object.assign(row, counts.get(row.id as number) ?? { readings: 0, open_alerts: 0 });
    rows.sort((a, b) => String(a.name).localeCompare(String(b.name)));
    return {
      title: 'Patients report',
      sheet: 'Patients',
      heading: [`Period: ${period.start} to ${period.end}`, `Generated: ${new Date(current).toISOString()}`],
      columns: [
        { header: 'Patient', key: 'name', width: 24 },
        { header: 'MRN', key: 'mrn', width: 12 },
        { header: 'Date of birth', key: 'dob', width: 11 },
        { header: 'Status', key: 'status', width: 9 },
        { header: 'Physician', key: 'physician', width: 16 },
        { header: 'Adherence %', key: 'adherence', width: 10 },
        { header: 'Compliance %', key: 'compliance', width: 10 },
        { header: 'Missed doses', key: 'missed', width: 9 },
        { header: 'Readings', key: 'readings', width: 8 },
        { header: 'Open alerts', key: 'open_alerts', width: 8 },
      ],
      rows,
    };
  }

  /** One patient's report: identity, adherence per medication, readings per type, open alerts. */
  async function patientTables(programId: number, patientId: number, period: Period): Promise<Table[]> {
    const header = await q.patientHeader(db, patientId);
    if (!header) throw new Error('patient gone');
    const current = now();
    const perRegimen: Record<string, unknown>[] = [];
    await classifyPatients(db, [programId], period, current, ({ patient, regimens, result }) => {
      if (patient.id !== patientId) return;
      for (const r of regimens) {
        const t = result.regimens[r.id];
        if (t) perRegimen.push({ medication: r.name, ...t });
      }
      perRegimen.push({ medication: 'All medications', ...result.total });
    });
    const from = new Date(`${period.start}T00:00:00Z`);
    const to = new Date(Date.parse(`${period.end}T00:00:00Z`) + 86_400_000);
    const readings = await q.readingsSummary(db, { patientId }, from, to);
    const alerts = await q.openAlertsOf(db, patientId);
    const heading = [
      `${header.last_name}, ${header.first_name} · MRN ${header.mrn ?? '—'} · born ${header.dob ?? '—'} · ${header.sex}`,
      `Program: ${header.program} · Physician: ${header.physician ?? '—'} · Status: ${header.status}`,
      `Period: ${period.start} to ${period.end} · Generated: ${new Date(current).toISOString()}`,
    ];
    return [
      {
        title: 'Patient report: adherence by medication',
        sheet: 'Adherence',
        heading,
        columns: [
          { header: 'Medication', key: 'medication', width: 30 },
          { header: 'Due', key: 'due', width: 8 },
          { header: 'On time', key: 'on_time', width: 8 },
          { header: 'Late', key: 'late', width: 8 },
          { header: 'Missed', key: 'missed', width: 8 },
          { header: 'Skipped', key: 'skipped', width: 8 },
          { header: 'Adherence %', key: 'adherence', width: 11 },
          { header: 'Compliance %', key: 'compliance', width: 11 },
        ],
        rows: perRegimen,
      },
      {
        title: 'Patient report: readings',
        sheet: 'Readings',
        heading,
        columns: [
          { header: 'Type', key: 'type', width: 14 },
          { header: 'Readings', key: 'readings', width: 9 },
          { header: 'Out of range', key: 'out_of_range', width: 10 },
          { header: 'Lowest', key: 'minimum', width: 9 },
          { header: 'Highest', key: 'maximum', width: 9 },
          { header: 'Average', key: 'average', width: 9 },
          { header: 'Last reading', key: 'last_at', width: 22 },
        ],
        rows: readings.map((r) => ({ ...r, last_at: new Date(r.last_at).toISOString() })),
      },
      {
        title: 'Patient report: open alerts',
        sheet: 'Alerts',
        heading,
        columns: [
          { header: 'Type', key: 'type', width: 20 },
          { header: 'Summary', key: 'summary', width: 50 },
          { header: 'Last', key: 'last_at', width: 22 },
        ],
        rows: alerts.map((a) => ({ ...a, last_at: new Date(a.last_at).toISOString() })),
      },
    ];
  }

  /** Generates one claimed run into storage; true when stored (false: failed or cancelled meanwhile). */
  async function generate(run: RunRow): Promise<boolean> {
    const stamp = (kind: string, ext: string) =>
      exportFileName(kind, new Date(now()), STAMP_ZONE).replace(/\.xlsx$/, `.${ext}`);
    try {
      let tables: Table[];
      let format: 'xlsx' | 'csv' | 'pdf';
      let fileName: string;
      let report: ReportRow | null = null;
      let period: Period = { start: run.period_start, end: run.period_end };
      if (run.kind === 'report') {
        report = await q.findReport(db, run.report_id!);
        if (!report) throw new Error('The report was removed.');
        // A recurring run covers the period as of the day it is made.
        if (report.recurrence !== 'none') {
          period = periodOf(report.period, report.start, report.end, now());
          await q.setRunPeriod(db, run.id, period.start, period.end);
        }
        tables = await reportTables(report.type as ReportType, run.program_id, period);
        format = report.format;
        fileName = stamp(report.type, report.format);
      } else if (run.kind === 'patient_pdf') {
        tables = await patientTables(run.program_id, run.patient_id!, period);
        format = 'pdf';
        fileName = stamp(`patient_${run.patient_id}`, 'pdf');
      } else {
        tables = [await overviewTable(run.program_id, period)];
        format = run.kind === 'patients_csv' ? 'csv' : 'pdf';
        fileName = stamp('patients', format);
      }
      if (await q.isCancelled(db, run.id)) return false;
      const key = newKey('reports');
      const bytes = await storeTables(storage, key, format, tables, tables[0]?.title ?? 'Report');
      const rows = tables.reduce((n, t) => n + t.rows.length, 0);
      const stored = await q.finishRun(db, run.id, {
        key,
        name: fileName,
        bytes,
        rows,
        deliver: report?.destination_id != null,
      });
      if (!stored) await storage.remove(key);
      return stored;
    } catch (err) {
      // The reason is kept for the failed list; it never holds patient data (messages are ours or the driver's).
      await q.failRun(db, run.id, (err as Error).message.slice(0, 300) || 'Generation failed.');
      return false;
    }
  }

  async function destinationAnswer(enterpriseId: number, id: number) {
    const row = (await q.listDestinations(db, enterpriseId)).find((d) => d.id === id);
    if (!row) throw AppError.notFound('Destination not found');
    return { ...row, created_at: new Date(row.created_at).toISOString() };
  }

  async function deliverPending(): Promise<number> {
    let sent = 0;
    for (let i = 0; i < 20; i++) {
      const job = await q.claimPendingDelivery(db);
      if (!job) break;
      try {
        if (!job.destination_id || !job.host || !job.sealed_password)
          throw new DeliveryError('The destination was removed.');
        const enterprise = await q.destinationEnterprise(db, job.destination_id);
        const password = box.open(job.sealed_password, sealContext(enterprise));
        if (password === null) throw new DeliveryError('The destination password cannot be read.');
        const file = await storage.open(job.file_key);
        const upload = await sftpUpload(
          {
            host: job.host,
            port: job.port ?? 22,
            username: job.username ?? '',
            password,
            directory: job.directory ?? '',
            hostKey: job.host_key,
          },
          job.file_name,
          file.stream,
        );
        if (job.host_key === null) await q.pinHostKey(db, job.destination_id, upload.hostKey);
        await q.setDelivery(db, job.id, true, null);
        sent++;
      } catch (err) {
        await q.setDelivery(db, job.id, false, (err as Error).message.slice(0, 300));
      }
    }
    return sent;
  }

  /** A patient report's period: the dates given, else the last 30 days (422 for a bad one). */
  function patientPeriod(body: { start?: string | null; end?: string | null }): Period {
    const period = periodOf(body.start && body.end ? 'custom' : 'last_30_days', body.start, body.end, now());
    checkPeriod(period);
    return period;
  }

  /** Queues a patient report run and audits the request, in one transaction; answers the queued run. */
  async function queuePatientRun(
    actor: StaffActor,
    programId: number,
    run: { kind: RunRow['kind']; patientId: number | null; period: Period },
    audited: { action: AuditAction; details: Record<string, unknown> },
  ): Promise<PatientReport> {
    const id = await db.transaction(async (tx) => {
      const runId = await q.insertRun(tx, {
        reportId: null,
        programId,
        kind: run.kind,
        patientId: run.patientId,
        requestedBy: actor.adminId,
        ...run.period,
      });
      await audit(tx, {
        actorAdminId: actor.adminId,
        programId,
        action: audited.action,
        details: { run_id: runId, ...audited.details },
        ip: actor.ip,
      });
      return runId;
    });
    return patientReportOut((await q.findRun(db, id))!, programId);
  }

  /** A finished run's file, its download audited as a PHI view. */
  async function openRunFile(
    actor: StaffActor,
    programId: number,
    run: RunRow,
    action: AuditAction,
    details: Record<string, unknown>,
  ) {
    const file = await storage.open(run.file_key!);
    await auditView(db, { actorAdminId: actor.adminId, programId, action, details, ip: actor.ip });
    return { ...file, fileName: run.file_name!, contentType: contentTypeOf(run.file_name!) };
  }

  return {
    types(roles: readonly StaffRole[]): { data: ReportTypeInfo[] } {
      const audiences = audiencesOf(roles);
      return {
        data: REPORT_TYPES.filter((t) => audiences.includes(REPORT_AUDIENCE[t])).map((type) => ({
          type,
          audience: REPORT_AUDIENCE[type],
          ...TYPES[type],
          formats: ['xlsx', 'csv'],
        })),
      };
    },

    async list(
      programId: number,
      roles: readonly StaffRole[],
      query: {
        page: number;
        per_page: number;
        user_id?: number;
        type?: ReportType;
        enterprise_id?: number;
        audience?: 'care' | 'pharma';
      },
    ) {
      const audiences = audiencesOf(roles).filter((a) => !query.audience || a === query.audience);
      const { rows, total } = await q.listReports(db, {
        programId,
        audiences,
        userId: query.user_id,
        type: query.type,
        enterpriseId: query.enterprise_id,
        page: query.page,
        perPage: query.per_page,
      });
      return {
        data: rows.map(reportOut),
        current_page: query.page,
        last_page: Math.max(1, Math.ceil(total / query.per_page)),
        per_page: query.per_page,
        total,
      };
    },

    create,

    async get(programId: number, roles: readonly StaffRole[], reportId: number) {
      return detail(await visibleReport(programId, roles, reportId));
    },

    async file(
      actor: StaffActor,
      programId: number,
      roles: readonly StaffRole[],
      reportId: number,
      runId: number,
    ) {
      const report = await visibleReport(programId, roles, reportId);
      const run = await q.findRun(db, runId);
      if (!run || run.report_id !== report.id || run.status !== 'done' || !run.file_key)
        throw AppError.notFound('File not found');
      return openRunFile(actor, programId, run, 'report.download', { report_id: report.id, run_id: run.id });
    },

    async failed(
      programId: number,
      roles: readonly StaffRole[],
      reportId: number,
      type?: 'generation' | 'delivery',
    ) {
      const report = await visibleReport(programId, roles, reportId);
      const runs = await q.runsOfReport(db, report.id, 100, type ?? 'any');
      return { data: runs.map((r) => runOut(r, programId)) };
    },

    async retry(
      actor: StaffActor,
      programId: number,
      roles: readonly StaffRole[],
      reportId: number,
      type?: 'generation' | 'delivery',
    ) {
      const report = await visibleReport(programId, roles, reportId);
      const retried = await db.transaction(async (tx) => {
        const n = await q.retryRuns(tx, report.id, type);
        if (n === 0) throw AppError.conflict(REPORT_MESSAGES.nothingToRetry);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'report.retry',
          details: { report_id: report.id, type: type ?? 'all', runs: n },
          ip: actor.ip,
        });
        return n;
      });
      return { message: REPORT_MESSAGES.retried, retried };
    },

    async pause(
      actor: StaffActor,
      enterprise: { programIds: number[]; isEnterpriseAdmin: boolean },
      reportId: number,
    ) {
      const report = await managedReport(actor, enterprise, reportId);
      const next = report.recurrence_state === 'running' ? 'paused' : 'running';
      await db.transaction(async (tx) => {
        await q.setRecurrenceState(tx, report.id, next);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: report.program_id,
          action: next === 'paused' ? 'report.pause' : 'report.resume',
          details: { report_id: report.id },
          ip: actor.ip,
        });
      });
      return {
        message: next === 'paused' ? REPORT_MESSAGES.paused : REPORT_MESSAGES.resumed,
        report: reportOut((await q.findReport(db, report.id))!),
      };
    },

    async stop(
      actor: StaffActor,
      enterprise: { programIds: number[]; isEnterpriseAdmin: boolean },
      reportId: number,
    ) {
      const report = await managedReport(actor, enterprise, reportId);
      await db.transaction(async (tx) => {
        await q.setRecurrenceState(tx, report.id, 'stopped');
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: report.program_id,
          action: 'report.stop',
          details: { report_id: report.id },
          ip: actor.ip,
        });
      });
      return { message: REPORT_MESSAGES.stopped, report: reportOut((await q.findReport(db, report.id))!) };
    },

    // ---- destinations ----

    async destinations(enterpriseId: number) {
      const rows = await q.listDestinations(db, enterpriseId);
      return { data: rows.map((d) => ({ ...d, created_at: new Date(d.created_at).toISOString() })) };
    },

    async createDestination(
      actor: StaffActor,
      enterprise: { id: number; isEnterpriseAdmin: boolean },
      input: {
        name: string;
        host: string;
        port: number;
        username: string;
        password: string;
        directory: string;
        host_key?: string | null;
      },
    ) {
      if (!enterprise.isEnterpriseAdmin) throw AppError.forbidden();
      const id = await db.transaction(async (tx) => {
        const created = await q.insertDestination(tx, {
          enterpriseId: enterprise.id,
          name: input.name,
          host: input.host,
          port: input.port,
          username: input.username,
          sealedPassword: box.seal(input.password, sealContext(enterprise.id)),
          directory: input.directory,
          hostKey: input.host_key ?? null,
          createdBy: actor.adminId,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: null,
          action: 'report_destination.create',
          details: { enterprise_id: enterprise.id, destination_id: created, host: input.host },
          ip: actor.ip,
        });
        return created;
      });
      return destinationAnswer(enterprise.id, id);
    },

    /** Trusts the server's new host key (or clears it: the next connection pins what it sees); audited. */
    async setDestinationHostKey(
      actor: StaffActor,
      enterprise: { id: number; isEnterpriseAdmin: boolean },
      id: number,
      hostKey: string | null,
    ) {
      if (!enterprise.isEnterpriseAdmin) throw AppError.forbidden();
      await db.transaction(async (tx) => {
        if (!(await q.setDestinationHostKey(tx, enterprise.id, id, hostKey)))
          throw AppError.notFound('Destination not found');
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: null,
          action: 'report_destination.host_key',
          details: { enterprise_id: enterprise.id, destination_id: id, host_key: hostKey },
          ip: actor.ip,
        });
      });
      return destinationAnswer(enterprise.id, id);
    },

    async deleteDestination(
      actor: StaffActor,
      enterprise: { id: number; isEnterpriseAdmin: boolean },
      id: number,
    ) {
      if (!enterprise.isEnterpriseAdmin) throw AppError.forbidden();
      await db.transaction(async (tx) => {
        if (!(await q.removeDestination(tx, enterprise.id, id)))
          throw AppError.notFound('Destination not found');
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: null,
          action: 'report_destination.delete',
          details: { enterprise_id: enterprise.id, destination_id: id },
          ip: actor.ip,
        });
      });
    },

    /** Sends an uploaded file to a destination at once (the file is not kept afterwards). */
    async sftpFile(actor: StaffActor, enterprise: { id: number }, destinationId: number, file: UploadedFile) {
      try {
        const destination = await q.findDestination(db, enterprise.id, destinationId);
        if (!destination)
          throw AppError.validation({ report_destination_id: ['Choose a destination of this enterprise.'] });
        const password = box.open(destination.sealed_password, sealContext(enterprise.id));
        if (password === null)
          throw AppError.conflict('The destination password cannot be read; enter it again.');
        const source = await storage.open(file.key);
        let remote: string;
        try {
          const sent = await sftpUpload(
            { ...destination, password, directory: destination.directory, hostKey: destination.host_key },
            file.fileName,
            source.stream,
          );
          remote = sent.remote;
          if (destination.host_key === null) await q.pinHostKey(db, destination.id, sent.hostKey);
        } catch (err) {
          throw new AppError('bad_gateway', `The file could not be sent: ${(err as Error).message}`);
        }
        await audit(db, {
          actorAdminId: actor.adminId,
          programId: null,
          action: 'report.sftp_file',
          details: { enterprise_id: enterprise.id, destination_id: destinationId, bytes: file.size },
          ip: actor.ip,
        });
        return {
          message: REPORT_MESSAGES.uploaded,
          destination_id: destinationId,
          remote_path: remote,
          bytes: file.size,
        };
      } finally {
        await storage.remove(file.key);
      }
    },

    // ---- patient reports ----

    async generatePatientReport(
      actor: StaffActor,
      programId: number,
      patientId: number | null,
      body: { start?: string | null; end?: string | null },
    ) {
      if (patientId !== null && !(await q.patientInProgram(db, programId, patientId)))
        throw AppError.notFound('Patient not found');
      const report = await queuePatientRun(
        actor,
        programId,
        { kind: patientId === null ? 'patients_pdf' : 'patient_pdf', patientId, period: patientPeriod(body) },
        { action: 'patient_report.request', details: { patient_id: patientId } },
      );
      return { message: REPORT_MESSAGES.pdfQueued, report };
    },

    async patientReports(programId: number, patientId: number | null) {
      if (patientId !== null && !(await q.patientInProgram(db, programId, patientId)))
        throw AppError.notFound('Patient not found');
      const rows = await q.patientReports(
        db,
        programId,
        patientId,
        patientId === null ? ['patients_pdf', 'patients_csv'] : ['patient_pdf'],
      );
      return { data: rows.map((r) => patientReportOut(r, programId)) };
    },

    async patientReportFile(actor: StaffActor, programId: number, id: number) {
      const run = await q.findRun(db, id);
      if (
        !run ||
        run.program_id !== programId ||
        run.kind === 'report' ||
        run.status !== 'done' ||
        !run.file_key
      )
        throw AppError.notFound('File not found');
      return openRunFile(actor, programId, run, 'patient_report.download', {
        run_id: run.id,
        patient_id: run.patient_id,
      });
    },

    async generateCsv(
      actor: StaffActor,
      programId: number,
      body: { start?: string | null; end?: string | null },
    ) {
      const period = patientPeriod(body);
      const running = await q.latestCsvOf(db, programId, actor.adminId, true);
      if (running)
        return { message: REPORT_MESSAGES.csvStarted, report: patientReportOut(running, programId) };
      const report = await queuePatientRun(
        actor,
        programId,
        { kind: 'patients_csv', patientId: null, period },
        { action: 'patient_report.csv', details: {} },
      );
      return { message: REPORT_MESSAGES.csvStarted, report };
    },

    async cancelCsv(actor: StaffActor, programId: number, id: number) {
      const run = await q.findRun(db, id);
      if (
        !run ||
        run.program_id !== programId ||
        run.kind !== 'patients_csv' ||
        run.requested_by !== actor.adminId
      )
        throw AppError.notFound('Generation not found');
      if (!(await q.cancelRun(db, id))) throw AppError.conflict(REPORT_MESSAGES.notRunning);
      return {
        message: REPORT_MESSAGES.csvCancelled,
        report: patientReportOut((await q.findRun(db, id))!, programId),
      };
    },

    async checkCsv(actor: StaffActor, programId: number) {
      const run = await q.latestCsvOf(db, programId, actor.adminId, false);
      return { report: run ? patientReportOut(run, programId) : null };
    },

    /** `GET users/download`: the program's patients as they stand today (the patients export of today). */
    async download(actor: StaffActor, programId: number) {
      const program = await requireProgramRole(db, actor.adminId, programId, CARE_REPORT_ROLES);
      const today = iso(localDateOf(now(), 'UTC'));
      const access = await q.programOf(db, program);
      return createExportService({ db }).patients(
        { ...actor, program: { id: program, enterpriseId: access, roles: [] } },
        { start: today, end: today },
      );
    },

    /** Queues due recurrences, generates what is queued, delivers what waits: the background runner's tick (runs handled). */
    async runDue(limit = 10): Promise<number> {
      await q.queueDueRecurrences(db, new Date(now()));
      let processed = 0;
      for (; processed < limit; processed++) {
        const run = await q.claimQueuedRun(db);
        if (!run) break;
        await generate(run);
      }
      return processed + (await deliverPending());
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
