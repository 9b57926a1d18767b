import { describe, expect, it } from 'vitest';
import { isoWeekday, nextReminder } from './reminders';

const NY = 'America/New_York';
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

describe('nextReminder', () => {
  it('knows the weekday of a day number', () => {
    expect(isoWeekday(0)).toBe(4); // 1970-01-01, a Thursday
    expect(isoWeekday(Date.UTC(2026, 10, 23) / 86_400_000)).toBe(1); // 2026-11-23, a Monday
  });

  it('fires at the wall-clock time on the chosen weekdays, from the start day to the end day', () => {
    const rule = { time: '08:00', days: [1, 3, 5], startDate: '2026-11-24', endDate: '2026-12-04' };
    // Tuesday 24 Nov at noon: next is Wednesday 25 at 08:00 EST (13:00Z).
    expect(iso(nextReminder(rule, NY, Date.parse('2026-11-24T17:00:00Z')))).toBe('2026-11-25T13:00:00.000Z');
    // Exactly at a firing: the next one (Friday).
    expect(iso(nextReminder(rule, NY, Date.parse('2026-11-25T13:00:00Z')))).toBe('2026-11-27T13:00:00.000Z');
    // Before the start day: the first chosen weekday on or after it.
    expect(iso(nextReminder(rule, NY, Date.parse('2026-11-01T00:00:00Z')))).toBe('2026-11-25T13:00:00.000Z');
    // After the last firing: never again.
    expect(nextReminder(rule, NY, Date.parse('2026-12-04T13:00:00Z'))).toBeNull();
  });

  it('keeps the wall-clock time across daylight saving time', () => {
    const rule = { time: '08:00', days: [1, 2, 3, 4, 5, 6, 7], startDate: '2026-03-01', endDate: null };
    expect(iso(nextReminder(rule, NY, Date.parse('2026-03-07T14:00:00Z')))).toBe('2026-03-08T12:00:00.000Z');
    expect(iso(nextReminder(rule, NY, Date.parse('2026-03-06T14:00:00Z')))).toBe('2026-03-07T13:00:00.000Z');
    // 02:30 does not exist on 8 March in New York: it fires at 03:30 EDT.
    const gap = { ...rule, time: '02:30' };
    expect(iso(nextReminder(gap, NY, Date.parse('2026-03-08T05:00:00Z')))).toBe('2026-03-08T07:30:00.000Z');
  });
});
