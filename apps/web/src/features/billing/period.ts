import { BILLING_MAX_DAYS } from '@caredeck/contracts';
import { CALENDAR_DATE, localToday } from '../../shared/ui/period';

/** The calendar month around a YYYY-MM-DD day, `offset` months away. */
export function monthAround(day: string, offset = 0): { start: string; end: string } {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 + offset, 1));
  const last = new Date(Date.UTC(y, m + offset, 0));
  return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10) };
}

/** The report's period from the URL: this month (in the browser's calendar) unless it says otherwise. */
export function periodOf(params: URLSearchParams, today = localToday()) {
  const month = monthAround(today);
  const start = CALENDAR_DATE.test(params.get('start') ?? '') ? params.get('start')! : month.start;
  const end = CALENDAR_DATE.test(params.get('end') ?? '') ? params.get('end')! : month.end;
  const days = Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1;
  const preset =
    start === month.start && end === month.end
      ? 'this'
      : start === monthAround(today, -1).start && end === monthAround(today, -1).end
        ? 'last'
        : null;
  return { start, end, days, preset, valid: start <= end && days <= BILLING_MAX_DAYS };
}
