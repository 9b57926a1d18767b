import { useSearchParams } from 'react-router';

/** A calendar date as the URL holds it. */
export const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Longest period a view asks for (the API answers 422 beyond). */
export const MAX_PERIOD_DAYS = 366;

/** The day of an instant in the browser's zone, as YYYY-MM-DD (01 §9: messages are grouped by it). */
export function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Today in the browser's zone, as YYYY-MM-DD. */
export function localToday(): string {
  return localDay(new Date().toISOString());
}

/** The date `days` before a YYYY-MM-DD date. */
export function daysBefore(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - days);
  return t.toISOString().slice(0, 10);
}

/**
 * A period of dates kept in the URL (`?start=…&end=…`), ending today and `defaultDays` long unless the URL
 * says otherwise; `setPeriod` makes a history entry (and drops `page`: a paged list starts over). `preset` is
 * the length of a period that ends today.
 */
export function usePeriodParams(defaultDays: number) {
  const [params, setParams] = useSearchParams();
  const today = new Date().toISOString().slice(0, 10);
  const end = CALENDAR_DATE.test(params.get('end') ?? '') ? params.get('end')! : today;
  const start = CALENDAR_DATE.test(params.get('start') ?? '')
    ? params.get('start')!
    : daysBefore(end, defaultDays - 1);
  const days = Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1;
  const setPeriod = (next: { start: string; end: string }) =>
    setParams((current) => {
      const p = new URLSearchParams(current);
      p.set('start', next.start);
      p.set('end', next.end);
      p.delete('page');
      return p;
    });
  return {
    today,
    start,
    end,
    days,
    valid: start <= end && days <= MAX_PERIOD_DAYS,
    /** The preset (a number of days ending today) the period is, if any. */
    preset: end === today ? days : null,
    setPeriod,
    /** The last `n` days up to today. */
    lastDays: (n: number) => setPeriod({ start: daysBefore(today, n - 1), end: today }),
  };
}

/** A calendar day ('2026-11-24', or an instant) as a short axis label: "Nov 24", "24. Nov.", "24 nov." … */
export function shortDayLabel(day: string | number, language: string): string {
  return new Intl.DateTimeFormat(language === 'en' ? 'en-US' : language, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(typeof day === 'string' ? `${day}T00:00:00Z` : day));
}
