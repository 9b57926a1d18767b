import { type DateInput, toZonedMoment } from './instant';
import { resolveDisplayZone } from './time-zones';

/** Every export file name ends with this (01 §9). */
export const EXPORT_FILE_SUFFIX = 'report.xls';

/** 'YYYY_MM_DD_HH_mm' (24-hour clock) of `date` in `zone`. Throws RangeError for an invalid date. */
export function exportFileStamp(date: DateInput, zone: string): string {
  const moment = toZonedMoment(date, resolveDisplayZone(zone));
  if (!moment) throw new RangeError(`exportFileStamp: not a valid date: ${String(date)}`);
  return moment.format('YYYY_MM_DD_HH_mm');
}

/**
 * '<prefix>_<YYYY_MM_DD_HH_mm>_report.xls', e.g. 'patients_2026_11_21_14_05_report.xls'. Characters of
 * the prefix other than letters, digits and '-' become '_' (so a label such as 'Pod usage' or one with a
 * '/' makes a safe file name); an empty prefix is left out.
 */
export function exportFileName(prefix: string, date: DateInput, zone: string): string {
  const safePrefix = prefix.replace(/[^\p{L}\p{N}-]+/gu, '_').replace(/^_+|_+$/g, '');
  const stamp = exportFileStamp(date, zone);
  return safePrefix === ''
    ? `${stamp}_${EXPORT_FILE_SUFFIX}`
    : `${safePrefix}_${stamp}_${EXPORT_FILE_SUFFIX}`;
}
