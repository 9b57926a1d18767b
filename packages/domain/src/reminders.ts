import { dateOfDayNumber, dayNumber, type LocalDate, localDateOf, zonedInstant } from './zoned-time';

/** A recurring reminder: at a wall-clock time on some weekdays, from a day, until a day (inclusive) or not. */
export type ReminderRule = {
  /** 'HH:MM', the patient's wall clock. */
  time: string;
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  days: readonly number[];
  /** 'YYYY-MM-DD'. */
  startDate: string;
  endDate: string | null;
};

const parseDate = (iso: string): LocalDate => {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};

/** ISO weekday of a day number (day 0, 1970-01-01, was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/**
 * The first instant after `after` at which the reminder fires, in the zone (the time is the patient's wall
 * clock, so it stays 08:00 across DST; a time inside the spring-forward gap fires just after it), or null
 * when it never fires again.
 */
export function nextReminder(rule: ReminderRule, zone: string, after: number): number | null {
  const [hour, minute] = rule.time.split(':').map(Number) as [number, number];
  const minuteOfDay = hour * 60 + minute;
  const start = dayNumber(parseDate(rule.startDate));
  const end = rule.endDate ? dayNumber(parseDate(rule.endDate)) : Number.POSITIVE_INFINITY;
  // From the day before `after` in the zone (its time may still be ahead), at most two weeks on.
  let day = Math.max(start, dayNumber(localDateOf(after, zone)) - 1);
  for (let i = 0; i < 16 && day <= end; i++, day++) {
    if (!rule.days.includes(isoWeekday(day))) continue;
    const at = zonedInstant(dateOfDayNumber(day), minuteOfDay, zone);
    if (at > after) return at;
  }
  return null;
}
