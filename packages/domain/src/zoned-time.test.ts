import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDateOf, wallClock, zonedInstant, zoneOffset } from './zoned-time';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** What the functions answered before their offsets were cached: every answer read from Intl. */
const reference = (() => {
  const wall = (instant: number, zone: string) => {
    const parts: Record<string, number> = {};
    const f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    for (const p of f.formatToParts(new Date(instant)))
      if (p.type !== 'literal') parts[p.type] = Number(p.value);
    return {
      year: parts.year!,
      month: parts.month!,
      day: parts.day!,
      hour: parts.hour! % 24,
      minute: parts.minute!,
    };
  };
  const offset = (instant: number, zone: string) => {
    const w = wall(instant, zone);
    const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, new Date(instant).getUTCSeconds());
    return asUtc - (instant - (instant % 1000));
  };
  const instant = (date: { year: number; month: number; day: number }, minute: number, zone: string) => {
    const local = Date.UTC(date.year, date.month - 1, date.day) + minute * MINUTE;
    const before = offset(local - 14 * HOUR, zone);
    const after = offset(local + 14 * HOUR, zone);
    const candidates = [local - before, local - after].filter((t) => offset(t, zone) === local - t);
    return candidates.length > 0 ? Math.min(...candidates) : local - before;
  };
  return { wall, offset, instant };
})();

// Zones with half-hour and 45-minute offsets, 30-minute DST, negative DST (Dublin), transitions at
// midnight (Santiago, Havana), a skipped day (Apia, 2011), Ramadan changes (Casablanca) and LMT offsets
// with seconds before 1900-1970.
const ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Europe/Dublin',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/St_Johns',
  'America/Santiago',
  'America/Havana',
  'Pacific/Apia',
  'Africa/Casablanca',
  'Asia/Tehran',
  'Africa/Monrovia',
  'UTC',
];
const FROM = Date.UTC(1900, 0, 1);
const TO = Date.UTC(2100, 0, 1);

describe('zoned time with cached offsets', () => {
  it('answers what Intl answers for any instant from 1900 to 2100, to the millisecond', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: FROM, max: TO }), (zone, t) => {
        expect(zoneOffset(t, zone)).toBe(reference.offset(t, zone));
        expect(wallClock(t, zone)).toEqual(reference.wall(t, zone));
        const w = reference.wall(t, zone);
        expect(localDateOf(t, zone)).toEqual({ year: w.year, month: w.month, day: w.day });
      }),
      { numRuns: 3000 },
    );
  });

  it('answers what Intl answers in the hours around each DST transition', () => {
    // Every minute of the days around the 2026 transitions of a few zones (cached hours sit beside
    // hours with a transition inside, which are read from Intl).
    const days = [
      ['America/New_York', Date.UTC(2026, 2, 8)],
      ['America/New_York', Date.UTC(2026, 10, 1)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 12)],
      ['America/Santiago', Date.UTC(2026, 3, 4, 12)],
      ['Europe/Dublin', Date.UTC(2026, 9, 25)],
    ] as const;
    for (const [zone, start] of days)
      for (let t = start - 12 * HOUR; t < start + 36 * HOUR; t += 7 * MINUTE + 13_000) {
        expect(zoneOffset(t, zone)).toBe(reference.offset(t, zone));
        expect(wallClock(t, zone)).toEqual(reference.wall(t, zone));
      }
  });

  it('answers what Intl answers where the offset is not a whole number of minutes (Monrovia until 1972)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(1972, 4, 1) }), (t) => {
        expect(zoneOffset(t, 'Africa/Monrovia')).toBe(reference.offset(t, 'Africa/Monrovia'));
        expect(wallClock(t, 'Africa/Monrovia')).toEqual(reference.wall(t, 'Africa/Monrovia'));
      }),
      { numRuns: 500 },
    );
  });

  it('finds the instant of every wall-clock time as before', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 200 * 366 }),
        fc.integer({ min: 0, max: 1439 }),
        (zone, dayOffset, minute) => {
          const d = new Date(FROM + dayOffset * 24 * HOUR);
          const date = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
          expect(zonedInstant(date, minute, zone)).toBe(reference.instant(date, minute, zone));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
