import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DISPLAY_DATE_PATTERNS,
  displayDate,
  formatDate,
  ISO_STYLE_DATE_TIME_PATTERN,
  MONTH_DAY_PATTERN,
  US_DATE_PATTERN,
  US_DATE_TIME_PATTERN,
  US_DATE_TIME_SECONDS_ZONE_PATTERN,
  US_SHORT_YEAR_DATE_PATTERN,
} from './date-format';
import { INVALID_DATE, NOT_AVAILABLE } from './display-text';
import { DISPLAY_ZONE_DETROIT, DISPLAY_ZONE_NEW_YORK } from './time-zones';

const winterAfternoon = '2026-11-21T19:05:33Z'; // 14:05:33 EST
const summerNoon = '2026-07-04T16:00:00Z'; // 12:00:00 EDT

describe('formatDate patterns', () => {
  it.each([
    [US_DATE_PATTERN, '11/21/2026'],
    [US_SHORT_YEAR_DATE_PATTERN, '11/21/26'],
    [MONTH_DAY_PATTERN, '11/21'],
    [US_DATE_TIME_PATTERN, '11/21/2026 02:05 PM'],
    [ISO_STYLE_DATE_TIME_PATTERN, '2026-11-21 02:05 pm'],
    [US_DATE_TIME_SECONDS_ZONE_PATTERN, '11/21/2026 02:05:33 PM (EST)'],
  ] as const)('%s in New York', (pattern, expected) => {
    expect(formatDate(winterAfternoon, pattern, DISPLAY_ZONE_NEW_YORK)).toBe(expected);
  });

  it('uses the daylight-saving abbreviation in summer', () => {
    expect(formatDate(summerNoon, US_DATE_TIME_SECONDS_ZONE_PATTERN, DISPLAY_ZONE_NEW_YORK)).toBe(
      '07/04/2026 12:00:00 PM (EDT)',
    );
  });

  it('shows Detroit like New York (same offset rules)', () => {
    expect(formatDate(winterAfternoon, US_DATE_TIME_SECONDS_ZONE_PATTERN, DISPLAY_ZONE_DETROIT)).toBe(
      '11/21/2026 02:05:33 PM (EST)',
    );
  });

  it("uses the user's IANA zone, with Intl's short name where English has no abbreviation", () => {
    expect(formatDate('2026-07-01T12:00:00Z', US_DATE_TIME_SECONDS_ZONE_PATTERN, 'Europe/Berlin')).toBe(
      '07/01/2026 02:00:00 PM (GMT+2)',
    );
    expect(formatDate('2026-07-01T23:30:00Z', US_DATE_PATTERN, 'Asia/Tokyo')).toBe('07/02/2026');
    expect(formatDate('2026-07-01T12:00:00Z', US_DATE_TIME_SECONDS_ZONE_PATTERN, 'UTC')).toBe(
      '07/01/2026 12:00:00 PM (UTC)',
    );
  });

  it('defaults to New York when the zone is missing or not a real zone', () => {
    expect(formatDate(winterAfternoon, US_DATE_TIME_PATTERN)).toBe('11/21/2026 02:05 PM');
    expect(formatDate(winterAfternoon, US_DATE_TIME_PATTERN, 'Mars/Olympus_Mons')).toBe(
      '11/21/2026 02:05 PM',
    );
    expect(formatDate(winterAfternoon, US_DATE_TIME_PATTERN, '')).toBe('11/21/2026 02:05 PM');
  });

  it('crosses the spring-forward gap correctly', () => {
    expect(formatDate('2026-03-08T06:59:59Z', US_DATE_TIME_SECONDS_ZONE_PATTERN)).toBe(
      '03/08/2026 01:59:59 AM (EST)',
    );
    expect(formatDate('2026-03-08T07:00:00Z', US_DATE_TIME_SECONDS_ZONE_PATTERN)).toBe(
      '03/08/2026 03:00:00 AM (EDT)',
    );
  });

  it('shows the UTC day before in New York for an instant just after UTC midnight', () => {
    expect(formatDate('2026-11-22T02:00:00Z', US_DATE_PATTERN)).toBe('11/21/2026');
  });

  it('honours an explicit offset and reads a time without offset as UTC', () => {
    expect(formatDate('2026-11-21T21:05:33+02:00', US_DATE_TIME_PATTERN)).toBe('11/21/2026 02:05 PM');
    expect(formatDate('2026-11-21 19:05:33', US_DATE_TIME_PATTERN)).toBe('11/21/2026 02:05 PM');
    expect(formatDate('2026-11-21T19:05:33.123456Z', US_DATE_TIME_PATTERN)).toBe('11/21/2026 02:05 PM');
  });

  it('keeps a date-only value on its calendar day in every zone', () => {
    expect(formatDate('1980-02-29', US_DATE_PATTERN, 'America/Los_Angeles')).toBe('02/29/1980');
    expect(formatDate('1980-02-29', US_DATE_PATTERN, 'Pacific/Kiritimati')).toBe('02/29/1980');
  });

  it('accepts a Date and epoch milliseconds', () => {
    const instant = Date.parse(winterAfternoon);
    expect(formatDate(new Date(instant), US_DATE_TIME_PATTERN)).toBe('11/21/2026 02:05 PM');
    expect(formatDate(instant, US_DATE_TIME_PATTERN)).toBe('11/21/2026 02:05 PM');
  });

  it.each([
    ['empty string', ''],
    ['blank string', '   '],
    ['null', null],
    ['undefined', undefined],
    ['words', 'tomorrow'],
    ['the text Invalid Date', 'Invalid Date'],
    ['an impossible day', '2026-02-31'],
    ['an impossible day with time', '2026-02-31T10:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['a bare number string', '1'],
    ['an invalid Date', new Date(Number.NaN)],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('gives Invalid Date for %s', (_label, value) => {
    expect(formatDate(value, US_DATE_PATTERN)).toBe(INVALID_DATE);
  });

  it('returns values starting with an asterisk unchanged', () => {
    expect(formatDate('*Pending', US_DATE_PATTERN)).toBe('*Pending');
    expect(formatDate('*', US_DATE_TIME_PATTERN)).toBe('*');
    expect(formatDate('*2026-11-21', US_DATE_PATTERN)).toBe('*2026-11-21');
  });

  it('agrees with Intl on the calendar day for any instant and zone', () => {
    const zones = [DISPLAY_ZONE_NEW_YORK, DISPLAY_ZONE_DETROIT, 'UTC', 'Asia/Kolkata', 'Australia/Adelaide'];
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2100-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(...zones),
        (date, zone) => {
          const expected = new Intl.DateTimeFormat('en-US', {
            timeZone: zone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
          }).format(date);
          expect(formatDate(date, US_DATE_PATTERN, zone)).toBe(expected);
          expect(formatDate(date.toISOString(), US_DATE_PATTERN, zone)).toBe(expected);
        },
      ),
    );
  });

  it('always produces the shape of its pattern for a valid instant', () => {
    const shapes: Record<(typeof DISPLAY_DATE_PATTERNS)[number], RegExp> = {
      [US_DATE_PATTERN]: /^\d{2}\/\d{2}\/\d{4}$/,
      [US_SHORT_YEAR_DATE_PATTERN]: /^\d{2}\/\d{2}\/\d{2}$/,
      [MONTH_DAY_PATTERN]: /^\d{2}\/\d{2}$/,
      [US_DATE_TIME_PATTERN]: /^\d{2}\/\d{2}\/\d{4} (0[1-9]|1[0-2]):[0-5]\d (AM|PM)$/,
      [ISO_STYLE_DATE_TIME_PATTERN]: /^\d{4}-\d{2}-\d{2} (0[1-9]|1[0-2]):[0-5]\d (am|pm)$/,
      [US_DATE_TIME_SECONDS_ZONE_PATTERN]:
        /^\d{2}\/\d{2}\/\d{4} (0[1-9]|1[0-2]):[0-5]\d:[0-5]\d (AM|PM) \(E[SD]T\)$/,
    };
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2100-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(...DISPLAY_DATE_PATTERNS),
        (date, pattern) => {
          expect(formatDate(date, pattern, DISPLAY_ZONE_NEW_YORK)).toMatch(shapes[pattern]);
        },
      ),
    );
  });
});

describe('displayDate', () => {
  it('shows N/A where formatDate gives Invalid Date', () => {
    expect(displayDate('')).toBe(NOT_AVAILABLE);
    expect(displayDate(null)).toBe(NOT_AVAILABLE);
    expect(displayDate('Invalid Date')).toBe(NOT_AVAILABLE);
    expect(displayDate('not a date', US_DATE_TIME_PATTERN)).toBe(NOT_AVAILABLE);
  });

  it('formats valid values, MM/DD/YYYY by default', () => {
    expect(displayDate(winterAfternoon)).toBe('11/21/2026');
    expect(displayDate(winterAfternoon, MONTH_DAY_PATTERN, 'Asia/Tokyo')).toBe('11/22');
  });

  it('returns asterisk values unchanged', () => {
    expect(displayDate('*Estimated')).toBe('*Estimated');
  });

  it('never shows Invalid Date and never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...DISPLAY_DATE_PATTERNS), (text, pattern) => {
        const shown = displayDate(text, pattern);
        expect(shown).not.toBe(INVALID_DATE);
        if (text.startsWith('*')) expect(shown).toBe(text);
      }),
    );
  });
});
