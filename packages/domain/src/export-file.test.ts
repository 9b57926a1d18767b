import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPORT_FILE_SUFFIX, exportFileName, exportFileStamp } from './export-file';
import { messageDateKey } from './message-dates';

const instant = '2026-11-21T19:05:59Z'; // 14:05 in New York

describe('exportFileStamp', () => {
  it('stamps YYYY_MM_DD_HH_mm on a 24-hour clock in the zone', () => {
    expect(exportFileStamp(instant, 'America/New_York')).toBe('2026_11_21_14_05');
    expect(exportFileStamp(instant, 'UTC')).toBe('2026_11_21_19_05');
    expect(exportFileStamp(new Date('2026-01-02T03:04:00Z'), 'UTC')).toBe('2026_01_02_03_04');
  });

  it('refuses an invalid date', () => {
    expect(() => exportFileStamp('not a date', 'UTC')).toThrow(RangeError);
    expect(() => exportFileStamp(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
  });

  it('has the stamp shape and the local day of the instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2100-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom('America/New_York', 'America/Detroit', 'Asia/Kolkata'),
        (date, zone) => {
          const stamp = exportFileStamp(date, zone);
          expect(stamp).toMatch(/^\d{4}_(0[1-9]|1[0-2])_(0[1-9]|[12]\d|3[01])_([01]\d|2[0-3])_[0-5]\d$/);
          expect(stamp.slice(0, 10)).toBe(messageDateKey(date, zone)?.replaceAll('-', '_'));
        },
      ),
    );
  });
});

describe('exportFileName', () => {
  it('joins prefix, stamp and the report.xls suffix', () => {
    expect(EXPORT_FILE_SUFFIX).toBe('report.xls');
    expect(exportFileName('patients', instant, 'America/New_York')).toBe(
      'patients_2026_11_21_14_05_report.xls',
    );
  });

  it('makes the prefix safe for a file name', () => {
    expect(exportFileName('Pod usage', instant, 'UTC')).toBe('Pod_usage_2026_11_21_19_05_report.xls');
    expect(exportFileName('../etc/passwd', instant, 'UTC')).toBe('etc_passwd_2026_11_21_19_05_report.xls');
    expect(exportFileName('Patientenübersicht', instant, 'UTC')).toBe(
      'Patientenübersicht_2026_11_21_19_05_report.xls',
    );
    expect(exportFileName('pods-usage', instant, 'UTC')).toBe('pods-usage_2026_11_21_19_05_report.xls');
  });

  it('leaves out an empty prefix', () => {
    expect(exportFileName('', instant, 'UTC')).toBe('2026_11_21_19_05_report.xls');
    expect(exportFileName(' / ', instant, 'UTC')).toBe('2026_11_21_19_05_report.xls');
  });

  it('never contains a path separator and always ends with the suffix', () => {
    fc.assert(
      fc.property(fc.string(), (prefix) => {
        const name = exportFileName(prefix, instant, 'UTC');
        expect(name).not.toMatch(/[/\\]/);
        expect(
          name.endsWith(`_2026_11_21_19_05_${EXPORT_FILE_SUFFIX}`) ||
            name === `2026_11_21_19_05_${EXPORT_FILE_SUFFIX}`,
        ).toBe(true);
      }),
    );
  });
});
