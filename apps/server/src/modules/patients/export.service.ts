import { PassThrough, type Readable } from 'node:stream';
import { exportFileName, periodErrors } from '@caredeck/contracts';
import ExcelJS from 'exceljs';
import type { StaffActor } from '../../platform/access/actor';
import { auditView } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { podsExportBatch } from '../medications/medications.queries';
import { type ExportRow, exportBatch } from './export.queries';

/** Rows read per query: memory stays flat however large the program. */
const BATCH = 2000;
/** Export names are stamped in the spec's display zone (01 §9). */
const STAMP_ZONE = 'America/New_York';

const COLUMNS: { header: string; key: keyof ExportRow; width: number }[] = [
  { header: 'MRN', key: 'mrn', width: 14 },
  { header: 'Last name', key: 'last_name', width: 18 },
  { header: 'First name', key: 'first_name', width: 16 },
  { header: 'Middle name', key: 'middle_name', width: 14 },
  { header: 'Date of birth', key: 'dob', width: 13 },
  { header: 'Age', key: 'age', width: 6 },
  { header: 'Sex', key: 'sex', width: 9 },
  { header: 'Race', key: 'race', width: 22 },
  { header: 'Ethnicity', key: 'ethnicity', width: 20 },
  { header: 'Phone', key: 'phone_number', width: 15 },
  { header: 'E-mail', key: 'email', width: 28 },
  { header: 'Address', key: 'address', width: 28 },
  { header: 'City', key: 'city', width: 16 },
  { header: 'State', key: 'state', width: 7 },
  { header: 'ZIP', key: 'zip', width: 11 },
  { header: 'Time zone', key: 'time_zone', width: 20 },
  { header: 'Status', key: 'status', width: 11 },
  { header: 'Active', key: 'active', width: 8 },
  { header: 'Physician', key: 'physician', width: 20 },
  { header: 'Assigned to', key: 'assigned_to', width: 20 },
  { header: 'Enrolled on', key: 'enrolled_on', width: 12 },
  { header: 'Consent date', key: 'consent_at', width: 13 },
  { header: 'Consent method', key: 'consent_method', width: 14 },
  { header: 'Programs', key: 'programs', width: 30 },
];

const DATE_KEYS = new Set<keyof ExportRow>(['dob', 'enrolled_on', 'consent_at']);

/** A calendar date as an Excel date (a UTC midnight), so the sheet sorts and filters it as a date. */
function cell(row: ExportRow, key: keyof ExportRow): unknown {
  const value = row[key];
  if (value === null || value === undefined) return null;
  if (DATE_KEYS.has(key)) return new Date(`${value}T00:00:00Z`);
  if (key === 'active') return value ? 'yes' : 'no';
  return value;
}

export function createExportService(deps: { db: Database }) {
  const { db } = deps;
  return {
    /**
     * The program's patients during the period as an .xlsx stream: rows are read in batches and written
     * as they come (exceljs' streaming writer), so 100,000 rows never sit in memory at once.
     */
    async patients(
      actor: StaffActor,
      input: { start: string; end: string },
    ): Promise<{ fileName: string; stream: Readable }> {
      const errors = periodErrors(input.start, input.end);
      if (errors) throw AppError.validation(errors);
      const program = actor.program;
      if (!program) throw new Error('the export needs the program the access hook resolved');
      // The first batch is read before answering, so a database error is a clean 500, not a cut file.
      const first = await exportBatch(db, program.id, input, 0, BATCH);
      const out = new PassThrough();
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
      workbook.creator = 'CareDeck';
      const sheet = workbook.addWorksheet('Patients', { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = COLUMNS.map((c) => ({
        header: c.header,
        key: c.key,
        width: c.width,
        ...(DATE_KEYS.has(c.key) ? { style: { numFmt: 'mm/dd/yyyy' } } : {}),
      }));
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      const write = async () => {
        let batch = first;
        let total = 0;
        while (batch.length > 0) {
          for (const row of batch) sheet.addRow(COLUMNS.map((c) => cell(row, c.key))).commit();
          total += batch.length;
          if (batch.length < BATCH) break;
          batch = await exportBatch(db, program.id, input, batch.at(-1)!.id, BATCH);
        }
        sheet.commit();
        await workbook.commit();
        await auditView(db, {
          actorAdminId: actor.adminId,
          programId: program.id,
          action: 'patients.export',
          details: { start: input.start, end: input.end, rows: total },
          ip: actor.ip,
        });
      };
      write().catch((error: unknown) => out.destroy(error as Error));
      return { fileName: exportFileName('patients', new Date(), STAMP_ZONE), stream: out };
    },

    /** The program's pods created during the period (01 §7 Exports), streamed the same way. */
    async pods(
      actor: StaffActor,
      input: { start: string; end: string },
    ): Promise<{ fileName: string; stream: Readable }> {
      const errors = periodErrors(input.start, input.end);
      if (errors) throw AppError.validation(errors);
      const program = actor.program;
      if (!program) throw new Error('the export needs the program the access hook resolved');
      const first = await podsExportBatch(db, program.id, input, 0, BATCH);
      const out = new PassThrough();
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
      const sheet = workbook.addWorksheet('Pods', { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = [
        { header: 'Barcode', key: 'barcode', width: 16 },
        { header: 'Pod', key: 'num', width: 6 },
        { header: 'Regimen', key: 'regimen', width: 28 },
        { header: 'Regimen status', key: 'regimen_status', width: 14 },
        { header: 'MRN', key: 'mrn', width: 14 },
        { header: 'Last name', key: 'last_name', width: 18 },
        { header: 'First name', key: 'first_name', width: 16 },
        { header: 'Original servings', key: 'original_servings', width: 10 },
        { header: 'Servings remaining', key: 'servings_remaining', width: 10 },
        { header: 'Created on', key: 'created_on', width: 12, style: { numFmt: 'mm/dd/yyyy' } },
      ];
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      const write = async () => {
        let batch = first;
        let total = 0;
        while (batch.length > 0) {
          for (const row of batch)
            sheet.addRow({ ...row, created_on: new Date(`${row.created_on}T00:00:00Z`) }).commit();
          total += batch.length;
          if (batch.length < BATCH) break;
          batch = await podsExportBatch(db, program.id, input, batch.at(-1)!.id, BATCH);
        }
        sheet.commit();
        await workbook.commit();
        await auditView(db, {
          actorAdminId: actor.adminId,
          programId: program.id,
          action: 'pods.export',
          details: { start: input.start, end: input.end, rows: total },
          ip: actor.ip,
        });
      };
      write().catch((error: unknown) => out.destroy(error as Error));
      return { fileName: exportFileName('pods', new Date(), STAMP_ZONE), stream: out };
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
