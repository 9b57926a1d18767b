import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ClassifiedDose,
  classifyAdherence,
  type DoseEvent,
  expandSchedule,
  type ScheduleRegimen,
} from './adherence';
import { wallClock, zonedInstant } from './zoned-time';

const NY = 'America/New_York';
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (t: number) => new Date(t).toISOString();

function regimen(over: Partial<ScheduleRegimen> = {}): ScheduleRegimen {
  return {
    id: 1,
    repeat: 'daily',
    interval: 1,
    times: ['08:00'],
    timeCascade: false,
    lockoutMinutes: 120,
    unlockBeforeMinutes: 30,
    scheduledAt: Date.parse('2026-06-01T00:00:00-04:00'),
    endAt: null,
    multiPod: false,
    num: 1,
    ...over,
  };
}

const taken = (at: string | number, regimenId = 1, id: string | number = String(at)): DoseEvent => ({
  id,
  regimenId,
  at: typeof at === 'number' ? at : Date.parse(at),
  kind: 'taken',
});

function classify(r: ScheduleRegimen[], events: DoseEvent[], from: string, to: string, now = to) {
  return classifyAdherence({
    regimens: r,
    events,
    zone: NY,
    from: Date.parse(from),
    to: Date.parse(to),
    now: Date.parse(now),
  });
}

describe('zoned time', () => {
  it('moves a wall-clock time inside the spring-forward gap forward by the gap', () => {
    // 2026-03-08 02:30 does not exist in New York; it is 03:30 EDT.
    const t = zonedInstant({ year: 2026, month: 3, day: 8 }, 150, NY);
    expect(iso(t)).toBe('2026-03-08T07:30:00.000Z');
  });

  it('takes the first occurrence of an ambiguous fall-back time', () => {
    // 2026-11-01 01:30 happens twice; the first is EDT (−4 h).
    const t = zonedInstant({ year: 2026, month: 11, day: 1 }, 90, NY);
    expect(iso(t)).toBe('2026-11-01T05:30:00.000Z');
  });

  it('round-trips ordinary wall-clock times in several zones', () => {
    const zones = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 3 * 365 }),
        fc.integer({ min: 0, max: 1439 }),
        (zone, dayOffset, minute) => {
          const d = new Date(Date.UTC(2025, 0, 1) + dayOffset * DAY);
          const date = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
          const t = zonedInstant(date, minute, zone);
          const w = wallClock(t, zone);
          const back = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
          const asked = Date.UTC(date.year, date.month - 1, date.day) + minute * MIN;
          // Equal, or moved forward by a DST gap (at most an hour; Lord Howe: 30 min).
          expect(back - asked).toBeGreaterThanOrEqual(0);
          expect(back - asked).toBeLessThanOrEqual(HOUR);
          if (back !== asked) expect(zonedInstant(date, minute, zone)).toBe(t);
        },
      ),
    );
  });
});

describe('expandSchedule', () => {
  it('keeps 08:00 local across both DST changes (instants move by an hour)', () => {
    const r = regimen({ scheduledAt: Date.parse('2026-03-01T00:00:00-05:00') });
    const doses = expandSchedule(
      r,
      NY,
      Date.parse('2026-03-07T00:00:00Z'),
      Date.parse('2026-03-10T00:00:00Z'),
    );
    expect(doses.map((d) => iso(d.scheduledAt))).toEqual([
      '2026-03-07T13:00:00.000Z',
      '2026-03-08T12:00:00.000Z',
      '2026-03-09T12:00:00.000Z',
    ]);
  });

  it('has no dose before scheduled_at or after end_at, and none for as-needed regimens', () => {
    const r = regimen({
      times: ['08:00', '20:00'],
      scheduledAt: Date.parse('2026-06-01T12:00:00-04:00'),
      endAt: Date.parse('2026-06-03T08:00:00-04:00'),
    });
    const doses = expandSchedule(
      r,
      NY,
      Date.parse('2026-05-25T00:00:00Z'),
      Date.parse('2026-06-30T00:00:00Z'),
    );
    expect(doses.map((d) => `${d.date} ${d.time}`)).toEqual([
      '2026-06-01 20:00',
      '2026-06-02 08:00',
      '2026-06-02 20:00',
      '2026-06-03 08:00',
    ]);
    expect(expandSchedule({ ...r, repeat: 'as_needed' }, NY, 0, Date.parse('2027-01-01T00:00:00Z'))).toEqual(
      [],
    );
  });

  it('repeats every n days, weeks or months from the local date of scheduled_at', () => {
    const from = Date.parse('2026-06-01T00:00:00-04:00');
    const to = Date.parse('2026-09-01T00:00:00-04:00');
    const dates = (over: Partial<ScheduleRegimen>) =>
      expandSchedule(regimen({ ...over, scheduledAt: Date.parse('2026-06-01T00:00:00-04:00') }), NY, from, to)
        .slice(0, 4)
        .map((d) => d.date);
    expect(dates({ interval: 3 })).toEqual(['2026-06-01', '2026-06-04', '2026-06-07', '2026-06-10']);
    expect(dates({ repeat: 'weekly', interval: 2 })).toEqual([
      '2026-06-01',
      '2026-06-15',
      '2026-06-29',
      '2026-07-13',
    ]);
    expect(
      expandSchedule(
        regimen({ repeat: 'monthly', scheduledAt: Date.parse('2026-01-31T00:00:00-05:00') }),
        NY,
        Date.parse('2026-01-01T00:00:00Z'),
        Date.parse('2026-05-01T00:00:00Z'),
      ).map((d) => d.date),
    ).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
  });

  it('closes a window without lockout when the next window opens', () => {
    const r = regimen({ times: ['08:00', '20:00'], lockoutMinutes: 0, unlockBeforeMinutes: 60 });
    const [first] = expandSchedule(
      r,
      NY,
      Date.parse('2026-06-02T00:00:00-04:00'),
      Date.parse('2026-06-03T00:00:00-04:00'),
    );
    expect(iso(first!.windowOpen)).toBe('2026-06-02T11:00:00.000Z');
    expect(iso(first!.windowClose)).toBe('2026-06-02T23:00:00.000Z');
  });

  it('gives a dose moved onto another by the spring-forward gap a window that stays open after it is due', () => {
    const r = regimen({
      times: ['00:30', '02:30', '03:30'],
      lockoutMinutes: 0,
      unlockBeforeMinutes: 0,
      scheduledAt: Date.parse('2026-03-08T00:00:00-05:00'),
    });
    const doses = expandSchedule(
      r,
      NY,
      Date.parse('2026-03-08T00:00:00-05:00'),
      Date.parse('2026-03-09T00:00:00-04:00'),
    );
    const moved = doses.filter((d) => d.date === '2026-03-08' && d.time !== '00:30');
    expect(moved.map((d) => iso(d.scheduledAt))).toEqual([
      '2026-03-08T07:30:00.000Z',
      '2026-03-08T07:30:00.000Z',
    ]);
    for (const d of moved) expect(iso(d.windowClose)).toBe('2026-03-09T04:30:00.000Z');
  });

  it('leaves each dose its own time when the next window opens before it is due', () => {
    const r = regimen({ times: ['08:00', '08:30'], lockoutMinutes: 0, unlockBeforeMinutes: 60 });
    const [first] = expandSchedule(
      r,
      NY,
      Date.parse('2026-06-02T00:00:00-04:00'),
      Date.parse('2026-06-03T00:00:00-04:00'),
    );
    expect(iso(first!.windowClose)).toBe('2026-06-02T12:30:00.000Z');
  });

  it('orders doses in time, each within its own window, over random schedules', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('daily', 'weekly', 'monthly') as fc.Arbitrary<'daily' | 'weekly' | 'monthly'>,
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 400 }),
        (hours, repeat, interval, startDay) => {
          const times = hours.map((h) => `${String(h).padStart(2, '0')}:30`);
          const scheduledAt = Date.parse('2026-01-01T00:00:00Z') + startDay * DAY;
          const r = regimen({
            times,
            repeat,
            interval,
            scheduledAt,
            lockoutMinutes: 0,
            unlockBeforeMinutes: 0,
          });
          const doses = expandSchedule(r, NY, scheduledAt, scheduledAt + 120 * DAY);
          for (let i = 0; i < doses.length; i++) {
            const d = doses[i]!;
            expect(d.scheduledAt).toBeGreaterThanOrEqual(scheduledAt);
            expect(d.windowOpen).toBeLessThanOrEqual(d.scheduledAt);
            expect(d.windowClose).toBeGreaterThan(d.scheduledAt);
            // In time order. Two doses may share an instant only when a spring-forward gap moved one onto the
            // other (02:30 → 03:30 beside a 03:30 dose): both stay due.
            if (i > 0) {
              const previous = doses[i - 1]!;
              if (d.scheduledAt === previous.scheduledAt) expect(d.time).not.toBe(previous.time);
              else expect(d.scheduledAt).toBeGreaterThan(previous.scheduledAt);
            }
            const w = wallClock(d.scheduledAt, NY);
            // 02:30 on the spring-forward day reads 03:30.
            const minutes = w.hour * 60 + w.minute;
            const asked = Number(d.time.slice(0, 2)) * 60 + 30;
            expect([asked, asked + 60]).toContain(minutes);
          }
        },
      ),
    );
  });
  it('keeps both doses when the spring-forward gap moves 02:30 onto a 03:30 dose (found by the property above)', () => {
    const scheduledAt = Date.parse('2026-03-07T12:00:00Z');
    const r = regimen({ times: ['02:30', '03:30'], scheduledAt, lockoutMinutes: 0, unlockBeforeMinutes: 0 });
    const doses = expandSchedule(
      r,
      NY,
      Date.parse('2026-03-08T05:00:00Z'),
      Date.parse('2026-03-09T05:00:00Z'),
    );
    expect(doses.map((d) => d.time)).toEqual(['02:30', '03:30']);
    expect(doses[0]!.scheduledAt).toBe(doses[1]!.scheduledAt);
  });
});

describe('classifyAdherence', () => {
  const day = (d: ClassifiedDose) => d.state;

  it('classifies on time, late, missed, skipped and extra doses (docs/adherence.md example 1)', () => {
    const r = regimen({ times: ['08:00', '20:00'], lockoutMinutes: 180, unlockBeforeMinutes: 30 });
    const events: DoseEvent[] = [
      taken('2026-06-02T07:45:00-04:00'), // 08:00 on time (unlocked early)
      taken('2026-06-02T08:10:00-04:00'), // second event in the same window: extra
      taken('2026-06-02T21:30:00-04:00'), // 20:00 late (after 21:00)
      // 2026-06-03 08:00: nothing → missed
      { id: 's', regimenId: 1, at: Date.parse('2026-06-03T19:50:00-04:00'), kind: 'skipped' },
      taken('2026-06-03T14:00:00-04:00'), // inside no window: extra
    ];
    const result = classify([r], events, '2026-06-02T00:00:00-04:00', '2026-06-04T00:00:00-04:00');
    expect(result.doses.map(day)).toEqual(['on_time', 'late', 'missed', 'skipped']);
    expect(result.extra.map((e) => iso(e.at))).toEqual([
      '2026-06-02T12:10:00.000Z',
      '2026-06-03T18:00:00.000Z',
    ]);
    expect(result.total).toMatchObject({ due: 4, on_time: 1, late: 1, missed: 1, skipped: 1 });
    expect(result.total.adherence).toBe(50);
    expect(result.total.compliance).toBe(25);
    expect(result.days.map((d) => [d.date, d.adherence])).toEqual([
      ['2026-06-02', 100],
      ['2026-06-03', 0],
    ]);
  });

  it('leaves a dose whose window is still open pending, counted nowhere', () => {
    const r = regimen({ times: ['08:00', '20:00'] });
    const result = classify(
      [r],
      [taken('2026-06-02T08:05:00-04:00')],
      '2026-06-02T00:00:00-04:00',
      '2026-06-03T00:00:00-04:00',
      '2026-06-02T20:30:00-04:00',
    );
    expect(result.doses.map(day)).toEqual(['on_time', 'pending']);
    expect(result.total).toMatchObject({ due: 1, pending: 1, adherence: 100, compliance: 100 });
  });

  it('takes a multi-pod dose only when all its pods are dispensed in the window', () => {
    const r = regimen({ multiPod: true, num: 2 });
    const result = classify(
      [r],
      [
        taken('2026-06-02T08:00:00-04:00', 1, 'a'),
        taken('2026-06-02T08:20:00-04:00', 1, 'b'),
        taken('2026-06-03T08:00:00-04:00', 1, 'c'),
      ],
      '2026-06-02T00:00:00-04:00',
      '2026-06-04T00:00:00-04:00',
    );
    expect(result.doses.map((d) => [d.state, d.eventIds])).toEqual([
      ['on_time', ['a', 'b']],
      ['partial', ['c']],
    ]);
    expect(result.extra).toEqual([]);
    expect(result.total.adherence).toBe(50);
  });

  it('moves the later doses of a day with a late dose when the schedule cascades', () => {
    const r = regimen({
      times: ['08:00', '12:00'],
      timeCascade: true,
      lockoutMinutes: 90,
      unlockBeforeMinutes: 0,
    });
    const result = classify(
      [r],
      [taken('2026-06-02T09:20:00-04:00'), taken('2026-06-02T13:30:00-04:00')],
      '2026-06-02T00:00:00-04:00',
      '2026-06-03T00:00:00-04:00',
    );
    // 08:00 taken at 09:20 (late); 12:00 moves to 13:20, so 13:30 is inside its window and on time.
    expect(result.doses.map((d) => [d.state, iso(d.scheduledAt)])).toEqual([
      ['late', '2026-06-02T12:00:00.000Z'],
      ['on_time', '2026-06-02T17:20:00.000Z'],
    ]);
  });

  it('counts a late dose of the day before the range to that day, not as an extra dose', () => {
    const r = regimen({ times: ['23:00'], lockoutMinutes: 180 });
    const result = classify(
      [r],
      [taken('2026-06-03T00:30:00-04:00')],
      '2026-06-03T00:00:00-04:00',
      '2026-06-03T12:00:00-04:00',
    );
    expect(result.doses).toEqual([]);
    expect(result.extra).toEqual([]);
  });

  it('leaves an early event of the first dose after the range to that dose, not as an extra dose', () => {
    // 00:00 daily, unlocked an hour early: a dose taken at 23:30 belongs to the next day's dose, whether or
    // not the range reaches that day (found by the rollup's property test).
    const r = regimen({ times: ['00:00'], lockoutMinutes: 120, unlockBeforeMinutes: 60 });
    const result = classify(
      [r],
      [taken('2026-06-03T23:30:00-04:00')],
      '2026-06-03T00:00:00-04:00',
      '2026-06-04T00:00:00-04:00',
    );
    expect(result.doses.map(day)).toEqual(['missed']);
    expect(result.extra).toEqual([]);
  });

  it('keeps its invariants over random events', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 7 * 24 * 60 - 1 }), { maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 240 }),
        fc.integer({ min: 0, max: 120 }),
        (minutes, multiPod, num, lockout, unlock) => {
          const start = Date.parse('2026-06-01T00:00:00-04:00');
          const r = regimen({
            times: ['08:00', '20:00'],
            multiPod,
            num,
            lockoutMinutes: lockout,
            unlockBeforeMinutes: Math.min(unlock, 700),
            scheduledAt: start,
          });
          const events = minutes.map((m, i) => taken(start + m * MIN, 1, i));
          const result = classifyAdherence({
            regimens: [r],
            events,
            zone: NY,
            from: start,
            to: start + 7 * DAY,
            now: start + 5 * DAY,
          });
          const used = result.doses.flatMap((d) => d.eventIds);
          // Every event decides at most one dose, and is never both used and extra.
          expect(new Set(used).size).toBe(used.length);
          for (const e of result.extra) expect(used).not.toContain(e.id);
          // Every event in range is used or extra.
          expect(used.length + result.extra.length).toBe(events.length);
          const t = result.total;
          expect(t.on_time + t.late + t.missed + t.skipped + t.partial + t.pending).toBe(result.doses.length);
          expect(t.due).toBe(result.doses.length - t.pending);
          if (t.adherence !== null) expect(t.adherence).toBeGreaterThanOrEqual(t.compliance!);
          for (const d of result.doses) {
            if (d.state === 'on_time' || d.state === 'late') {
              expect(d.takenAt!).toBeGreaterThanOrEqual(d.windowOpen);
              expect(d.takenAt!).toBeLessThanOrEqual(d.windowClose);
            }
            if (d.state === 'pending') expect(d.windowClose).toBeGreaterThan(start + 5 * DAY);
          }
        },
      ),
    );
  });
});
