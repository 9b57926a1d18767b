import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAdherence, type DoseEvent, type ScheduleRegimen } from './adherence';
import { type RollupDay, rollupDays } from './adherence-rollup';
import { isoDate, zonedInstant } from './zoned-time';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const COUNTS = ['due', 'on_time', 'late', 'missed', 'skipped', 'partial', 'pending'] as const;

const dateOf = (iso: string) => ({
  year: Number(iso.slice(0, 4)),
  month: Number(iso.slice(5, 7)),
  day: Number(iso.slice(8, 10)),
});
const addDays = (iso: string, n: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** The rows of [start, end] added up, pending doses settled at `at` as a reader settles them. */
function sumRows(
  rows: RollupDay[],
  pending: ReturnType<typeof rollupDays>['pending'],
  start: string,
  end: string,
  at: number,
) {
  const total = { due: 0, on_time: 0, late: 0, missed: 0, skipped: 0, partial: 0, pending: 0, extra: 0 };
  const daily = new Map<string, Record<(typeof COUNTS)[number], number>>();
  const dayOf = (date: string) => {
    let d = daily.get(date);
    if (!d) {
      d = { due: 0, on_time: 0, late: 0, missed: 0, skipped: 0, partial: 0, pending: 0 };
      daily.set(date, d);
    }
    return d;
  };
  for (const r of rows) {
    if (r.day < start || r.day > end) continue;
    total.extra += r.extra;
    if (r.due + r.pending === 0) continue;
    const d = dayOf(r.date);
    for (const k of COUNTS) {
      total[k] += r[k];
      d[k] += r[k];
    }
  }
  for (const p of pending) {
    if (p.day < start || p.day > end || p.closesAt > at) continue;
    const d = dayOf(p.date);
    for (const t of [total, d]) {
      t.pending--;
      t.due++;
      t[p.becomes]++;
    }
  }
  return { total, daily };
}

const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata'];
// Periods around the 2026 DST changes of those zones.
const STARTS = ['2026-03-04', '2026-03-25', '2026-04-01', '2026-10-21', '2026-06-10'];

const regimenArb = fc.record({
  hours: fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 3 }),
  half: fc.boolean(),
  repeat: fc.constantFrom('daily', 'daily', 'weekly') as fc.Arbitrary<'daily' | 'weekly'>,
  interval: fc.integer({ min: 1, max: 2 }),
  lockout: fc.constantFrom(0, 60, 120, 180, 240),
  unlock: fc.constantFrom(0, 15, 30, 60),
  multiPod: fc.boolean(),
  num: fc.integer({ min: 1, max: 3 }),
  cascade: fc.boolean(),
  startMinutes: fc.integer({ min: -3 * 24 * 60, max: 4 * 24 * 60 }),
  endDays: fc.option(fc.integer({ min: 3, max: 16 }), { nil: null }),
});

describe('rollupDays', () => {
  it('adds up, over any range inside the classified one, to what the engine answers for that range', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...STARTS),
        fc.array(regimenArb, { minLength: 1, maxLength: 2 }),
        fc.array(
          fc.record({
            regimen: fc.integer({ min: 0, max: 2 }),
            minute: fc.integer({ min: -2 * 24 * 60, max: 16 * 24 * 60 }),
            skip: fc.integer({ min: 0, max: 9 }),
          }),
          { maxLength: 80 },
        ),
        fc.integer({ min: 2, max: 7 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 15 * 24 * 60 }),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        (zone, first, specs, eventSpecs, startOffset, length, nowMinutes, laterMinutes) => {
          // The rollup classified 14 days from `first`; a reader asks for [start, end] inside them.
          const last = addDays(first, 13);
          const from = zonedInstant(dateOf(first), 0, zone);
          const to = zonedInstant(dateOf(addDays(last, 1)), 0, zone);
          const regimens: ScheduleRegimen[] = specs.map((s, i) => {
            const scheduledAt = from + s.startMinutes * MIN;
            return {
              id: i + 1,
              repeat: s.repeat,
              interval: s.interval,
              times: s.hours.map((h) => `${String(h).padStart(2, '0')}:${s.half ? '30' : '00'}`),
              timeCascade: s.cascade,
              lockoutMinutes: s.lockout,
              unlockBeforeMinutes: s.unlock,
              scheduledAt,
              endAt: s.endDays === null ? null : from + s.endDays * DAY,
              multiPod: s.multiPod,
              num: s.num,
            };
          });
          const events: DoseEvent[] = eventSpecs.map((e, i) => ({
            id: i,
            regimenId: (e.regimen % regimens.length) + 1,
            at: from + e.minute * MIN,
            kind: e.skip === 0 ? 'skipped' : 'taken',
          }));
          const now = from + nowMinutes * MIN;
          const later = now + laterMinutes * MIN;
          const whole = classifyAdherence({ regimens, events, zone, from, to, now });
          const { days, pending } = rollupDays(whole, zone);

          const start = addDays(first, startOffset);
          const end = addDays(start, Math.min(length, 13 - startOffset));
          const asked = classifyAdherence({
            regimens,
            events,
            zone,
            from: zonedInstant(dateOf(start), 0, zone),
            to: zonedInstant(dateOf(addDays(end, 1)), 0, zone),
            now: later,
          });
          const sum = sumRows(days, pending, start, end, later);
          for (const k of COUNTS) expect(sum.total[k], k).toBe(asked.total[k]);
          expect(sum.total.extra).toBe(asked.extra.length);
          expect(
            [...sum.daily.entries()]
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([date, d]) => ({ date, ...d })),
          ).toEqual(
            asked.days.map((d) => ({
              date: d.date,
              due: d.due,
              on_time: d.on_time,
              late: d.late,
              missed: d.missed,
              skipped: d.skipped,
              partial: d.partial,
              pending: d.pending,
            })),
          );
          // Every day of the rows is a day of the classified range.
          for (const r of days) {
            expect(r.day >= isoDate(dateOf(first)) && r.day <= last).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  }, 60_000);
});
