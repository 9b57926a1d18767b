import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCalendarDate } from './calendar';
import {
  DATE_INPUT_FORMATS,
  expandTwoDigitYear,
  parseDateInput,
  TWO_DIGIT_YEAR_YEARS_BACK,
} from './date-input';

const ref = { referenceYear: 2026 };

describe('parseDateInput formats', () => {
  it('lists the five formats of the spec', () => {
    expect(DATE_INPUT_FORMATS).toEqual(['DD-MM-YYYY', 'DD.MM.YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD/MM/YY']);
  });

  it.each([
    ['21-11-2026', '2026-11-21'],
    ['21.11.2026', '2026-11-21'],
    ['21/11/2026', '2026-11-21'],
    ['2026-11-21', '2026-11-21'],
    ['21/11/26', '2026-11-21'],
    ['1/2/2026', '2026-02-01'],
    ['2026-2-1', '2026-02-01'],
    ['  05.03.1990 ', '1990-03-05'],
    ['29-02-2024', '2024-02-29'],
    ['29/02/2000', '2000-02-29'],
  ])('reads %j as %s', (text, date) => {
    expect(parseDateInput(text, ref)).toEqual({ ok: true, date });
  });

  it.each(['', '   '])('reports %j as empty', (text) => {
    expect(parseDateInput(text, ref)).toEqual({ ok: false, reason: 'empty' });
  });

  it.each([
    '2026/11/21', // year first only with dashes
    '21-11-26', // two-digit year only with slashes
    '21.11.26',
    '21-11/2026', // mixed separators
    '2026-11-21T00:00', // not a plain date
    '21 11 2026',
    '123/11/2026',
    '21/11/202',
    'Nov 21 2026',
    'today',
    '21/11/2026x',
  ])('reports %j as a format error', (text) => {
    expect(parseDateInput(text, ref)).toEqual({ ok: false, reason: 'format' });
  });

  it.each([
    '31-02-2026',
    '29-02-2026', // not a leap year
    '29/02/1900', // century, not a leap year
    '31.04.2026',
    '2026-13-01',
    '00/01/2026',
    '2026-00-10',
    '0000-01-01',
    '32/01/26',
  ])('reports %j as an impossible date', (text) => {
    expect(parseDateInput(text, ref)).toEqual({ ok: false, reason: 'impossible' });
  });
});

describe('parseDateInput bounds', () => {
  const bounds = { ...ref, min: '2026-01-01', max: '2026-12-31' };

  it('accepts the bounds themselves (inclusive)', () => {
    expect(parseDateInput('01-01-2026', bounds)).toEqual({ ok: true, date: '2026-01-01' });
    expect(parseDateInput('31/12/2026', bounds)).toEqual({ ok: true, date: '2026-12-31' });
  });

  it('tells a date before the minimum from one after the maximum', () => {
    expect(parseDateInput('31-12-2025', bounds)).toEqual({ ok: false, reason: 'beforeMin' });
    expect(parseDateInput('2027-01-01', bounds)).toEqual({ ok: false, reason: 'afterMax' });
  });

  it('applies each bound on its own', () => {
    expect(parseDateInput('01/01/1900', { max: '2026-11-21' })).toEqual({ ok: true, date: '1900-01-01' });
    expect(parseDateInput('01/01/2100', { min: '2026-11-21' })).toEqual({ ok: true, date: '2100-01-01' });
  });

  it('checks the format before the bounds', () => {
    expect(parseDateInput('31-02-2030', bounds)).toEqual({ ok: false, reason: 'impossible' });
  });

  it('refuses bounds that are not ISO dates', () => {
    expect(() => parseDateInput('01-01-2026', { min: '01/01/2026' })).toThrow(RangeError);
    expect(() => parseDateInput('01-01-2026', { max: '2026-02-30' })).toThrow(RangeError);
  });

  it('accepts exactly the dates between the bounds', () => {
    const isoDate = fc
      .date({
        min: new Date('1900-01-01T00:00:00Z'),
        max: new Date('2100-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10));
    fc.assert(
      fc.property(isoDate, isoDate, isoDate, (date, min, max) => {
        const [day, month, year] = [date.slice(8, 10), date.slice(5, 7), date.slice(0, 4)];
        const result = parseDateInput(`${day}.${month}.${year}`, { min, max });
        if (date < min) expect(result).toEqual({ ok: false, reason: 'beforeMin' });
        else if (date > max) expect(result).toEqual({ ok: false, reason: 'afterMax' });
        else expect(result).toEqual({ ok: true, date });
      }),
    );
  });
});

describe('two-digit years', () => {
  it('places the year within 80 years back and 19 forward of the reference year', () => {
    expect(TWO_DIGIT_YEAR_YEARS_BACK).toBe(80);
    expect(expandTwoDigitYear(26, 2026)).toBe(2026);
    expect(expandTwoDigitYear(45, 2026)).toBe(2045);
    expect(expandTwoDigitYear(46, 2026)).toBe(1946);
    expect(expandTwoDigitYear(99, 2026)).toBe(1999);
    expect(expandTwoDigitYear(0, 2026)).toBe(2000);
    expect(parseDateInput('15/06/85', ref)).toEqual({ ok: true, date: '1985-06-15' });
    expect(parseDateInput('15/06/30', ref)).toEqual({ ok: true, date: '2030-06-15' });
  });

  it('keeps the last two digits and lands in the window, for any reference year', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 1200, max: 9000 }),
        (yy, referenceYear) => {
          const year = expandTwoDigitYear(yy, referenceYear);
          expect(year % 100).toBe(yy);
          expect(year).toBeGreaterThanOrEqual(referenceYear - 80);
          expect(year).toBeLessThanOrEqual(referenceYear + 19);
        },
      ),
    );
  });
});

describe('parseDateInput properties', () => {
  const day = fc
    .date({
      min: new Date('1000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString().slice(0, 10));

  it('reads back every day written in each four-digit-year format', () => {
    fc.assert(
      fc.property(day, (iso) => {
        const [year, month, dd] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
        for (const text of [
          `${dd}-${month}-${year}`,
          `${dd}.${month}.${year}`,
          `${dd}/${month}/${year}`,
          iso,
        ]) {
          expect(parseDateInput(text, ref)).toEqual({ ok: true, date: iso });
        }
      }),
    );
  });

  it('reads back every day of the two-digit-year window written as DD/MM/YY', () => {
    const windowDay = fc
      .date({
        min: new Date('1946-01-01T00:00:00Z'),
        max: new Date('2045-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10));
    fc.assert(
      fc.property(windowDay, (iso) => {
        const text = `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(2, 4)}`;
        expect(parseDateInput(text, ref)).toEqual({ ok: true, date: iso });
      }),
    );
  });

  it('never throws on typed text and only ever returns real ISO days', () => {
    const typed = fc.oneof(fc.string(), fc.stringMatching(/^\d{1,4}[-./]\d{1,2}[-./]\d{1,4}$/));
    fc.assert(
      fc.property(typed, (text) => {
        const result = parseDateInput(text, ref);
        if (!result.ok) return;
        const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(result.date);
        expect(match).not.toBeNull();
        expect(isCalendarDate(Number(match?.[1]), Number(match?.[2]), Number(match?.[3]))).toBe(true);
      }),
    );
  });
});
