import { zonedInstant } from '@caredeck/domain';
import { useState } from 'react';
import { isApiError } from '../../../shared/api-client';

/** A refused field and its message, from the contract's own check or from the server's 422. */
export type FieldIssue = { field: string; message: string };

/** The issues of the contract checks (`schema.safeParse(body)`), by top-level field. */
export function contractIssues(
  ...results: { error?: { issues: { path: PropertyKey[]; message: string }[] } }[]
): FieldIssue[] {
  return results.flatMap((result) =>
    (result.error?.issues ?? []).map((issue) => ({
      field: String(issue.path[0] ?? ''),
      message: issue.message,
    })),
  );
}

/** A 422's fields as issues (the first message of each); any other failure has none. */
export function apiIssues(error: unknown): FieldIssue[] {
  return isApiError(error)
    ? Object.entries(error.fieldErrors).map(([field, list]) => ({ field, message: list[0] ?? '' }))
    : [];
}

export const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** '8:00', '0800' and '8' read as 08:00, '8pm' and '8:30 p.m.' as 20:00 and 20:30; anything else is kept as typed (and refused). */
export function normaliseTime(raw: string): string {
  const text = raw.trim();
  const match = /^(\d{1,2})(?::?(\d{2}))?\s*(?:([ap])\.?\s*m\.?)?$/i.exec(text);
  if (!match) return text;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? '0');
  const half = match[3]?.toLowerCase();
  if (half) {
    if (hour < 1 || hour > 12) return text;
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return text;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** The instant a day starts on the patient's clock (ISO), `days` days after `date`. */
export function dayStart(date: string, zone: string, days = 0): string {
  const [year, month, day] = date.split('-').map(Number);
  const shifted = new Date(Date.UTC(year!, month! - 1, day! + days));
  return new Date(
    zonedInstant(
      { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() },
      0,
      zone,
    ),
  ).toISOString();
}

/**
 * The times of day of a schedule (regimen, inhaler): typed times are normalised, de-duplicated and sorted,
 * and one that is not a time shows `invalidMessage` under the field at once.
 */
export function useScheduleTimes(initial: string[], invalidMessage: string) {
  const [times, setTimes] = useState<string[]>(initial);
  const [error, setError] = useState<string | undefined>();
  return {
    times,
    error,
    setError,
    change: (tags: string[]) => {
      const next = [...new Set(tags.map(normaliseTime))].sort();
      setTimes(next);
      setError(next.some((time) => !TIME.test(time)) ? invalidMessage : undefined);
    },
    /** Whether every time is a time of day; if not, says so under the field. */
    valid: () => {
      const ok = times.every((time) => TIME.test(time));
      if (!ok) setError(invalidMessage);
      return ok;
    },
  };
}

/**
 * Puts each issue under its form field (`fieldOf` maps the contract's field names; 'times' is the times field,
 * an unknown field is left out): the first message per field. Whether any issue found a field.
 */
export function placeIssues<K extends string>(
  issues: FieldIssue[],
  fieldOf: Record<string, K | 'times'>,
  setFormErrors: (errors: Partial<Record<K, string>>) => void,
  setTimesError: (message: string | undefined) => void,
): boolean {
  const found: Partial<Record<K, string>> = {};
  let timeMessage: string | undefined;
  for (const { field, message } of issues) {
    const target = fieldOf[field.split('.')[0] ?? field];
    if (target === 'times') timeMessage ??= message;
    else if (target && !found[target as K]) found[target as K] = message;
  }
  setFormErrors(found);
  setTimesError(timeMessage);
  return Object.keys(found).length > 0 || timeMessage !== undefined;
}
