import { z } from 'zod';
import { idParam, isCalendarDay, line } from './common';
import { defineRoute } from './route';

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const EXPORT_MESSAGES = {
  range: 'The end date must be on or after the start date.',
  tooLong: 'Choose a period of at most 366 days.',
} as const;

const day = line().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD.');
/** A malformed date names no period (404, like any bad path); a reversed or too long one answers 422. */
const period = z.object({ programId: idParam, start: day, end: day });

/** The 422 errors of a period, if any. */
export function periodErrors(start: string, end: string): Record<string, string[]> | null {
  if (!isCalendarDay(start)) return { start: ['Use a real date.'] };
  if (!isCalendarDay(end)) return { end: ['Use a real date.'] };
  if (start > end) return { end: [EXPORT_MESSAGES.range] };
  if ((Date.parse(end) - Date.parse(start)) / 86_400_000 > 366) return { end: [EXPORT_MESSAGES.tooLong] };
  return null;
}

/**
 * File name of an export: `<kind>_YYYY_MM_DD_HH_mm_report.xlsx` (01 §9 stamps names YYYY_MM_DD_HH_mm and
 * ends them with a report suffix; the files are real .xlsx workbooks, ADR 021).
 */
export function exportFileName(kind: string, at: Date, timeZone = 'UTC'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${kind}_${parts.year}_${parts.month}_${parts.day}_${parts.hour}_${parts.minute}_report.xlsx`;
}

const tags = ['exports'] as const;

/** Spreadsheet exports of a program (01 §7 "Exports"). */
export const exportsContract = {
  patients: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/export/:start/:end',
    summary:
      'Patients of the program during the period (enrolled by its end, not inactivated before its start), as .xlsx',
    tags,
    params: period,
    responses: { 200: null },
    file: { contentType: XLSX },
  }),
  pods: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/pods/:start/:end',
    summary:
      'Pods of the program created during the period, with their regimen, patient and servings, as .xlsx',
    tags,
    params: period,
    responses: { 200: null },
    file: { contentType: XLSX },
  }),
};
