import { z } from 'zod';

/** Body of every 4xx/5xx answer. `errors` is present on 422 only: field → list of messages. */
export const errorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  error_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/**
 * Plain messages for the two checks zod words for programmers: a missing field ('Invalid input: expected string,
 * received undefined') and a value outside a list ('Invalid option: expected one of "AL"|"AK"|…', 56 states long).
 * Every other message is the schema's own or zod's default.
 */
export const MISSING_FIELD = 'This field is required.';
export const NOT_A_CHOICE = 'Choose one of the values offered.';
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return MISSING_FIELD;
    if (issue.code === 'invalid_value' && issue.values.length > 0) {
      return issue.values.length <= 6
        ? `Choose one of: ${issue.values.map(String).join(', ')}.`
        : NOT_A_CHOICE;
    }
    return undefined;
  },
});

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;

export const TEXT_NOT_ALLOWED = 'The text contains characters that are not allowed.';

/**
 * True when the text holds a C0 control (except tab, line feed and carriage return in multi-line
 * text), DEL, a C1 control, or a UTF-16 surrogate that is not part of a pair. PostgreSQL refuses NUL
 * in text outright; the others have no business in names, notes or search either.
 */
export function hasForbiddenCharacters(value: string, multiline: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) {
      if (multiline && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      return true;
    }
    if (c >= 0x7f && c <= 0x9f) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/**
 * Every string a client sends goes through one of these two: a single line (names, e-mails, search,
 * passwords, tokens) or multi-line text (notes, descriptions). Control characters and lone surrogates
 * answer 422, never reach the database (a NUL used to give a 500), and never reach a log or a PDF.
 */
export const line = () => z.string().refine((v) => !hasForbiddenCharacters(v, false), TEXT_NOT_ALLOWED);
export const text = () => z.string().refine((v) => !hasForbiddenCharacters(v, true), TEXT_NOT_ALLOWED);

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT_PATTERN =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The one date parser of every input: a calendar day `YYYY-MM-DD` that exists. `Date.parse` takes
 * `2026-02-30` (as 2 March) and the database refuses it (a 500), so the day is checked against the calendar.
 */
export function isCalendarDay(value: string): boolean {
  const m = DAY_PATTERN.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * An ISO 8601 date and time (`2026-03-01T09:30:00Z`, `2026-03-01T09:30+02:00`, `2026-03-01 09:30`) or a
 * bare day, whose day exists and whose time is a time of day. Nothing else (`March 1`, `2026-02-30`, `25:00`).
 */
export function isIsoInstant(value: string): boolean {
  const m = INSTANT_PATTERN.exec(value);
  if (!m || !isCalendarDay(m[1]!)) return false;
  if (m[2] !== undefined && (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59)) return false;
  const offset = m[5];
  if (offset && offset.length > 1) {
    const digits = offset.replace(':', '');
    if (Number(digits.slice(1, 3)) > 23 || Number(digits.slice(3, 5)) > 59) return false;
  }
  return !Number.isNaN(Date.parse(value.replace(' ', 'T')));
}

/** A calendar day input (`YYYY-MM-DD`, one that exists); `message` for anything else. */
export const calendarDay = (message = 'Use an existing date as YYYY-MM-DD.') =>
  line().refine(isCalendarDay, message);

/** A date-and-time input (ISO 8601, a day and time that exist); `message` for anything else. */
export const isoInstant = (message = 'Give a date and time (ISO 8601).') =>
  line().refine(isIsoInstant, message);

const ID_PATTERN = /^[1-9][0-9]{0,15}$/;
/** An id in a path or query string: digits only, no sign, no leading zero, no exponent, no hex. */
export const idParam = z.string().regex(ID_PATTERN, 'The id is invalid.').transform(Number);
/** An id in a JSON body: a JSON integer only (not `"1"`, `true`, `[2]` or `1e0` in a string). */
export const bodyId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** A whole number in a query string: digits only. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/, 'The value must be a whole number.')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const pageQuery = z.object({
  page: queryInt(1, 1_000_000_000).default(1),
  // Larger pages are capped, not refused: a client asking for 1000 rows gets 100 and sees per_page: 100.
  per_page: queryInt(1, 999_999_999)
    .default(DEFAULT_PER_PAGE)
    .transform((n) => Math.min(n, MAX_PER_PAGE)),
});

export const sortDirection = line()
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(['ASC', 'DESC']));

/** The list envelope of every paged answer. */
export function paged<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    current_page: z.number().int(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  });
}
/** The one place a paged answer is built: `{ data, current_page, last_page, per_page, total }`. */
export function pageOf<T>(data: T[], query: { page: number; per_page: number }, total: number): Paged<T> {
  return {
    data,
    current_page: query.page,
    last_page: Math.max(1, Math.ceil(total / query.per_page)),
    per_page: query.per_page,
    total,
  };
}

export type Paged<T> = {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
};

export const messageBody = z.object({ message: z.string() });

type NoDefault<T> = T extends z.ZodDefault<infer Inner> ? Inner : T;

/**
 * The fields of a creation body for a change of some of them: each `.default()` is left out, since
 * `.partial()` keeps defaults and a change naming one field would reset the others to them.
 */
export function withoutDefaults<S extends z.ZodRawShape>(shape: S): { [K in keyof S]: NoDefault<S[K]> } {
  return Object.fromEntries(
    Object.entries(shape).map(([key, field]) => [
      key,
      field instanceof z.ZodDefault ? field.unwrap() : field,
    ]),
  ) as { [K in keyof S]: NoDefault<S[K]> };
}
