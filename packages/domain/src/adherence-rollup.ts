/**
 * The engine's result cut into days, for the server's daily rollup of adherence (ADR 046): what the KPI
 * adds up instead of classifying every patient on every request. The counts are the engine's own; a dose
 * still pending is listed with the instant its window closes and what it becomes then, so a reader can
 * settle it at any later instant exactly as the engine would, without classifying again.
 */
import type { AdherenceResult } from './adherence';
import { stateAtClose } from './adherence';
import { isoDate, localDateOf } from './zoned-time';

/**
 * The doses of one patient whose scheduled instant falls on the local date `day` (what a date range
 * selects, as the engine's `from`/`to` do) and that the engine files under the schedule date `date` (what
 * the daily series shows). The two differ only when a cascade pushes a late evening dose past midnight.
 * Extra doses are counted on the local date they were taken (`date` equal to `day`).
 */
export type RollupDay = {
  day: string;
  date: string;
  due: number;
  on_time: number;
  late: number;
  missed: number;
  skipped: number;
  partial: number;
  pending: number;
  extra: number;
};

/** A dose pending when classified: from `closesAt` on it is `becomes` unless an event arrives first. */
export type RollupPendingDose = {
  day: string;
  date: string;
  closesAt: number;
  becomes: 'missed' | 'partial';
};

/** A day with nothing due, decided or extra. */
export const emptyDay = (day: string, date: string): RollupDay => ({
  day,
  date,
  due: 0,
  on_time: 0,
  late: 0,
  missed: 0,
  skipped: 0,
  partial: 0,
  pending: 0,
  extra: 0,
});

/**
 * Cuts an engine result (one patient, classified in `zone`) into per-day counts, in order of (day, date),
 * and lists the doses still pending. Summing the days of a date range gives the engine's totals for that
 * range; the doses of each `date` give its daily series.
 */
export function rollupDays(
  result: AdherenceResult,
  zone: string,
): { days: RollupDay[]; pending: RollupPendingDose[] } {
  const days = new Map<string, RollupDay>();
  const at = (day: string, date: string) => {
    const key = `${day}|${date}`;
    let row = days.get(key);
    if (!row) {
      row = emptyDay(day, date);
      days.set(key, row);
    }
    return row;
  };
  const pending: RollupPendingDose[] = [];
  for (const d of result.doses) {
    const day = isoDate(localDateOf(d.scheduledAt, zone));
    const row = at(day, d.date);
    row[d.state]++;
    if (d.state === 'pending')
      pending.push({ day, date: d.date, closesAt: d.windowClose, becomes: stateAtClose(d) });
    else row.due++;
  }
  for (const e of result.extra) {
    const day = isoDate(localDateOf(e.at, zone));
    at(day, day).extra++;
  }
  const sorted = [...days.values()].sort((a, b) =>
    a.day === b.day ? a.date.localeCompare(b.date) : a.day.localeCompare(b.day),
  );
  return { days: sorted, pending };
}
