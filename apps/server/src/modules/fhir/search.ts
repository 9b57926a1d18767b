import { AppError } from '../../platform/http/errors';

/**
 * FHIR search parameters (docs/fhir.md, ADR 073): parsed from the raw query string (a parameter may repeat:
 * `date=ge2026-01-01&date=lt2026-02-01`), each occurrence an AND of comma-separated ORs. A parameter the
 * resource does not serve, a modifier, a prefix or a value it cannot read is refused with 400, unless the
 * client asked `Prefer: handling=lenient`, which drops unknown parameters only (never a bad value).
 */
export type ParamType = 'token' | 'reference' | 'date';
export type SearchParamDef = { name: string; type: ParamType; documentation: string };

export type ParsedSearch = {
  /** Per parameter: its occurrences (AND), each a list of values (OR). */
  params: Map<string, string[][]>;
  count: number;
  /** The keyset position after which the page starts (`_cursor`, opaque to clients). */
  cursor: unknown[] | null;
  /** The parameters applied, as given (for the Bundle's self and next links); unknown lenient ones left out. */
  applied: [string, string][];
  /** `_include` values asked for (each one the resource serves, e.g. `Observation:device`). */
  includes: string[];
};

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 500;
const FORMATS = new Set(['json', 'application/json', 'application/fhir+json']);

function refuse(parameter: string, message: string): AppError {
  return new AppError('bad_request', message, { [parameter]: [message] });
}

/** Whether the request asked for lenient handling of unknown parameters (`Prefer: handling=lenient`). */
export function isLenient(prefer: string | string[] | undefined): boolean {
  const text = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return /(^|[,;\s])handling\s*=\s*lenient\b/i.test(text);
}

export function parseSearch(
  rawQuery: string,
  defs: readonly SearchParamDef[],
  lenient: boolean,
  includable: readonly string[] = [],
): ParsedSearch {
  const known = new Map(defs.map((d) => [d.name, d]));
  const params = new Map<string, string[][]>();
  const applied: [string, string][] = [];
  let count = DEFAULT_COUNT;
  let cursor: unknown[] | null = null;
  const includes: string[] = [];
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    const [name = '', modifier] = key.split(':', 2);
    if (name === '_count') {
      if (!/^[1-9][0-9]{0,5}$/.test(value)) throw refuse('_count', '_count must be a whole number from 1.');
      count = Math.min(Number(value), MAX_COUNT);
      continue;
    }
    if (name === '_cursor') {
      cursor = decodeCursor(value);
      continue;
    }
    if (name === '_include' && modifier === undefined) {
      if (!includable.includes(value))
        throw refuse(
          '_include',
          `_include=${value.slice(0, 60)} is not served here (${includable.join(', ') || 'none'}).`,
        );
      if (!includes.includes(value)) includes.push(value);
      applied.push([key, value]);
      continue;
    }
    if (name === '_format') {
      if (!FORMATS.has(value)) throw refuse('_format', 'Only JSON is served (_format=json).');
      applied.push([key, value]);
      continue;
    }
    const def = known.get(name);
    if (!def) {
      if (lenient) continue;
      throw refuse(key, `The search parameter ${name || '(empty)'} is not supported here.`);
    }
    if (modifier !== undefined) throw refuse(key, `The modifier :${modifier} is not supported.`);
    const values = value.split(',');
    if (values.some((v) => v.trim() === '')) throw refuse(name, `${name} needs a value.`);
    if (def.type === 'date') for (const v of values) parseDateBound(name, v);
    const list = params.get(name) ?? [];
    list.push(values);
    params.set(name, list);
    applied.push([key, value]);
  }
  return { params, count, cursor, applied, includes };
}

export type DateBound = { op: 'eq' | 'gt' | 'lt' | 'ge' | 'le'; start: Date; end: Date };

const DATE_VALUE =
  /^(eq|gt|lt|ge|le|ne|sa|eb|ap)?([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2})(?:T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?)?)?$/;

/**
 * A `date` value with its prefix, as the range it stands for: `2026-03` is the whole month (UTC), a time
 * without seconds the whole minute. Prefixes eq, gt, lt, ge, le; others answer 400.
 */
export function parseDateBound(parameter: string, text: string): DateBound {
  const m = DATE_VALUE.exec(text);
  if (!m) throw refuse(parameter, `${parameter}: use a date such as 2026-03-01 or 2026-03-01T08:00:00Z.`);
  const [, prefix = 'eq', y, mo, d, h, mi, s, frac, zone] = m;
  if (prefix === 'ne' || prefix === 'sa' || prefix === 'eb' || prefix === 'ap')
    throw refuse(parameter, `${parameter}: the prefix ${prefix} is not supported (eq, gt, lt, ge, le are).`);
  const year = Number(y);
  const month = mo ? Number(mo) : 1;
  const day = d ? Number(d) : 1;
  const offset = zone && zone !== 'Z' ? zoneMinutes(zone) : 0;
  const utc = Date.UTC(year, month - 1, day, h ? Number(h) : 0, mi ? Number(mi) : 0, s ? Number(s) : 0);
  const check = new Date(utc);
  const valid =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day &&
    (!h || (Number(h) < 24 && Number(mi) < 60 && (!s || Number(s) < 60))) &&
    offset !== null;
  if (!valid) throw refuse(parameter, `${parameter}: ${text.replace(/^[a-z]{2}/, '')} is not a real date.`);
  const millis = frac ? Math.trunc(Number(`0${frac}`) * 1000) : 0;
  const start = utc + millis - (offset ?? 0) * 60_000;
  let end: number;
  if (!mo) end = Date.UTC(year + 1, 0, 1);
  else if (!d) end = Date.UTC(year, month, 1);
  else if (!h) end = Date.UTC(year, month - 1, day + 1);
  else if (!s) end = start + 60_000;
  else if (!frac) end = start + 1000;
  else end = start + 1;
  return { op: prefix as DateBound['op'], start: new Date(start), end: new Date(end) };
}

function zoneMinutes(zone: string): number | null {
  const sign = zone.startsWith('-') ? -1 : 1;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 14 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

/** A page position as an opaque `_cursor` value (base64url JSON of the last row's sort key). */
export function encodeCursor(key: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** A `_cursor` a client made up or changed: 400, and the first page is the way back. */
export function invalidCursor(): AppError {
  return refuse('_cursor', 'The page link is not valid: start again from the first page.');
}

function decodeCursor(text: string): unknown[] {
  try {
    const key = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length > 0 && key.length <= 4) return key;
  } catch {
    // refused below
  }
  throw invalidCursor();
}

/** A cursor's key as [number, …] ids, or a 400 when a client changed it. */
export function cursorIds(cursor: unknown[] | null, length: number): number[] | null {
  if (!cursor) return null;
  if (
    cursor.length !== length ||
    !cursor.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)
  )
    throw invalidCursor();
  return cursor as number[];
}

/** A reference value (`Patient/12`, `12`, or a full URL ending so) as the id of `type`, or null. */
export function referenceId(type: string, value: string): string | null {
  const m = new RegExp(`(?:^|/)${type}/([A-Za-z0-9.-]{1,64})$`).exec(value);
  if (m) return m[1]!;
  return /^[A-Za-z0-9.-]{1,64}$/.test(value) ? value : null;
}

/** A numeric FHIR id (`12`), or null when the text cannot name a row (then nothing matches, no error). */
export function numericId(value: string): number | null {
  return /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : null;
}

/** A token value `system|code`, `|code` (no system) or `code` (any system). */
export function parseToken(value: string): { system: string | null | undefined; code: string } {
  const bar = value.indexOf('|');
  if (bar < 0) return { system: undefined, code: value };
  return { system: bar === 0 ? null : value.slice(0, bar), code: value.slice(bar + 1) };
}
