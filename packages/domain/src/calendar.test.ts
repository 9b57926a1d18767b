import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysInMonth, isCalendarDate, isLeapYear, toIsoDate } from './calendar';

describe('calendar', () => {
  it('applies the Gregorian leap-year rule', () => {
    expect(isLeapYear(2024)).toBe(true);
    expect(isLeapYear(2026)).toBe(false);
    expect(isLeapYear(1900)).toBe(false);
    expect(isLeapYear(2000)).toBe(true);
  });

  it('agrees with the engine on month lengths', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        // Day 0 of the next month is the last day of this one.
        expect(daysInMonth(year, month)).toBe(new Date(Date.UTC(year, month, 0)).getUTCDate());
      }),
    );
  });

  it('accepts real days only', () => {
    expect(isCalendarDate(2024, 2, 29)).toBe(true);
    expect(isCalendarDate(2026, 2, 29)).toBe(false);
    expect(isCalendarDate(2026, 4, 31)).toBe(false);
    expect(isCalendarDate(0, 1, 1)).toBe(false);
    expect(isCalendarDate(2026, 1, 1.5)).toBe(false);
  });

  it('writes zero-padded ISO dates', () => {
    expect(toIsoDate(987, 3, 4)).toBe('0987-03-04');
  });
});
